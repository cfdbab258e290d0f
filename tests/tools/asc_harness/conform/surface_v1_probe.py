"""v1 surface probe: describes pyasc's v1 API (``asc.language.basic / core / fwk / adv``) in the interpreter it
runs in.

Usage: python surface_v1_probe.py OUT.json [NAMES.json]

Without NAMES (pyasc-dev, the specification): every name of the four packages' ``__all__``. With NAMES (this
engine): the names of that file ({package: [names]}), each looked up where upstream code imports it
(``asc.language.<package>``, then ``asc`` / ``asc.adv``). Standard library only; never imported by the
harness. Writes {"entries": {"<package>.<name>": description}}. A description has ``kind`` (class, enum,
member, function, dtype, value, module, method, property, attribute, missing, unsupported), ``params``
([name, kind, default], defaults spelled as ``surface_probe.norm`` spells them), ``overloads`` (each
``typing.overload`` signature upstream declares) and, here, ``path``: whether ``asc.language.<package>``
has it.
"""

import enum
import importlib
import inspect
import json
import os
import sys
import typing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from surface_probe import is_enum, norm as _norm  # noqa: E402

PACKAGES = ("basic", "core", "fwk", "adv")
# Classes whose methods are API kernels call (their members are listed one by one).
MEMBER_CLASSES = ("LocalTensor", "GlobalTensor", "LocalTensorAuto", "TPipe", "TQue", "TQueBind", "TBuf", "TBufPool",
                  "LocalMemAllocator")


INTERNAL = "handle"     # the front end's IR handle: "this constructor should not be called by user"


def norm(value):
    """surface_probe's spelling, with IntEnum members by name (HardEvent.V_S, not its number)."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return _norm(value)


def params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, norm(p.default)] for p in sig.parameters.values() if p.name != INTERNAL]


def overloads(fn):
    """The distinct ``typing.overload`` signatures of ``fn`` (the IR-handle constructor left out)."""
    try:
        found = typing.get_overloads(inspect.unwrap(fn))
    except (AttributeError, TypeError, ValueError):
        return []
    out = []
    for o in found:
        try:
            names = list(inspect.signature(o).parameters)
        except (TypeError, ValueError):
            continue
        ps = params(o)
        if INTERNAL in names or ps in out:
            continue
        out.append(ps)
    return out


def describe(obj, member=False):
    if inspect.ismodule(obj):
        return {"kind": "module"}
    if type(obj).__name__ == "DataType":
        return {"kind": "dtype", "value": str(obj)}
    if is_enum(obj):
        return {"kind": "enum"}
    if isinstance(obj, type):
        init = obj.__dict__.get("__init__")
        return {"kind": "class", "params": params(obj),
                "overloads": [o[1:] for o in overloads(init) if o] if init is not None else []}
    if callable(obj):
        ps, ovs = params(obj), overloads(obj)
        if member:   # the receiver is never passed by name
            ps = ps[1:] if ps and ps[0][1] != "VAR_POSITIONAL" else ps
            ovs = [o[1:] if o and o[0][1] != "VAR_POSITIONAL" else o for o in ovs]
        return {"kind": "method" if member else "function", "params": ps, "overloads": ovs}
    return {"kind": "value", "value": norm(obj)}


def members(prefix, cls, out, upstream):
    for name in sorted(n for n in dir(cls) if not n.startswith("_")):
        raw = inspect.getattr_static(cls, name)
        if isinstance(raw, property):
            out[f"{prefix}.{name}"] = {"kind": "property"}
        elif callable(raw) or isinstance(raw, (staticmethod, classmethod)):
            d = describe(getattr(cls, name), member=not isinstance(raw, staticmethod))
            out[f"{prefix}.{name}"] = d
        elif upstream:
            out[f"{prefix}.{name}"] = {"kind": "attribute"}


def upstream_names():
    return {pkg: list(importlib.import_module(f"asc.language.{pkg}").__all__) for pkg in PACKAGES}


def lookup(pkg, name, unsupported):
    """(object or None, found at asc.language.<pkg>, refused as 'not supported')."""
    if name in unsupported:
        return None, False, True
    try:
        return getattr(importlib.import_module(f"asc.language.{pkg}"), name), True, False
    except ImportError:
        pass
    except AttributeError as e:
        if "not supported" in str(e):
            return None, False, True
    import asc
    home = asc.adv if pkg == "adv" else asc
    try:
        return getattr(home, name), False, False
    except AttributeError as e:
        return None, False, "not supported" in str(e)


def probe(names_file):
    upstream = names_file is None
    if upstream:
        names = upstream_names()
        unsupported = set()
    else:
        with open(names_file, encoding="utf-8") as fh:
            names = json.load(fh)
        from asc.language.v1.names import UPSTREAM_ADV_NAMES, UPSTREAM_NAMES
        unsupported = set(UPSTREAM_NAMES)
    out = {}
    for pkg in PACKAGES:
        for name in names.get(pkg, []):
            if upstream:
                obj, path, refused = getattr(importlib.import_module(f"asc.language.{pkg}"), name), True, False
            else:
                obj, path, refused = lookup(pkg, name, UPSTREAM_ADV_NAMES if pkg == "adv" else unsupported)
            key = f"{pkg}.{name}"
            if refused:
                out[key] = {"kind": "unsupported"}
                continue
            if obj is None:
                out[key] = {"kind": "missing"}
                continue
            out[key] = dict(describe(obj), path=path)
            if is_enum(obj):
                for member in obj.__members__:
                    out[f"{key}.{member}"] = {"kind": "member"}
            elif name in MEMBER_CLASSES and isinstance(obj, type):
                members(key, obj, out, upstream)
    return {"entries": out, "names": names}


def main(argv):
    if len(argv) not in (1, 2):
        print(__doc__.splitlines()[3], file=sys.stderr)
        return 2
    data = probe(argv[1] if len(argv) == 2 else None)
    tmp = argv[0] + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
    os.replace(tmp, argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
