"""The pyasc-dev oracle: its interpreter (given, or a virtualenv the conformance tools set up on request)
and the check that it can import ``asc.experimental.asctile``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from asc_harness.common.errors import HarnessError

DEFAULT_VENV = Path.home() / ".cache" / "asc-embedded" / "pyasc-dev"
PYASC_DEV_REQUIREMENTS = ("--pre", "pyasc-dev", "numpy<2", "ml_dtypes<0.5")  # ml_dtypes: bfloat16 inputs


def venv_python(venv_dir: Path) -> Path:
    return venv_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv(venv_dir: Path, *, create: bool) -> Path:
    """The interpreter of the pyasc-dev virtualenv at ``venv_dir``, created (``create``) when missing."""
    python = venv_python(venv_dir)
    if not python.exists() or _pyasc_problem(python):
        if not create:
            raise HarnessError(f"no pyasc-dev virtualenv at {venv_dir} (pass --setup to create it, or set "
                               "PYASC_DEV_PYTHON to its interpreter)")
        print(f"conformance: setting up pyasc-dev in {venv_dir}", file=sys.stderr)
        try:
            if not python.exists():
                venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
            subprocess.run([str(python), "-m", "pip", "install", "--quiet", *PYASC_DEV_REQUIREMENTS],
                           check=True, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise HarnessError(f"cannot set up the pyasc-dev virtualenv in {venv_dir}: {exc}") from None
    return python


def _pyasc_problem(python: Path) -> str | None:
    """Why ``python`` cannot serve as the pyasc-dev oracle, or None."""
    try:
        out = subprocess.run([str(python), "-c", "import asc.experimental.asctile, ml_dtypes"], capture_output=True,
                             text=True, timeout=120, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot run {python}: {exc}"
    if out.returncode:
        lines = out.stderr.strip().splitlines()
        return f"{python} cannot import asc.experimental.asctile and ml_dtypes: {lines[-1] if lines else 'no output'}"
    return None


def pyasc_interpreter(explicit: str | None, venv_dir: Path | None, setup: bool) -> Path:
    """--pyasc-python, else $PYASC_DEV_PYTHON, else the virtualenv (created with --setup)."""
    given = explicit or os.environ.get("PYASC_DEV_PYTHON")
    if given:
        path = Path(shutil.which(given) or given)
        problem = _pyasc_problem(path)
        if problem:
            raise HarnessError(problem)
        return path
    return ensure_venv(venv_dir or DEFAULT_VENV, create=setup)
