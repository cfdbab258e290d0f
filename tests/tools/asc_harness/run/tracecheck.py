"""Static check of a kernel file: trace its kernels on the embedded compiler without running them.

Executed by ``generate`` inside the sandbox under the embedded engine's interpreter; never imported by
the harness. Usage::

    python tracecheck.py --kernel FILE --result OUT.json [--platform P]          # trace
    python tracecheck.py --kernel GOLDEN --result OUT.json --describe-inputs     # input contract

Trace mode selects the platform, replaces the simulator launch with a recorder (kernels are traced,
verified and planned by the compiler, but not executed), imports the file and either calls
``launch(*make_inputs(case))`` for its first case (golden-interface files) or runs it as
``__main__ -r Model -v PLATFORM`` (scripts). The result JSON says ``ok`` or gives a failure
``category`` (compile_error, runtime_error, infrastructure) and ``message``, plus the number of kernel
launches traced.

With ``--then-probe PROBE-ARGS...`` (golden-interface files), a check that passed (and, with
``--require-kernels``, traced a kernel) is followed in the same process by ``probe.py`` with
PROBE-ARGS and the real launcher: the run needs the same interpreter, numpy and engine, and starting
them once is the larger part of evaluating a small kernel. The kernel file is imported afresh for
the run.

Standard library and numpy only (plus the engine's own ``asc`` package).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import runpy
import sys
import traceback

COMPILE_MARKERS = ("CodegenError", "CompilationError", "UnsupportedSyntaxError")
MESSAGE_LIMIT = 4000
_REAL_LAUNCH: list = []  # the launcher's launch, replaced by a recorder while tracing


def classify(exc) -> str:
    chain, e = [], exc
    while e is not None and e not in chain:
        chain.append(e)
        e = e.__cause__ or e.__context__
    for e in chain:
        if isinstance(e, SyntaxError):
            return "compile_error"
        if any(m in cls.__name__ for cls in type(e).__mro__ for m in COMPILE_MARKERS):
            return "compile_error"
        if isinstance(e, MemoryError):
            return "memory"
    return "runtime_error"


def describe(exc) -> str:
    head = f"{type(exc).__name__}: {exc}".strip()
    frames = traceback.extract_tb(exc.__traceback__)[-3:]
    text = head + "".join(f"\n  at {f.filename}:{f.lineno} in {f.name}" for f in frames)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + " [...]"


def write(path: str, data: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, default=str)
    os.replace(tmp, path)


def load_module(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def first_case(module):
    cases = list(getattr(module, "CASES", None) or [])
    quick = [c for c in cases if isinstance(c, dict) and not c.get("full_only")]
    return (quick or cases or [None])[0]


def describe_value(value) -> dict:
    if hasattr(value, "detach") and hasattr(value, "shape"):
        return {"kind": "torch.Tensor", "dtype": str(value.dtype).replace("torch.", ""), "shape": list(value.shape)}
    if hasattr(value, "dtype") and hasattr(value, "shape"):
        return {"kind": "numpy.ndarray", "dtype": str(value.dtype), "shape": [int(s) for s in value.shape]}
    return {"kind": type(value).__name__, "value": repr(value)}


def describe_inputs(args) -> dict:
    sys.path.insert(0, os.path.dirname(os.path.abspath(args.kernel)))
    module = load_module(os.path.abspath(args.kernel), "asc_cell_reference")
    cases = [c for c in getattr(module, "CASES", []) if isinstance(c, dict)]
    case = first_case(module)
    inputs = module.make_inputs(case)
    inputs = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
    return {"ok": True, "case": case, "inputs": [describe_value(v) for v in inputs],
            "shapes": [c.get("shape") for c in cases]}


def trace(args) -> dict:
    result = {"ok": False, "category": None, "message": None, "kernels_traced": 0, "kernels": []}
    try:
        import asc.runtime.config as config
        import asc.runtime.launcher as launcher
    except Exception as exc:  # noqa: BLE001
        result.update(category="infrastructure", message=f"the embedded compiler is not importable: {describe(exc)}")
        return result

    def record_launch(jit_fn, compiled, core_num, runtime):
        result["kernels_traced"] += 1
        name = getattr(jit_fn, "__name__", "?")
        if name not in result["kernels"]:
            result["kernels"].append(name)
        return None

    _REAL_LAUNCH.append(launcher.launch)
    launcher.launch = record_launch
    try:
        config.set_platform(config.Backend.Model, config.Platform(args.platform))
    except Exception as exc:  # noqa: BLE001
        result.update(category="infrastructure", message=f"set_platform failed: {describe(exc)}")
        return result

    kernel = os.path.abspath(args.kernel)
    sys.path.insert(0, os.path.dirname(kernel))
    try:
        module = load_module(kernel, "asc_kernel_under_check")
    except BaseException as exc:  # noqa: BLE001 - anything the file raises at import time
        if isinstance(exc, KeyboardInterrupt):
            raise
        category = "runtime_error" if isinstance(exc, SystemExit) else classify(exc)
        result.update(category=category, message="importing the kernel failed: " + describe(exc))
        return result
    try:
        if all(hasattr(module, n) for n in ("CASES", "make_inputs", "launch")):
            inputs = module.make_inputs(first_case(module))
            module.launch(*(inputs if isinstance(inputs, (tuple, list)) else (inputs,)))
        else:
            sys.argv = [kernel, "-r", "Model", "-v", args.platform]
            runpy.run_path(kernel, run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (0, None) and not result["kernels_traced"]:
            result.update(category="runtime_error", message=f"the script exited with {exc.code!r} before "
                                                             "launching a kernel")
            return result
    except BaseException as exc:  # noqa: BLE001
        if isinstance(exc, KeyboardInterrupt):
            raise
        category = classify(exc)
        # with launches recorded but not executed, host code that reads outputs may fail afterwards;
        # only a compile error (or a failure before any kernel was traced) counts
        if category == "compile_error" or not result["kernels_traced"]:
            result.update(category=category, message=describe(exc))
            return result
    result["ok"] = True
    return result


def run_probe(probe_argv: list[str]) -> int:
    """The run after a passed check: the real launcher back, then probe.py's main in this process."""
    import asc.runtime.launcher as launcher

    launcher.launch = _REAL_LAUNCH[0]
    spec = importlib.util.spec_from_file_location("asc_harness_probe",
                                                  os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe.py"))
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    return probe.main(probe_argv)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    probe_argv = None
    if "--then-probe" in argv:
        at = argv.index("--then-probe")
        argv, probe_argv = argv[:at], argv[at + 1:]
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--result", required=True)
    ap.add_argument("--platform", default="Ascend950PR_9599")
    ap.add_argument("--describe-inputs", action="store_true")
    ap.add_argument("--require-kernels", action="store_true",
                    help="with --then-probe: run only when the check traced at least one kernel")
    args = ap.parse_args(argv)
    write(args.result, {"ok": False, "category": "runtime_error", "message": "the check did not finish",
                        "kernels_traced": 0, "kernels": []})
    try:
        data = describe_inputs(args) if args.describe_inputs else trace(args)
    except BaseException as exc:  # noqa: BLE001
        if isinstance(exc, KeyboardInterrupt):
            raise
        data = {"ok": False, "category": classify(exc), "message": describe(exc), "kernels_traced": 0,
                "kernels": []}
    write(args.result, data)
    if probe_argv is not None and not args.describe_inputs and data.get("ok") and _REAL_LAUNCH \
            and (data.get("kernels_traced") or not args.require_kernels):
        return run_probe(probe_argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
