"""``@asc2.jit`` / ``@asc.jit``: specialise per arguments, cache, and launch ``kernel[core_num](...)``.

The pieces live beside this file: ``arguments`` (argument kinds), ``options`` (the option dataclasses),
``cache`` (the on-disk cache), ``trace`` (AST -> checked IR with costs), ``launcher`` (running it).
"""
from __future__ import annotations

import ast
import hashlib
import inspect
import textwrap
from dataclasses import fields

import numpy as np

from .. import __version__
from ..frontend.device_calls import KernelFunction
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.errors import error
from . import config
from ..frontend.v1_types import check_kinds
from .arguments import MockTensor, MockValue, arg_kind, resolved_signature  # noqa: F401  (pyasc's names)
from .cache import disk_load
from .dependencies import constants, helpers_source_hash, namespace, refused_reference, unavailable_builtin
from .caches import BoundedCache, KernelCache
from .options import OPTION_NAMES as _OPTION_NAMES, LaunchOptions, split_options
from .platforms import hardware
from .trace import trace
from .tracebacks import user_entry

_MAX_RELAUNCH_KEYS = 256   # argument signatures remembered per kernel


_V1_CALLS = None


def _v1_calls():
    """The v1 front end's helper-call entry points (imported on first use: a tile-only program never loads
    the v1 engine; a v1 kernel calls its helpers at every trip)."""
    global _V1_CALLS
    if _V1_CALLS is None:
        from ..frontend.v1_helpers import check_helper_call
        from ..frontend.v1_kernel import in_v1_block, v1_body
        _V1_CALLS = (in_v1_block, check_helper_call, v1_body)
    return _V1_CALLS


