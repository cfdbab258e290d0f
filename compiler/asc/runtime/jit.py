"""``@asc2.jit`` / ``@asc.jit``: trace once per specialisation, cache, and launch ``kernel[core_num](...)``."""
from __future__ import annotations

import ast
import hashlib
import inspect
import os
import pickle
import tempfile
import textwrap
from dataclasses import asdict, fields
from pathlib import Path

import numpy as np

from .. import __version__
from ..frontend.visitor import FunctionVisitor
from ..ir import Block, Builder, Function, print_function, verify_function
from ..ir.analysis import batchable_loops, hoistable_ops, unbarriered_gm_loops, written_args
from ..ir.builder import building
from ..ir.core import Value
from ..ir.registry import OPS, PIPES
from ..ir.types import PtrType, ScalarType
from ..language.core import dtype as dt
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.errors import error
from ..language.core.ir_value import GlobalAddress, PlainValue, const
from . import config
from .options import CodegenOptions, CompileOptions, LaunchOptions, names
from .platforms import hardware
from .tracebacks import user_entry

_OPTION_NAMES = set(names(CodegenOptions)) | set(names(CompileOptions)) | set(names(LaunchOptions))


class CompiledKernel:
    """A traced, verified kernel for one specialisation and platform."""

    def __init__(self, fn: Function, costs, memory, platform):
        self.fn = fn
        self.written_args = written_args(fn)
        self.batchable_loops = batchable_loops(fn)
        self.hoistable = hoistable_ops(fn)   # carried-value loop -> ops run for all trips at once
        # Un-barriered loops whose iterations may depend on each other through global memory (without and
        # with arguments that alias each other).
        self.gm_loops = (unbarriered_gm_loops(fn), unbarriered_gm_loops(fn, aliased=True))
        self.costs = costs
        self.memory = memory
        self.platform = platform

    @property
    def ir(self) -> str:
        return print_function(self.fn)


def _arg_kind(name, value):
    """('ptr' | 'scalar', DataType) of a runtime argument, typed from its value as pyasc does."""
    if isinstance(value, bool):
        return "scalar", dt.int8
    if isinstance(value, int):
        if not -2**31 <= value < 2**31:
            raise error(OverflowError, f"argument '{name}' = {value} does not fit the int32 scalar it is passed as",
                        "pass a numpy scalar of a wider type (e.g. np.int64(...)) or split the value")
        return "scalar", dt.int32
    if isinstance(value, float):
        return "scalar", dt.float32
    if isinstance(value, np.ndarray):
        d = dt.from_host(value.dtype)
        if d.kind == "Any":
            raise error(TypeError, f"argument '{name}': arrays of {value.dtype} are not supported",
                        "pass int8 / int16 / int32 / float16 / bfloat16 / float32 data")
        return "ptr", d
    if isinstance(value, np.generic):
        return "scalar", dt.from_host(value.dtype)
    mod = type(value).__module__
    if mod.startswith("torch"):
        import torch
        if isinstance(value, torch.Tensor):
            d = dt.from_host(value.dtype)
            if d.kind == "Any":
                raise error(TypeError, f"argument '{name}': tensors of {value.dtype} are not supported",
                            "pass int8 / int16 / int32 / float16 / bfloat16 / float32 data")
            if value.device.type != "cpu":
                raise error(TypeError, f"argument '{name}' lives on {value.device}; the simulator reads CPU tensors",
                            "move it with .cpu() before launching")
            return ("scalar" if value.dim() == 0 else "ptr"), d
    raise error(TypeError, f"Argument type in JIT function is not supported: {type(value).__name__}",
                "pass numpy arrays / torch tensors for data, ints / floats / bools for scalars, and annotate "
                "compile-time parameters (tuples, shapes, dtypes) with asc.ConstExpr")


