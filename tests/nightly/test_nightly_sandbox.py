"""Hostile kernels run by nightly are contained by the sandbox and reported, each costing only its cell,
under bubblewrap and under the process-tree fallback."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import time

import pytest

from asc_harness.store.evidence_read import load_record
from nightly_helpers import GOOD, PLATFORM, PYTHON, build_repo, git

BODIES = {
    "loop": "    while True:\n        pass",
    # Each step asks for more than the whole limit, so the limit (not the time budget) stops it at once.
    "hog": "    hog = []\n    while True:\n        hog.append(bytearray(2 << 30))",
    "shell": ("    import os\n"
              "    assert 'ASC_TEST_SECRET' not in os.environ and 'asc-sandbox-' in os.environ['HOME']\n"
              "    os.system('setsid sleep {marker} > /dev/null 2>&1 & echo pwned >> {readme}')\n"
              "    return np.abs(x)"),
    "write": ("    open({readme!r}, 'a').write('overwritten by a kernel\\n')\n"
              "    open({stray!r}, 'w').write('not an evidence record\\n')\n"
              "    return np.abs(x)"),
    "good": "    return np.abs(x)",
}


@pytest.fixture(scope="module", params=["bubblewrap", "process-tree"])
def hostile(tmp_path_factory, request):
    base = tmp_path_factory.mktemp("sandbox")
    repo = build_repo(base / "repo", {op: "good" for op in BODIES})
    (repo.root / "README.md").write_text("a tracked file\n")
    paths = {"marker": f"33{secrets.randbelow(10**6):06d}", "readme": repo.root / "README.md",
             "stray": repo.evidence / "stray.txt"}
    for op, body in BODIES.items():
        repo.write_golden(op, GOOD.format(op=op, body=body.format(**{k: str(v) for k, v in paths.items()})))
    repo.commit("hostile goldens")
    env = dict(os.environ, ASC_TEST_SECRET="do-not-leak", ASC_SANDBOX=request.param)
    proc = subprocess.run([PYTHON, "-m", "asc_harness.nightly", "--capabilities", str(repo.cap), "-n", "0",
                           "--no-dashboard", "--timeout", "10", "--memory-mb", "1000"],
                          capture_output=True, text=True, env=env, timeout=120)
    records = {op: load_record(repo.records(op)[0]) for op in BODIES}
    paths["confinement"] = request.param
    return repo, proc, records, paths


def test_only_the_hostile_cells_fail(hostile):
    repo, proc, records, _ = hostile
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "ran 5 of 5 cell(s)" in proc.stdout
    assert records["good"]["status"] == "pass"
    assert repo.cell("good")["golden_status"] == "confirmed"


def test_a_kernel_that_loops_forever_is_killed_at_the_budget(hostile):
    _, _, records, _ = hostile
    rec = records["loop"]
    assert rec["status"] == "timeout" and rec["failure"]["category"] == "timeout"
    assert "timed out after 10 s" in rec["failure"]["message"]
    assert rec["wall_time_s"] < 40


def test_a_kernel_that_allocates_without_bound_is_stopped(hostile):
    _, _, records, _ = hostile
    rec = records["hog"]
    assert rec["status"] == "error" and rec["failure"]["category"] == "memory"


def test_every_record_names_its_confinement(hostile):
    _, proc, records, paths = hostile
    for rec in records.values():
        assert rec["provenance"]["sandbox"]["confinement"] == paths["confinement"]
        assert rec["provenance"]["sandbox"]["network"] is False
    fallback_note = "sandbox: no bubblewrap (ASC_SANDBOX=process-tree)"
    assert proc.stdout.count(fallback_note) == (1 if paths["confinement"] == "process-tree" else 0)


def _alive(marker: str) -> bool:
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    with open(f"/proc/{name}/stat") as st:
                        if st.read().rsplit(")", 1)[-1].split()[0] not in ("Z", "X"):
                            return True
        except (OSError, NotADirectoryError):
            continue
    return False


def test_os_system_runs_scrubbed_and_its_detached_children_are_killed(hostile):
    repo, _, records, paths = hostile
    rec = records["shell"]
    deadline = time.monotonic() + 5
    while _alive(paths["marker"]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(paths["marker"]), "the detached process started by os.system survived the run"
    assert paths["readme"].read_text() == "a tracked file\n"
    if paths["confinement"] == "bubblewrap":
        assert rec["status"] == "pass"       # the write was refused; the kernel itself is fine
        assert rec["provenance"]["sandbox"]["tampering"] == []
    else:
        assert rec["status"] == "error"
        assert "changed repository files: README.md (modified, restored)" in rec["failure"]["message"]
        assert rec["provenance"]["sandbox"]["tampering"] == ["README.md (modified, restored)"]


def test_a_kernel_that_writes_into_the_repository_changes_nothing(hostile):
    repo, _, records, paths = hostile
    rec = records["write"]
    assert rec["status"] == "error" and rec["failure"]["category"] == "runtime_error"
    message = rec["failure"]["message"]
    assert paths["readme"].read_text() == "a tracked file\n"
    if paths["confinement"] == "bubblewrap":
        assert "Read-only file system" in message and "README.md" in message
        assert not paths["stray"].exists()
    else:
        assert "README.md (modified, restored)" in message and "evidence/stray.txt (added)" in message
    assert repo.cell("write")["golden_status"] == "failing"
    state = json.loads((repo.root / ".nightly" / "state.json").read_text())
    assert state["results"][f"write/float16/{PLATFORM}"]["status"] == "error"
    assert not git(repo.root, "status", "--porcelain", "--untracked-files=no", "--", "README.md", "golden").strip()