class JITFunction(KernelFunction):
    @user_entry   # (a decorator's mistake is the user's too: unknown options, a lambda)
    def __init__(self, fn, **options):
        unknown = sorted(set(options) - _OPTION_NAMES)
        if unknown:
            raise error(RuntimeError, f"The following option names are unknown: {', '.join(unknown)}",
                        f"valid options: {', '.join(sorted(_OPTION_NAMES))}")
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.signature = resolved_signature(fn)
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
        self.body_source = body   # parsed again where a front end rewrites the kernel (cheaper than a deep copy)
        self.source_hash = hashlib.sha256(body.encode()).hexdigest()
        self.cache = KernelCache(self)   # cache key -> CompiledKernel (bounded over the process)
        # cheap argument signature -> (cache key, runtime layout)
        self._relaunch = BoundedCache("relaunch signatures", _MAX_RELAUNCH_KEYS)
        self.last_launch = None

    # -- launching --------------------------------------------------------------------------------
    @user_entry
    def __getitem__(self, launch):
        launchers = self.__dict__.setdefault("_launchers", {})   # kernel[n] made once per core count n
        hit = launchers.get(launch) if type(launch) is int else None
        if hit is not None:
            return hit
        try:
            opts = LaunchOptions(*launch) if isinstance(launch, tuple) else LaunchOptions(launch)
        except TypeError:
            raise TypeError("Parse user launch options failed") from None
        launcher = _Launcher(self, opts)
        if type(launch) is int and len(launchers) < 64:
            launchers[launch] = launcher
        return launcher

    @property
    def is_august(self):
        """Whether the kernel is written in the August dialect (read from its source once)."""
        v = self.__dict__.get("_is_august")
        if v is None:
            from ..frontend.generation import launched_dialect
            v = self._is_august = launched_dialect(self).august
        return v

    @property
    def is_april(self):
        """Whether the kernel is a tile kernel in the April dialect."""
        return not self.is_v1 and not self.is_august

    @property
    def namespace(self):
        """The names the body resolves besides its locals: its enclosing function's variables (for a kernel
        defined inside a function), then its module's globals, as pyasc resolves them."""
        return namespace(self.fn)

    @property
    def is_v1(self):
        """Whether the kernel is written against pyasc's v1 API (it runs on the v1 front end)."""
        v = self.__dict__.get("_is_v1")
        if v is None:
            from ..frontend.v1_kernel import called_names, uses_v1
            self._is_v1 = False    # (a helper calling this one back sees False meanwhile)
            v = uses_v1(self.node) or any(getattr(self.namespace.get(n), "is_v1", False) is True
                                          for n in called_names(self.node))
            self._is_v1 = v
        return v

    @user_entry
    def __call__(self, *args, **kwargs):
        in_v1_block, check_helper_call, v1_body = _v1_calls()
        if in_v1_block():     # a helper called from a v1 kernel's body runs inline, as pyasc could compile it
            check_helper_call(self, args, kwargs)
            return v1_body(self)(*args, **kwargs)
        raise error(TypeError, f"kernel '{self.__name__}' must be launched with a core count: "
                    f"{self.__name__}[core_num](...)", "e.g. kernel[16](x, out, size, TILE)")

    def __repr__(self):
        return f"JITFunction({self.fn.__module__}.{self.fn.__qualname__})"

    def _split_options(self, kwargs):
        return split_options(self.options, kwargs)

    def _trace(self, cg, co, constexprs, runtime, platform):
        return trace(self, cg, co, constexprs, runtime, platform)

    def codegen_options(self):
        """The codegen options this function's body is traced with (also when called from a kernel)."""
        return self._split_options({})[0]

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
            if name in bound.arguments:
                value = bound.arguments[name]
            elif p.default is not inspect.Parameter.empty and self.is_august:
                value = p.default   # pyasc-dev binds with apply_defaults(); April pyasc did not
            else:
                raise error(TypeError, f"{self.__name__}: missing a required argument: '{name}'",
                            "kernel parameter defaults are not applied at launch in April kernels (as in April "
                            "pyasc); pass every argument")
            if isinstance(value, ConstExpr):
                # A ConstExpr value is compile-time whatever the annotation (pyasc's split_args): one kernel
                # file is launched "static" (asc2.ConstExpr(n)) and "dynamic" (n).
                constexprs[name] = value.value
            elif is_constexpr_annotation(p.annotation):
                if hasattr(p.annotation, "check"):
                    p.annotation.check(name, value)
                constexprs[name] = value
            else:
                kind, d = arg_kind(name, value)
                runtime.append((name, kind, d, value))
        return cg, co, constexprs, runtime

    def _key(self, cg, co, constexprs, runtime, platform, deps):
        parts = [f"{f.name}={getattr(cg, f.name)!r}" for f in fields(cg) if f.name != "custom_builtins"]
        parts += [f"custom_builtins={type(cg.custom_builtins).__name__}"  # a given dict replaces the defaults
                  f"{sorted((k, getattr(v, '__qualname__', repr(v))) for k, v in cg.custom_builtins.items())}"]
        parts += [f"{f.name}={getattr(co, f.name)!r}" for f in fields(co)]
        parts += [f"{k}={ConstExpr(v)!r}" for k, v in constexprs.items()]
        parts += [f"{n}={kind}:{d}" for n, kind, d, _ in runtime]
        parts += [f"fn={self.fn.__module__}.{self.fn.__qualname__}", self.source_hash, platform.value, __version__]
        parts += [f"helpers={helpers_source_hash(self)}", f"names={deps!r}"]
        # the IR's source locations name this file and line: a copy of the kernel elsewhere is another entry
        parts += [f"at={self.source_file}:{self.first_line}:{self.indent}"]
        return hashlib.blake2b("__".join(parts).encode(), digest_size=16).hexdigest()

    def _relaunch_key(self, args, kwargs, platform, deps):
        """A cheap signature of a plain positional launch: equal signatures classify their arguments
        identically (same ConstExpr values, same runtime kinds and dtypes) and see the same module constants.
        None: take the full path."""
        if kwargs or self.options.get("always_compile") or len(args) != len(self.signature.parameters) \
                or deps is None:
            return None
        sig = [platform, deps]
        for value, constexpr in zip(args, self._constexpr_flags):
            t = type(value)
            if t is ConstExpr:   # compile-time at any parameter: its value decides the specialisation
                sig.append(ConstExpr)
                value, t, constexpr = value.value, type(value.value), True
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
        deps = constants(self)     # the module constants it names: a change is another kernel
        fast = self._relaunch_key(args, kwargs, platform, deps)
        known = self._relaunch.get(fast) if fast is not None else None
        if known is not None:
            key, layout = known
            hit = self.cache.get(key)
            if hit is not None:
                return hit, [(name, kind, d, args[i]) for i, name, kind, d in layout]
        cg, co, constexprs, runtime = self.specialise(args, kwargs)
        key = self._key(cg, co, constexprs, runtime, platform, deps)
        if fast is not None:
            index = {n: i for i, n in enumerate(self.signature.parameters)}
            self._relaunch.put(fast, (key, [(index[n], n, kind, d) for n, kind, d, _ in runtime]))
        if not co.always_compile and not self.is_april:
            check_references(self)
        cached = not co.always_compile and deps is not None   # (a constant without a stand-in: trace each time)
        if cached:
            hit = self.cache.get(key) or disk_load(key, self.__name__)
            if hit is not None:
                self.cache[key] = hit
                return hit, runtime
        compiled = self._trace(cg, co, constexprs, runtime, platform)
        if cached:
            self.cache[key] = compiled
            # written once its first launch ran (``launcher.launch``), with the tick schedule it made
            compiled.unsaved = (key, self.__name__)
        return compiled, runtime

    @user_entry
    def ir(self, *args, **kwargs) -> str:
        """The IR traced for these arguments (as ``kernel[n](*args)`` would trace it)."""
        if self.is_v1:
            raise error(TypeError, f"{self.__name__} is a v1 kernel: its instructions run block by block and "
                        "have no traced IR to print", "record a launch's timeline (ASC_TIMELINE=1 or "
                        "asc.lib.profiling) to see every instruction on its pipe")
        compiled, _ = self.compile(args, kwargs)
        return compiled.ir


