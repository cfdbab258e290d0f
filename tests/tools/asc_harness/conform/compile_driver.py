"""Compile driver: what one engine's compiler says of a corpus case (accepted with its on-chip bytes, or
rejected with its message), never imported by the harness.

Usage: python compile_driver.py CASE.py RESULT.json PLATFORM

Under pyasc-dev (``asc`` without this project's ``asc.runtime.launcher.check_launch_memory``) the kernel
goes through pyasc's real code generator and pass pipeline with the final C++ compilation replaced: its
``memory_consumed`` (the figure its launcher checks against the platform's UB / L1 / L0 sizes, raising
"UB overflow: ...") is recorded and the launch stops there. Under this project the compiled kernel's
memory plan (``compiled.memory``, checked the same way at launch) is recorded and the launch stops before
anything runs. One figure per launch: each case of a golden-interface file, the first launch of ``run()``.

Writes {"launches": [{"case": id, "memory": {"UB": bytes, ...}} | {"case": id, "error": text, "message": the
error's own text (pyasc's pass diagnostics: the first ``error:`` line's text; its code generator's
``error_message``), "line": its kernel line or null}], "error": text of a failure outside a launch}.
Standard library and numpy only.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys

_DIAGNOSTIC = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):\d+: error: (?P<text>.*)$", re.M)


class Stop(Exception):
    """A launch stopped once its memory figure is known."""


def _install_probe(platform):
    import asc.runtime.config as config
    os.environ.setdefault("PYASC_COMPILER", "true")      # the C++ compiler is never reached
    os.environ.setdefault("PYASC_LINKER", "true")
    try:
        from asc.runtime import launcher as ours
        ours.check_launch_memory   # noqa: B018 - this project's launcher
    except (ImportError, AttributeError):
        import asc.runtime.compiler as compiler
        config.set_platform(config.Backend.Model, config.Platform(platform), check=False)

        def stop_after_passes(self, source, kernel_args=None, **kw):
            raise Stop(dict(kw.get("memory_consumed") or {}))
        compiler.Compiler.run_compilation = stop_after_passes
        return
    config.set_platform(config.Backend.Model, config.Platform(platform))

    def stop_before_running(jit_fn, compiled, core_num, runtime):
        raise Stop({k: int(v) for k, v in compiled.memory.items()})
    ours.launch = stop_before_running


def describe(exc, case_path):
    """The rejection: its full text, its own message and the kernel line it names (when it names one)."""
    text = str(exc)
    found = _DIAGNOSTIC.search(text)
    if found:      # pyasc's pass pipeline: "FILE:LINE:COL: error: TEXT" diagnostics
        message, line = found.group("text").strip(), int(found.group("line"))
    else:
        message = getattr(exc, "error_message", None) or text
        line = getattr(exc, "lineno", None)
        if line is None:
            import traceback
            here = [f.lineno for f in traceback.extract_tb(exc.__traceback__)
                    if os.path.abspath(f.filename) == os.path.abspath(case_path)]
            line = here[-1] if here else None
    return {"error": f"{type(exc).__name__}: {text}"[:2000], "message": str(message)[:1000],
            "line": line}


def main(argv):
    if len(argv) != 3:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    case_path, result_path, platform = argv
    result = {"launches": [], "error": None}
    try:
        _install_probe(platform)
        sys.path.insert(0, os.path.dirname(os.path.abspath(case_path)))
        spec = importlib.util.spec_from_file_location("memory_case", case_path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        runs = [("run", module.run, ())] if hasattr(module, "run") else [
            (c["id"], module.launch, c) for c in module.CASES if not c.get("full_only")]
        for case_id, fn, case in runs:
            try:
                fn(*module.make_inputs(case)) if case else fn()
                result["launches"].append({"case": case_id, "error": "the case finished without a launch"})
            except Stop as stop:
                result["launches"].append({"case": case_id, "memory": stop.args[0]})
            except Exception as exc:  # noqa: BLE001 - a kernel rejected before its memory is known
                result["launches"].append({"case": case_id, **describe(exc, case_path)})
    except Exception as exc:  # noqa: BLE001 - the case cannot be loaded
        result["error"] = f"{type(exc).__name__}: {exc}"[:2000]
    tmp = result_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(result, fh)
    os.replace(tmp, result_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
