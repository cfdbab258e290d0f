"""The Ascend C reference kernels (``golden/ascendc/*.py``) as v1 differential cases; imported by v1_driver.py under
both interpreters (standard library and numpy only at import).

Here (this project's interpreter, which has torch): every case of the reference's ``CASES`` that is not
``full_only`` runs through its ``launch`` on the given platform and is checked against its ``reference`` at its
``TOLERANCE``; each kernel launch is recorded (the kernel's name, the core count, each argument's kind: an
array's dtype, a number, a struct's fields). Under pyasc-dev (which has neither torch nor CANN's host tiling
library) the reference module is loaded with an empty stand-in for ``torch`` and the recorded launches are
replayed with arrays of the recorded dtypes: pyasc-dev's front end compiles each distinct one up to its device
compiler, which is what a launch of the reference there would compile.
"""

from __future__ import annotations

import importlib.util
import sys
import types

import numpy as np

# a launch's compile depends on the argument types and the numbers (ConstExpr values); one replay per distinct one
_ARRAY = "array"


class _StandIn(types.ModuleType):
    """``torch`` for a module whose top level only names its attributes (dtypes in a table): each is a name."""

    def __getattr__(self, name):
        return f"{self.__name__}.{name}"


def _load(path: str, name: str, stand_in_torch: bool = False):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    saved = sys.modules.get("torch")
    if stand_in_torch and saved is None:
        sys.modules["torch"] = _StandIn("torch")   # the module's top level only names torch's attributes
    try:
        spec.loader.exec_module(module)
    finally:
        if stand_in_torch and saved is None:
            del sys.modules["torch"]     # pyasc-dev's launcher probes for the real one
    return module


def _describe(value):
    if hasattr(value, "as_dict") and hasattr(value, "fields"):
        return {"struct": type(value).__name__, "fields": value.as_dict()}
    if hasattr(value, "dtype") and hasattr(value, "shape") and getattr(value, "ndim", len(value.shape)) > 0:
        return {_ARRAY: str(value.dtype).replace("torch.", "")}
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"a reference kernel launch argument this corpus cannot replay: {type(value).__name__}")


def run_here(path: str, platform: str, name: str) -> tuple[dict, dict, list]:
    """Run the reference's quick cases on ``platform``, each checked at its tolerance (a mismatch raises):
    ({"cases_passed": n}, {"cases_passed": the number of quick cases}, the distinct launches)."""
    import asc.runtime.config as config
    from asc.runtime import jit

    module = _load(path, name)
    config.set_platform(config.Backend.Model, config.Platform(platform))
    launches, seen = [], set()
    original = jit._Launcher.__call__

    def recording(self, *args, **kwargs):
        entry = {"kernel": self.jit_fn.__name__, "core_num": self.opts.core_num,
                 "args": [_describe(a) for a in args], "kwargs": {k: _describe(v) for k, v in kwargs.items()}}
        key = repr(entry)
        if key not in seen:
            seen.add(key)
            launches.append(entry)
        return original(self, *args, **kwargs)

    jit._Launcher.__call__ = recording
    passed = 0
    try:
        for case in module.CASES:
            if case.get("full_only"):
                continue
            inputs = module.make_inputs(case)
            outputs, expected = module.launch(*inputs), module.reference(*inputs)
            if not isinstance(outputs, tuple):
                outputs, expected = (outputs,), (expected,)
            tol = module.TOLERANCE
            for k, (got, want) in enumerate(zip(outputs, expected)):
                got, want = _f64(got), _f64(want)
                np.testing.assert_allclose(got, want, atol=case.get("atol", tol["atol"]),
                                           rtol=case.get("rtol", tol["rtol"]),
                                           err_msg=f"{module.OP} {module.DTYPE} case {case['id']} output {k}")
            passed += 1
    finally:
        jit._Launcher.__call__ = original
    quick = sum(1 for case in module.CASES if not case.get("full_only"))
    return {"cases_passed": np.array(passed)}, {"cases_passed": np.array(quick)}, launches


def _f64(value):
    if hasattr(value, "detach"):
        import torch
        return value.detach().to(torch.float64).numpy()
    return np.asarray(value, dtype=np.float64)


def _rebuild(value, asc):
    if isinstance(value, dict) and _ARRAY in value:
        dtype = value[_ARRAY]
        if dtype == "bfloat16":
            import ml_dtypes
            dtype = ml_dtypes.bfloat16
        return np.zeros(64, dtype=dtype)
    if isinstance(value, dict) and "struct" in value:
        return getattr(asc.adv, value["struct"])(**value["fields"])
    return value


def replay(path: str, name: str, launches: list, done: type) -> int:
    """Compile every recorded launch of the reference with pyasc-dev's front end; each must reach its device
    compiler (``done``). Returns how many did; the first refusal propagates."""
    import asc

    module = _load(path, name, stand_in_torch=True)
    reached = 0
    for entry in launches:
        kernel = getattr(module, entry["kernel"])
        args = [_rebuild(a, asc) for a in entry["args"]]
        kwargs = {k: _rebuild(v, asc) for k, v in entry["kwargs"].items()}
        try:
            kernel[entry["core_num"]](*args, **kwargs)
        except done:
            reached += 1
            continue
        raise RuntimeError(f"the launch of {entry['kernel']} returned before pyasc-dev compiled it")
    return reached


# the references pyasc-dev's front end refuses, each with why: a pyasc-dev bug, or a rewrite still to do (the
# reference uses what this engine takes and pyasc-dev's front end does not)
KNOWN_REFUSALS = {
    "split_f16": "pyasc-dev bug: TPipe.init_buffer has no overload for a TQueBind ('No viable candidates were "
                 "found to dispatch asc.language.fwk.tpipe()'), though its own TQueBind docstring initialises one "
                 "with pipe.init_buffer(que=que, num=num, len=len) and Ascend C's InitBuffer takes any queue",
}
