"""Conformance driver: runs one corpus case under the interpreter of one engine, never imported by the harness.

Usage: python conformance_driver.py CASE.py RESULT.json OUTPUTS.npz [PLATFORM]

Selects the platform (``asctile.set_platform`` when the case uses ``asc.experimental.asctile``, which is
a no-op under pyasc-dev's interpreter; ``asc.runtime.config.set_platform`` otherwise), imports the case
by path and calls its ``run()`` (a dict name -> array of results) or, for a file with the golden
interface, ``launch(*make_inputs(case))`` for every case of ``CASES`` that is not ``full_only``. Writes
the verdict and error to RESULT.json and the results to OUTPUTS.npz (float64 arrays).

Result keys: ``verdict`` (accepted | rejected), ``error_type``, ``message`` (the error's own text: pyasc's
``error_message`` for its code generator errors, ``str(exc)`` otherwise), ``text`` (``Type: str(exc)``),
``in_launcher`` (the error came from inside pyasc-dev's interpreter loop, i.e. after its front end had
accepted the kernel), ``where`` (innermost frames), ``outputs`` (names written to OUTPUTS.npz).

Standard library and numpy only: this file runs under pyasc-dev's virtualenv as well as this project's.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback

LIMIT = 4000
LAUNCHER_FRAMES = ("_run_launcher",)  # pyasc-dev: InterpretedFunction._run_launcher runs the numpy interpreter


def select_platform(module_uses_asctile: bool, platform: str) -> None:
    import asc.runtime.config as config

    backend, plat = config.Backend.Model, config.Platform(platform)
    if module_uses_asctile:
        from asc.experimental import asctile

        if hasattr(asctile, "set_platform"):
            asctile.set_platform(backend, plat)
            return
    config.set_platform(backend, plat)


def as_arrays(value, np, prefix):
    """Flatten a result (array, tensor or list; a tuple or dict of results) into {name: float64 array}."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out.update(as_arrays(v, np, f"{prefix}{k}" if not prefix else f"{prefix}.{k}"))
        return out
    if isinstance(value, tuple):  # several outputs, as a golden launch() returns them
        out = {}
        for i, v in enumerate(value):
            out.update(as_arrays(v, np, f"{prefix}[{i}]"))
        return out
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # a torch tensor
        value = value.detach().cpu().float().numpy()
    return {prefix or "out": np.asarray(value).astype(np.float64)}


def describe(exc):
    text = str(exc)
    message = getattr(exc, "error_message", None) or text
    here = os.path.abspath(__file__)
    frames = traceback.extract_tb(exc.__traceback__)
    in_launcher = any(f.name in LAUNCHER_FRAMES for f in frames)
    where = [f"{os.path.basename(f.filename)}:{f.lineno} in {f.name}" for f in frames
             if os.path.abspath(f.filename) != here][-4:]
    return {"error_type": type(exc).__name__, "message": message[:LIMIT],
            "text": f"{type(exc).__name__}: {text}"[:LIMIT], "in_launcher": in_launcher, "where": where}


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    case_path, result_path, outputs_path = argv[:3]
    platform = argv[3] if len(argv) == 4 else "Ascend950PR_9599"
    result = {"verdict": None, "error_type": None, "message": None, "text": None, "in_launcher": False,
              "where": [], "outputs": []}
    try:
        import numpy as np

        with open(case_path, encoding="utf-8") as fh:
            uses_asctile = "asc.experimental" in fh.read()
        select_platform(uses_asctile, platform)
        sys.path.insert(0, os.path.dirname(os.path.abspath(case_path)))
        spec = importlib.util.spec_from_file_location("conformance_case", case_path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        if hasattr(module, "run"):
            outputs = as_arrays(module.run(), np, "")
        else:
            outputs = {}
            for case in module.CASES:
                if not case.get("full_only"):
                    outputs.update(as_arrays(module.launch(*module.make_inputs(case)), np, case["id"]))
        np.savez(outputs_path, **outputs)
        result.update(verdict="accepted", outputs=sorted(outputs))
    except BaseException as exc:  # noqa: BLE001 - every failure of the case is its verdict
        if isinstance(exc, KeyboardInterrupt):
            raise
        result.update(verdict="rejected", **describe(exc))
    tmp = result_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(result, fh)
    os.replace(tmp, result_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