def _refuse_at(found, exc_type, message, hint):
    """The kernel stops at the name a source walk found (``found``: (what, AST node, the JIT function))."""
    from ..frontend.errors import error_at
    _, node, owner = found
    raise error_at(owner, node, exc_type, message, hint)


def check_references(jit_fn):
    """A launch that caches its kernel (every one without ``always_compile=True``) refuses, as pyasc's cache
    key does, a kernel whose source (or a ``@jit`` helper's) names a plain callable: a Python helper
    function, ``math.sqrt``, a lambda. (April kernels refuse it while tracing, cached or not.)"""
    found = refused_reference(jit_fn)
    if found is not None:
        _refuse_at(found, RuntimeError, f"Unsupported function referenced: {found[0]}",
                   "a kernel that is cached (no always_compile=True) may only name pyasc functions and @jit "
                   "functions: decorate the helper with @jit, compute the value on the host (a module "
                   "constant or a ConstExpr argument), or launch with always_compile=True")


_BUILTIN_HINTS = {
    "min": "compare and assign values of one kind (`m = a` then `if b < a: m = b`, a and b both device values or "
           "both Python numbers), or compute it on the host",
    "max": "compare and assign values of one kind (`m = a` then `if b > a: m = b`, a and b both device values or "
           "both Python numbers), or compute it on the host",
    "print": "print on the device with asc.printf(...), or inspect values on the host after the launch",
    "getattr": "name the function directly (asc.add), or bind it outside the kernel and use that name",
}


def check_builtins(jit_fn):
    """A v1 kernel (or a ``@jit`` helper it calls) naming a Python builtin pyasc's name scope lacks (``min``,
    ``abs``, ``print``, ``getattr`` ...) stops at its line, as pyasc's code generator stops there: the tile
    front end refuses them while tracing, the v1 body runs as Python and is checked before it runs."""
    found = unavailable_builtin(jit_fn)
    if found is not None:
        name = found[0]
        _refuse_at(found, NameError, f"{name} is not defined", _BUILTIN_HINTS.get(
            name, f"pyasc kernels have no {name} builtin: compute it on the host and pass the value, or write "
                  "it with the kernel's own operations"))


class _Launcher:
    def __init__(self, jit_fn, opts):
        self.jit_fn = jit_fn
        self.opts = opts

    @user_entry
    def __call__(self, *args, **kwargs):
        core_num = self.opts.core_num
        if core_num is None:   # pyasc: all cores of the platform (the runtime's AI-core count)
            core_num = hardware(config.current_platform()).aic_cores
        elif not isinstance(core_num, (int, np.integer)) or isinstance(core_num, bool) or core_num <= 0:
            raise error(ValueError, "Core number should be large than 0 ('core_num' must be positive)",
                        "launch as kernel[core_num](...) with core_num >= 1, or kernel[None](...) for all cores")
        if config.STATE.backend != config.Backend.Model:
            raise error(RuntimeError, "Runtime library is not available! Select the simulator first: "
                        "config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)")
        if self.jit_fn.is_v1:
            from .v1_launch import launch_v1
            opts = dict(self.jit_fn.options)
            opts.update({k: kwargs.pop(k) for k in list(kwargs) if k in _OPTION_NAMES})
            check_builtins(self.jit_fn)
            if not opts.get("always_compile"):
                check_references(self.jit_fn)
            check_kinds(self.jit_fn, args, kwargs)
            return launch_v1(self.jit_fn, config.current_platform(), int(core_num), args, kwargs, opts)
        compiled, runtime = self.jit_fn.compile(args, kwargs)
        return _launcher().launch(self.jit_fn, compiled, int(core_num), runtime)

    @user_entry
    def ir(self, *args, **kwargs):
        return self.jit_fn.ir(*args, **kwargs)


def _launcher():
    """The ``launcher`` module (imported on the first launch: tracing alone does not load the simulator).
    Its ``launch`` is looked up at every launch: tools replace it (the harness's trace check records the
    kernels a file launches instead of running them)."""
    mod = _LAUNCHER[0]
    if mod is None:
        from . import launcher as mod
        _LAUNCHER[0] = mod
    return mod


_LAUNCHER = [None]


def jit(fn=None, **options):
    """``@asc.jit``: a v1-style kernel (runtime ``range`` is ``asc.range``)."""
    from ..language.core.range import range as asc_range
    def wrap(f):
        opts = dict(options)
        opts.setdefault("custom_builtins", {"range": asc_range})
        return JITFunction(f, **opts)
    return wrap(fn) if fn is not None else wrap

