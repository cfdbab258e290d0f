"""Surface probe: describes the public surface of ``asc.experimental.asctile`` in the interpreter it runs in.

Usage: python surface_probe.py OUT.json [PLATFORM]

Runs under pyasc-dev's interpreter (the specification) and under this project's (the engine), never imported
by the harness. Standard library only. Writes {"entries": {qualified name: description}, "launch_forms":
{form: verdict}}. A description has ``kind`` (module, class, enum, member, function, dtype, value, field,
method, property, attribute, builtin, option) and, for callables, ``params``: [name, kind, default], the
default normalised so that the two engines' spellings compare (``TensorLocation.Auto``, ``float16``,
``<required>``).

Launch forms (``kernel[n]``, ``kernel[None]``, ``kernel[n, None]``, ...) are tried on a one-tile kernel when
ASCTILE_INTERPRET=1 is set for pyasc-dev (its interpreter runs it) and always here.
"""

import dataclasses
import enum
import inspect
import json
import os
import re
import sys

REQUIRED = "<required>"
KERNEL_CLASSES = ("LocalTensor", "GlobalTensor")
LAUNCH_FORMS = {"[n]": (4,), "[None]": (None,), "[n, None]": (4, None), "[None, None]": (None, None)}


def norm(value):
    """A spelling of a default value that is the same in both engines when the values mean the same."""
    if value is inspect.Parameter.empty:
        return REQUIRED
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return repr(type(value)(norm(v) for v in value))
    name = getattr(value, "name", None)
    cls = type(value).__name__
    if isinstance(value, enum.Enum) or (isinstance(name, str) and hasattr(type(value), "__members__")):
        cls = "TensorLocation" if cls.endswith("Location") else cls.replace("asctile_", "")
        return f"{cls}.{name}"
    if cls == "DataType":
        return str(value)
    if callable(value):
        return f"<callable {getattr(value, '__name__', cls)}>"
    return f"<{cls}>"


def params(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, norm(p.default)] for p in sig.parameters.values()]


def is_enum(obj):
    return isinstance(obj, type) and hasattr(obj, "__members__") and not dataclasses.is_dataclass(obj)


def describe(obj):
    if inspect.ismodule(obj):
        return {"kind": "module"}
    if type(obj).__name__ == "DataType":
        return {"kind": "dtype", "value": str(obj)}
    if is_enum(obj):
        return {"kind": "enum"}
    if isinstance(obj, type):
        return {"kind": "class", "params": params(obj)}
    if callable(obj):
        return {"kind": "function", "params": params(obj)}
    return {"kind": "value", "value": norm(obj)}


def class_members(prefix, cls, out):
    for name in sorted(n for n in dir(cls) if not n.startswith("_")):
        raw = inspect.getattr_static(cls, name)
        if isinstance(raw, property):
            out[f"{prefix}.{name}"] = {"kind": "property"}
        elif isinstance(raw, (staticmethod, classmethod)) or callable(raw):
            fn = getattr(cls, name)
            ps = params(fn)  # the receiver is never passed by name: its spelling (self / input) is not API
            out[f"{prefix}.{name}"] = {"kind": "method", "params": ps[1:] if ps and not isinstance(
                raw, staticmethod) and ps[0][1] != "VAR_POSITIONAL" else ps}
        else:
            out[f"{prefix}.{name}"] = {"kind": "attribute"}
    for name in list(getattr(cls, "__annotations__", {})) + instance_attributes(cls):
        if not name.startswith("_"):
            out.setdefault(f"{prefix}.{name}", {"kind": "attribute"})


def instance_attributes(cls):
    """The attributes ``__init__`` sets on ``self`` (``shape``, ``dtype``, ...), read from its source."""
    names = []
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        try:
            source = inspect.getsource(init) if init is not None else ""
        except (OSError, TypeError):
            continue
        names += re.findall(r"self\.([A-Za-z]\w*)\s*(?::[^=\n]*)?=(?!=)", source)
    return sorted(set(names))


def option_fields(prefix, cls, out):
    for f in dataclasses.fields(cls):
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else inspect.Parameter.empty)
        if isinstance(default, dict):
            default = {}
        out[f"{prefix}.{f.name}"] = {"kind": "field", "default": "{}" if default == {} else norm(default)}


def option_classes():
    """(CodegenOptions, CompileOptions, LaunchOptions, jit keywords) where each engine defines them."""
    from asc.experimental import asctile
    try:  # pyasc-dev
        from asc.codegen.function_visitor import CodegenOptions
        from asc.experimental.asctile.runtime.jit import JITFunction
        from asc.runtime.launcher import LaunchOptions
        keywords = JITFunction.get_config_keywords()
    except ImportError:  # this engine: one option set for both dialects
        from asc.runtime.options import OPTION_NAMES, CodegenOptions, LaunchOptions
        keywords = sorted(OPTION_NAMES)
    return CodegenOptions, asctile.CompileOptions, LaunchOptions, keywords


asctile = None  # the module, bound by probe(): kernels refer to it by this global name, as users write them


def one_tile_kernel(x_ptr, y_ptr, n: int):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    t = asctile.copy_in(x, [asctile.block_idx() * 8], [8])
    asctile.copy_out(t + 1.0, y, [asctile.block_idx() * 8])


