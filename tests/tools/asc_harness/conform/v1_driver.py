"""v1 differential driver: runs v1 corpus cases under one engine's interpreter, never imported by the harness.

Usage: python v1_driver.py pyasc|here RESULTS.json OUTDIR CASE.py...

A CASE of the form ``ascendc:PLATFORM:REFERENCE.py`` is an Ascend C reference kernel (v1_ascendc.py): here its
quick cases run on PLATFORM and its launches go to OUTDIR/<index>.launches.json; under pyasc-dev the launches
read from that file are compiled.

``pyasc`` (pyasc-dev's interpreter): each case's ``run()`` launches its kernel; pyasc-dev's front end turns it
into its IR, runs its passes and translates it to Ascend C, and the driver stops it where the device compiler
(bisheng) would start. Reaching that point is the verdict "accepted"; any exception before it is "rejected"
with its message. ``here`` (this project's interpreter): ``run()`` runs the kernel on Backend.Model and the
case's ``reference(arrays)`` gives what it must compute; both go to OUTDIR/<index>.npz (``out.*`` and
``ref.*``).

RESULTS.json: a list, one entry per case: ``verdict``, ``error_type``, ``message``, ``where``.
Standard library and numpy only.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback

LIMIT = 4000


class FrontEndDone(Exception):
    """pyasc-dev reached its device compiler: its front end accepted the kernel."""


def prepare_pyasc() -> None:
    # the compiler looks its tools up before the front end runs; it never runs them here
    os.environ.setdefault("PYASC_COMPILER", "true")
    os.environ.setdefault("PYASC_LINKER", "true")
    from asc.runtime import compiler, jit

    def stop(self, source, kernel_args=None, **kwargs):
        raise FrontEndDone(source)

    compiler.Compiler.run_compilation = stop
    # upstream's kernel tests select the platform and a stream, which need the CANN runtime: without one the
    # launch options carry no stream (the kernel never launches)
    import asc.lib.runtime as rt
    import asc.runtime.config as config

    config.set_platform = lambda *args, **kwargs: None
    rt.current_stream = lambda *args, **kwargs: None
    # no kernel cache: every case compiles afresh and nothing is written under $HOME
    jit.JITFunction._compile_and_cache = lambda self, prereqs: (self._compile_kernel(prereqs), None)


def prepare_here(platform: str) -> None:
    import asc.runtime.config as config

    config.set_platform(config.Backend.Model, config.Platform(platform))


def load(path: str, index: int):
    spec = importlib.util.spec_from_file_location(f"v1_case_{index}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def describe(exc: BaseException) -> dict:
    here = os.path.abspath(__file__)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename) != here]
    message = getattr(exc, "error_message", None) or str(exc)
    return {"error_type": type(exc).__name__, "message": f"{type(exc).__name__}: {message}"[:LIMIT],
            "where": [f"{os.path.basename(f.filename)}:{f.lineno} in {f.name}" for f in frames][-4:]}


def run_one(side: str, path: str, index: int, outdir: str) -> dict:
    import numpy as np

    result = {"case": path, "verdict": None, "error_type": None, "message": None, "where": []}
    if path.startswith("ascendc:"):
        return run_reference(side, path, index, outdir, result)
    try:
        module = load(path, index)
        arrays = module.run()
    except FrontEndDone:
        result["verdict"] = "accepted"
        return result
    except Exception as exc:  # noqa: BLE001 - every failure of the case is its verdict
        result.update(verdict="rejected", **describe(exc))
        return result
    if side == "pyasc":  # the launch returned without reaching the compiler: nothing was compiled
        result.update(verdict="rejected", message="the launch returned before pyasc-dev compiled the kernel")
        return result
    result["verdict"] = "accepted"
    out = {f"out.{k}": np.asarray(v) for k, v in arrays.items()}
    if hasattr(module, "reference"):
        out.update({f"ref.{k}": np.asarray(v) for k, v in module.reference(arrays).items()})
    np.savez(os.path.join(outdir, f"{index}.npz"), **out)
    return result


def run_reference(side: str, spec: str, index: int, outdir: str, result: dict) -> dict:
    import numpy as np

    import v1_ascendc

    _, platform, path = spec.split(":", 2)
    launches_path = os.path.join(outdir, f"{index}.launches.json")
    try:
        if side == "pyasc":
            with open(launches_path, encoding="utf-8") as fh:
                launches = json.load(fh)
            v1_ascendc.replay(path, f"v1_ref_{index}", launches, FrontEndDone)
            result["verdict"] = "accepted"
            return result
        arrays, expected, launches = v1_ascendc.run_here(path, platform, f"v1_ref_{index}")
    except Exception as exc:  # noqa: BLE001 - every failure of the reference is its verdict
        result.update(verdict="rejected", **describe(exc))
        return result
    with open(launches_path, "w", encoding="utf-8") as fh:
        json.dump(launches, fh)
    result["verdict"] = "accepted"
    out = {f"out.{k}": np.asarray(v) for k, v in arrays.items()}
    out.update({f"ref.{k}": np.asarray(v) for k, v in expected.items()})
    np.savez(os.path.join(outdir, f"{index}.npz"), **out)
    return result


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] not in ("pyasc", "here"):
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    side, results_path, outdir, cases = argv[0], argv[1], argv[2], argv[3:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))   # v1_forms for the cases
    if side == "pyasc":
        prepare_pyasc()
    else:
        prepare_here(os.environ.get("V1_PLATFORM", "Ascend910B1"))
    results = [run_one(side, path, i, outdir) for i, path in enumerate(cases)]
    tmp = results_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(results, fh)
    os.replace(tmp, results_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
