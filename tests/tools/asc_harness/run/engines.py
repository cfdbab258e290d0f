"""The engines kernels run on: ``embedded`` (this environment's interpreter) and ``pyasc`` (a real pyasc +
CANN install named by ``$PYASC_PYTHON``, or a pyasc-dev virtualenv with ``ASCTILE_INTERPRET=1``): their
interpreters, the environment they need inside the sandbox, the platforms they know and the versions
they report."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from asc_harness.run import sandbox
from asc_harness.common.errors import HarnessError

ENGINES = ("embedded", "pyasc")
DEFAULT_PLATFORM = "Ascend950PR_9599"
PROBE = Path(__file__).resolve().parent / "probe.py"

_PASS_PREFIXES = ("ASCEND_", "CANN_", "TOOLCHAIN_", "CAMODEL_")
_PASS_NAMES = ("LD_LIBRARY_PATH", "PYASC_DUMP_PATH", "DRY_RUN", "ASCTILE_INTERPRET")


def interpreter_for(engine: str) -> str:
    """The interpreter that runs kernels for ``engine`` (raises HarnessError if it is not configured)."""
    if engine == "embedded":
        return sys.executable
    if engine == "pyasc":
        exe = os.environ.get("PYASC_PYTHON")
        if not exe:
            raise HarnessError("--engine pyasc needs PYASC_PYTHON naming the interpreter of a pyasc + CANN "
                               "install")
        resolved = shutil.which(exe) if os.sep not in exe else exe
        if not resolved or not os.access(resolved, os.X_OK):
            raise HarnessError(f"PYASC_PYTHON={exe} is not an executable interpreter")
        return resolved
    raise HarnessError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")


def engine_env(engine: str, backend: str, platform: str) -> dict[str, str]:
    """Environment variables the engine needs inside the sandbox (beyond the scrubbed base)."""
    if engine != "pyasc":
        return {}
    env = {k: v for k, v in os.environ.items() if k.startswith(_PASS_PREFIXES) or k in _PASS_NAMES}
    home = env.get("ASCEND_HOME_PATH")
    if backend == "Model" and home:
        simlib = os.path.join(home, "tools", "simulator", platform, "lib")
        parts = [simlib] + [p for p in env.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p and p != simlib]
        env["LD_LIBRARY_PATH"] = os.pathsep.join(parts)
    return env


_platforms_cache: dict[str, list[str]] = {}


def engine_platforms(engine: str) -> list[str]:
    """The platform names the engine's ``asc.runtime.config.Platform`` accepts (asked once per process)."""
    interpreter = interpreter_for(engine)
    if interpreter not in _platforms_cache:
        import subprocess

        code = "import asc.runtime.config as c; print('\\n'.join(str(p.value) for p in c.Platform))"
        try:
            proc = subprocess.run([interpreter, "-c", code], capture_output=True, text=True, timeout=300,
                                  env={**os.environ, **engine_env(engine, "Model", DEFAULT_PLATFORM)},
                                  stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError) as exc:
            raise HarnessError(f"cannot ask the {engine} engine for its platforms: {exc}") from None
        names = [ln.strip() for ln in proc.stdout.splitlines() if ln.strip()]
        if proc.returncode != 0 or not names:
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise HarnessError(f"the {engine} engine ({interpreter}) cannot list its platforms: {tail}")
        _platforms_cache[interpreter] = names
    return _platforms_cache[interpreter]


def check_platform(engine: str, platform: str) -> None:
    """Raise HarnessError (exit 2) when ``platform`` is not one the engine knows."""
    known = engine_platforms(engine)
    if platform not in known:
        raise HarnessError(f"unknown platform {platform!r} for the {engine} engine; known: {', '.join(known)}")


_facts_cache: dict[tuple[str, str], dict] = {}


def engine_facts(interpreter: str, engine: str) -> dict:
    """Python version and engine version/revision reported by ``interpreter`` (cached per process)."""
    key = (interpreter, engine)
    if key in _facts_cache:
        return _facts_cache[key]
    facts = {"python": None, "engine_version": None, "pyasc_revision": None, "cann_version": None}
    with tempfile.TemporaryDirectory(prefix="asc-facts-") as tmp:
        out = Path(tmp) / "facts.json"
        sb = sandbox.run([interpreter, str(PROBE), "--facts-only", "--result", str(out), "--engine", engine],
                         timeout_s=120, memory_mb=None, env_extra=engine_env(engine, "Model", DEFAULT_PLATFORM),
                         writable=[tmp])
        try:
            data = json.loads(out.read_text(encoding="utf-8"))
            for k in facts:
                facts[k] = data.get(k)
        except (OSError, ValueError):
            pass
    if sb.exit_code == 0:
        _facts_cache[key] = facts
    return facts