def _source_key():
    h = hashlib.blake2b(digest_size=16)
    root = Path(__file__).resolve().parent.parent
    for p in sorted(root.rglob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()


_SOURCE_KEY = []


def _cache_dir():
    d = os.environ.get("PYASC_CACHE_DIR")
    if d:
        return Path(d)
    return Path(os.environ.get("PYASC_HOME", os.path.expanduser("~"))) / ".pyasc" / "cache-embedded"


def _resolved_signature(fn):
    """The signature with string annotations (``from __future__ import annotations``) evaluated."""
    sig = inspect.signature(fn)
    params = []
    for p in sig.parameters.values():
        ann = p.annotation
        if isinstance(ann, str):
            try:
                ann = eval(ann, fn.__globals__)  # noqa: S307 - the kernel module's own annotation text
            except Exception:  # noqa: BLE001 - an unresolvable annotation is ignored, as for runtime params
                ann = inspect.Parameter.empty
        params.append(p.replace(annotation=ann))
    return sig.replace(parameters=params)


class JITFunction:
    def __init__(self, fn, **options):
        unknown = sorted(set(options) - _OPTION_NAMES)
        if unknown:
            raise error(RuntimeError, f"The following option names are unknown: {', '.join(unknown)}",
                        f"valid options: {', '.join(sorted(_OPTION_NAMES))}")
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.signature = _resolved_signature(fn)
        self._constexpr_flags = [is_constexpr_annotation(p.annotation) for p in self.signature.parameters.values()]
        conflicts = sorted(set(self.signature.parameters) & _OPTION_NAMES)
        if conflicts:
            raise error(RuntimeError, "The following argument names conflict with JIT configuration options: "
                        + ", ".join(conflicts), "rename the kernel parameters")
        self.options = options
        lines, lnum = inspect.getsourcelines(fn)
        self.source_file = inspect.getsourcefile(fn) or "<kernel>"
        src = textwrap.dedent("".join(lines))
        idx = next(i for i, l in enumerate(src.splitlines()) if l.lstrip().startswith(("def ", "async def ")))
        body = "\n".join(src.splitlines()[idx:])
        self.first_line = lnum + idx
        self.indent = len(lines[idx]) - len(lines[idx].lstrip())
        tree = ast.parse(body)
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
            raise error(RuntimeError, "a JIT function must be a single plain function definition",
                        "decorate a plain `def` function (not a lambda, method or async function)")
        self.node = tree.body[0]
        self.source_hash = hashlib.sha256(body.encode()).hexdigest()
        self.cache = {}
        self._relaunch = {}   # cheap argument signature -> (cache key, runtime layout)
        self.last_launch = None

    # -- launching --------------------------------------------------------------------------------
    @user_entry
    def __getitem__(self, launch):
        try:
            opts = LaunchOptions(*launch) if isinstance(launch, tuple) else LaunchOptions(launch)
        except TypeError:
            raise TypeError("Parse user launch options failed") from None
        return _Launcher(self, opts)

    @user_entry
    def __call__(self, *args, **kwargs):
        raise error(TypeError, f"kernel '{self.__name__}' must be launched with a core count: "
                    f"{self.__name__}[core_num](...)", "e.g. kernel[16](x, out, size, TILE)")

    def __repr__(self):
        return f"JITFunction({self.fn.__module__}.{self.fn.__qualname__})"

    def _split_options(self, kwargs):
        merged = dict(self.options)
        merged.update({k: kwargs.pop(k) for k in list(kwargs) if k in _OPTION_NAMES})
        cg = CodegenOptions(**{k: v for k, v in merged.items() if k in names(CodegenOptions)})
        co = CompileOptions(**{k: v for k, v in merged.items() if k in names(CompileOptions)})
        if co.opt_level not in (1, 2, 3):
            raise error(RuntimeError, "Please check input compile option", "opt_level must be 1, 2 or 3")
        if co.reuse_alloc is not None and (co.reuse_alloc not in (0, 1, 2) or isinstance(co.reuse_alloc, bool)):
            raise error(RuntimeError, "'reuse_alloc' is only allowed to be 0, 1, 2",
                        "reuse_alloc=0 (no reuse), 1 (reuse dead tiles' UB) or 2 (also across loop iterations)")
        if co.cv_ratio not in (1, 2):
            raise error(RuntimeError, f"'cv_ratio' is only allowed to be 1, 2 for the "
                        f"{config.platform_to_arch(config.current_platform())} architecture", "use cv_ratio=1 or 2")
        return cg, co

    def specialise(self, args, kwargs):
        """Classify the arguments: (codegen options, compile options, constexprs, runtime list)."""
        cg, co = self._split_options(dict(kwargs))
        kwargs = {k: v for k, v in kwargs.items() if k not in _OPTION_NAMES}
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise error(TypeError, f"{self.__name__}: {e}",
                        f"the kernel takes ({', '.join(self.signature.parameters)})") from None
        constexprs, runtime = {}, []
        for name, p in self.signature.parameters.items():
            if name not in bound.arguments:
                raise error(TypeError, f"{self.__name__}: missing a required argument: '{name}'",
                            "kernel parameter defaults are not applied at launch (as in pyasc); pass every argument")
            value = bound.arguments[name]
            if is_constexpr_annotation(p.annotation):
                value = ConstExpr.unwrap(value)
                if hasattr(p.annotation, "check"):
                    p.annotation.check(name, value)
                constexprs[name] = value
            else:
                if isinstance(value, ConstExpr):
                    raise error(TypeError, f"argument '{name}' is passed as ConstExpr but the parameter is not "
                                "annotated asc.ConstExpr", f"annotate it: {name}: asc.ConstExpr[int]")
                kind, d = _arg_kind(name, value)
                runtime.append((name, kind, d, value))
        return cg, co, constexprs, runtime

    def _key(self, cg, co, constexprs, runtime, platform):
        parts = [f"{f.name}={getattr(cg, f.name)!r}" for f in fields(cg) if f.name != "custom_builtins"]
        parts += [f"custom_builtins={sorted((k, getattr(v, '__qualname__', repr(v))) for k, v in cg.custom_builtins.items())}"]
        parts += [f"{f.name}={getattr(co, f.name)!r}" for f in fields(co)]
        parts += [f"{k}={ConstExpr(v)!r}" for k, v in constexprs.items()]
        parts += [f"{n}={kind}:{d}" for n, kind, d, _ in runtime]
        parts += [f"fn={self.fn.__module__}.{self.fn.__qualname__}", self.source_hash, platform.value, __version__]
        return hashlib.blake2b("__".join(parts).encode(), digest_size=16).hexdigest()

    def _relaunch_key(self, args, kwargs, platform):
        """A cheap signature of a plain positional launch: equal signatures classify their arguments
        identically (same ConstExpr values, same runtime kinds and dtypes). None: take the full path."""
        if kwargs or self.options.get("always_compile") or len(args) != len(self.signature.parameters):
            return None
        sig = [platform]
        for value, constexpr in zip(args, self._constexpr_flags):
            t = type(value)
            if constexpr:
                if t in (int, float, bool, str) and value == value:  # NaN never compares equal
                    sig.append((t, value))
                elif t is tuple or t.__name__ == "Size":
                    if not all(type(e) is int for e in value):
                        return None
                    sig.append((t, tuple(value)))
                else:
                    return None
            elif t is np.ndarray:
                sig.append(value.dtype)
            elif t is int:
                if not -2**31 <= value < 2**31:
                    return None
                sig.append(int)
            elif t in (float, bool):
                sig.append(t)
            elif t.__module__.startswith("torch") and t.__name__ in ("Tensor", "Parameter"):
                sig.append((value.dtype, value.device.type, value.dim() == 0))
            else:
                return None
        return tuple(sig)

    def compile(self, args, kwargs, platform=None):
        platform = platform or config.current_platform()
        fast = self._relaunch_key(args, kwargs, platform)
        if fast is not None and fast in self._relaunch:
            key, layout = self._relaunch[fast]
            hit = self.cache.get(key)
            if hit is not None:
                return hit, [(name, kind, d, args[i]) for i, name, kind, d in layout]
        cg, co, constexprs, runtime = self.specialise(args, kwargs)
        key = self._key(cg, co, constexprs, runtime, platform)
        if fast is not None:
            index = {n: i for i, n in enumerate(self.signature.parameters)}
            self._relaunch[fast] = (key, [(index[n], n, kind, d) for n, kind, d, _ in runtime])
        if not co.always_compile:
            hit = self.cache.get(key) or self._disk_load(key)
            if hit is not None:
                self.cache[key] = hit
                return hit, runtime
        compiled = self._trace(cg, co, constexprs, runtime, platform)
        if not co.always_compile:
            self.cache[key] = compiled
            self._disk_store(key, compiled)
        return compiled, runtime

    def _disk_path(self, key):
        if not _SOURCE_KEY:
            _SOURCE_KEY.append(_source_key())
        full = hashlib.blake2b((_SOURCE_KEY[0] + key).encode(), digest_size=16).hexdigest()
        return _cache_dir() / full / f"{self.__name__}.pkl"

    def _disk_load(self, key):
        path = self._disk_path(key)
        try:
            with open(path, "rb") as f:
                return pickle.load(f)
        except Exception:  # noqa: BLE001 - a missing or unreadable entry is a cache miss
            return None

    def _disk_store(self, key, compiled):
        path = self._disk_path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as f:
                pickle.dump(compiled, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except Exception:  # noqa: BLE001 - caching is best effort (read-only home, pickling limits)
            pass

    def _trace(self, cg, co, constexprs, runtime, platform):
        from .memory_plan import plan
        hw = hardware(platform)
        builder = Builder(platform)
        body = Block()
        args, handles = [], {}
        for name, kind, d, _ in runtime:
            v = Value(PtrType(d) if kind == "ptr" else ScalarType(d), None, body)
            body.args.append(v)
            args.append(v)
            handles[name] = GlobalAddress(v) if kind == "ptr" else PlainValue(v)
        fn_ir = Function(self.__name__, args, [r[0] for r in runtime], body, self.source_file,
                         {k: v for k, v in constexprs.items()})
        visitor = FunctionVisitor(self, builder, cg, constexprs)
        visitor.scope.update(handles)
        builder.dialect = fn_ir.dialect = visitor.dialect
        if co.vf_fusion and hw.arch.value != "c310":
            raise error(RuntimeError, f"VF fusion is not supported for the {hw.arch.value} architecture",
                        "drop vf_fusion=True on this platform (it only applies to C310 SoCs)")
        with building(builder), builder.insert_into(body):
            visitor.run_body(self.node.body)
        fn_ir.warnings = list(builder.warnings)
        verify_function(fn_ir)
        memory = plan(fn_ir, hw, co)
        costs = {}
        for op in fn_ir.walk():
            d = OPS.get(op.name)
            c = ("S", 0.0) if d is None or d.cost is None else d.cost(op, hw)
            # (pipe, busy ticks[, further latency until the result is ready]), or such stages run in turn
            st = tuple((PIPES.index(x[0]), float(x[1]), float(x[2]) if len(x) > 2 else 0.0)
                       for x in ([c] if isinstance(c[0], str) else c))
            costs[op.id] = (st[0][0], st[0][1], tuple(x[:2] for x in st[1:]), st)
        return CompiledKernel(fn_ir, costs, memory, platform)

    @user_entry
    def ir(self, *args, **kwargs) -> str:
        """The IR traced for these arguments (as ``kernel[n](*args)`` would trace it)."""
        compiled, _ = self.compile(args, kwargs)
        return compiled.ir

    # -- device functions -------------------------------------------------------------------------
    def inline(self, caller, args, kwargs, node):
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise error(TypeError, f"{self.__name__}: {e}") from None
        bound.apply_defaults()
        constexprs, scope = {}, {}
        for name, p in self.signature.parameters.items():
            v = bound.arguments[name]
            if is_constexpr_annotation(p.annotation):
                constexprs[name] = ConstExpr.unwrap(v)
            elif isinstance(v, (bool, int, float)) and not isinstance(v, bool):
                scope[name] = const(v, dt.int32 if isinstance(v, int) else dt.float32)
            else:
                scope[name] = v
        cg, _ = self._split_options({})
        visitor = FunctionVisitor(self, caller.builder, cg, constexprs, nested_call=True,
                                  caller_dialect=caller.dialect)
        visitor.scope.update(scope)
        saved, saved_dialect = caller.builder.loc, caller.builder.dialect
        caller.builder.dialect = visitor.dialect
        try:
            return visitor.run_body(self.node.body)
        finally:
            caller.builder.loc, caller.builder.dialect = saved, saved_dialect


class _Launcher:
    def __init__(self, jit_fn, opts):
        self.jit_fn = jit_fn
        self.opts = opts

    @user_entry
    def __call__(self, *args, **kwargs):
        from .launcher import launch
        core_num = self.opts.core_num
        if not isinstance(core_num, (int, np.integer)) or isinstance(core_num, bool) or core_num <= 0:
            raise error(ValueError, "Core number should be large than 0", "launch as kernel[core_num](...) with core_num >= 1")
        if config.STATE.backend != config.Backend.Model:
            raise error(RuntimeError, "Runtime library is not available! Select the simulator first: "
                        "config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)")
        compiled, runtime = self.jit_fn.compile(args, kwargs)
        return launch(self.jit_fn, compiled, int(core_num), runtime)

    @user_entry
    def ir(self, *args, **kwargs):
        return self.jit_fn.ir(*args, **kwargs)


def jit(fn=None, **options):
    """``@asc.jit``: a v1-style kernel (runtime ``range`` is ``asc.range``)."""
    from ..language.core.range import range as asc_range
    def wrap(f):
        opts = dict(options)
        opts.setdefault("custom_builtins", {"range": asc_range})
        return JITFunction(f, **opts)
    return wrap(fn) if fn is not None else wrap
