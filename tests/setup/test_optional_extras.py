"""The suite collects without the optional `cluster` extra (`pip install -e '.[dev]'` alone): the Dask
tests skip with their reason instead of breaking collection for every other test.

The extra is made unimportable in a child pytest by modules that shadow it on PYTHONPATH and raise
the ImportError an absent package raises; the child must then collect every module without an error.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXTRA_MODULES = ("distributed", "dask", "bokeh")  # what `.[cluster]` brings


def _pytest_without_extra(tmp_path, *args) -> subprocess.CompletedProcess:
    shadow = tmp_path / "no_cluster_extra"
    shadow.mkdir()
    for name in EXTRA_MODULES:
        (shadow / f"{name}.py").write_text(f"raise ModuleNotFoundError(\"No module named '{name}'\", name={name!r})\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(shadow), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


def test_the_shadow_really_hides_the_extra(tmp_path):
    proc = _pytest_without_extra(tmp_path, "--version")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    env_check = subprocess.run([sys.executable, "-c", "import distributed"], capture_output=True, text=True,
                               env=dict(os.environ, PYTHONPATH=str(tmp_path / "no_cluster_extra")))
    assert env_check.returncode != 0 and "No module named 'distributed'" in env_check.stderr


def test_suite_collects_without_the_cluster_extra(tmp_path):
    proc = _pytest_without_extra(tmp_path, "--collect-only", "-q", "-rs", "tests")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "error" not in out.splitlines()[-1].lower(), out[-4000:]
    # the cluster tests are reported as skipped, with the reason a user can act on
    assert "test_nightly_cluster.py" in out and "pip install -e '.[cluster]'" in out, out[-4000:]