def builtins_of(kernel):
    """{name: params}: the custom builtins a kernel's options carry, and (this engine, whose front end
    provides some itself) each builtin a kernel using it is accepted with."""
    opts = getattr(kernel, "default_options", None)
    upstream = opts is not None
    out = {name: params(fn) for name, fn in dict((opts if upstream else kernel.options).get("custom_builtins")
                                                 or {}).items()}
    if upstream:
        return out
    try:
        from asc.language.tile.kernel_builtins import KERNEL_BUILTINS
    except ImportError:
        KERNEL_BUILTINS = {}
    for name, kernel_fn in BUILTIN_KERNELS.items():
        if name not in out and builtin_accepted(kernel_fn):
            out[name] = params(KERNEL_BUILTINS[name]) if name in KERNEL_BUILTINS else None
    return out


def uses_max(x_ptr, y_ptr):
    t = asctile.copy_in(asctile.global_tensor(x_ptr, [8]), [0], [8])
    asctile.copy_out(max(t, t + 1.0), asctile.global_tensor(y_ptr, [8]), [0])


def uses_min(x_ptr, y_ptr):
    t = asctile.copy_in(asctile.global_tensor(x_ptr, [8]), [0], [8])
    asctile.copy_out(min(t, t + 1.0), asctile.global_tensor(y_ptr, [8]), [0])


def uses_sum(x_ptr, y_ptr):
    t = asctile.copy_in(asctile.global_tensor(x_ptr, [8]), [0], [8])
    asctile.copy_out(sum([t, t]), asctile.global_tensor(y_ptr, [8]), [0])


def uses_print(x_ptr, y_ptr):
    t = asctile.copy_in(asctile.global_tensor(x_ptr, [8]), [0], [8])
    print("tile", t)
    asctile.copy_out(t, asctile.global_tensor(y_ptr, [8]), [0])


def uses_assert(x_ptr, y_ptr):
    t = asctile.copy_in(asctile.global_tensor(x_ptr, [8]), [0], [8])
    assert asctile.block_idx() == 0, "one block"
    asctile.copy_out(t, asctile.global_tensor(y_ptr, [8]), [0])


BUILTIN_KERNELS = {"max": uses_max, "min": uses_min, "sum": uses_sum, "print": uses_print, "assert": uses_assert}


def builtin_accepted(fn):
    import numpy as np

    try:
        asctile.jit(fn)[1](np.ones(8, np.float32), np.zeros(8, np.float32))
        return True
    except Exception:  # noqa: BLE001 - a kernel using the builtin is refused: it is not there
        return False


def launcher_accepts(index):
    """pyasc-dev: whether its launcher takes these options (its interpreter cannot run core_num=None)."""
    try:
        from asc.runtime.launcher import Launcher, LaunchOptions
    except ImportError:
        return None
    try:
        Launcher(LaunchOptions(*index))
        return "accepted"
    except Exception as exc:  # noqa: BLE001
        return f"rejected: {type(exc).__name__}: {exc}"


def launch_forms(kernel):
    import numpy as np

    verdicts = {}
    for form, index in LAUNCH_FORMS.items():
        spec = launcher_accepts(index)
        if spec is not None:
            verdicts[f"{form} launcher"] = spec
        x = np.arange(8 * 128, dtype=np.float32)
        y = np.zeros_like(x)  # every block writes its own 8 elements: 4 blocks, or all cores (fewer than 128)
        try:
            kernel[index if len(index) > 1 else index[0]](x, y, x.size)
            ok = bool(np.allclose(y[:32], x[:32] + 1.0))
            verdicts[form] = "accepted" if ok else "accepted, wrong result"
        except Exception as exc:  # noqa: BLE001 - the verdict is what is recorded
            verdicts[form] = f"rejected: {type(exc).__name__}: {str(exc).strip().splitlines()[-1][:200]}"
    return verdicts


def probe(platform):
    global asctile
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from conformance_driver import select_platform
    from asc.experimental import asctile as module

    asctile = module
    select_platform(True, platform)

    out = {}
    for name in sorted(n for n in dir(asctile) if not n.startswith("_")):
        obj = getattr(asctile, name)
        out[name] = describe(obj)
        if is_enum(obj):
            for member in obj.__members__:
                out[f"{name}.{member}"] = {"kind": "member"}
        elif name in KERNEL_CLASSES:
            class_members(name, obj, out)
    codegen, compile_, launch, keywords = option_classes()
    option_fields("CompileOptions", compile_, out)
    option_fields("CodegenOptions", codegen, out)
    option_fields("LaunchOptions", launch, out)
    for kw in keywords:
        out[f"jit({kw}=)"] = {"kind": "option"}
    kernel = asctile.jit(one_tile_kernel)
    for name, ps in sorted(builtins_of(kernel).items()):
        out[f"builtin {name}"] = {"kind": "builtin", "params": ps}
    forms = launch_forms(kernel) if os.environ.get("ASCTILE_INTERPRET") or not hasattr(kernel, "default_options") \
        else {}
    return {"entries": out, "launch_forms": forms}


def main(argv):
    if len(argv) not in (1, 2):
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    data = probe(argv[1] if len(argv) == 2 else "Ascend950PR_9599")
    tmp = argv[0] + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
    os.replace(tmp, argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
