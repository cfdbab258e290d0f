"""A hostile agent costs nothing: it writes outside its workspace, edits tracked files and leaves a
detached (setsid) process behind, then delivers a good kernel. Nothing outside is written (bubblewrap),
the repository ends unchanged, no process survives, and the kernel is still evaluated."""

from __future__ import annotations

import json
import os
import secrets
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nightly_helpers import AGENT, PLATFORM, build_repo, git  # noqa: E402

BIN = Path(sys.executable).parent


def _alive(marker: str) -> bool:
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmd = fh.read()
            with open(f"/proc/{name}/stat") as fh:
                state = fh.read().rsplit(")", 1)[-1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmd and state not in ("Z", "X"):
            return True
    return False


@pytest.fixture(scope="module", params=["bubblewrap", "process-tree"])
def attack(tmp_path_factory, request):
    base = tmp_path_factory.mktemp("hostile-agent")
    repo = build_repo(base / "repo", {"abs": "good"})
    (repo.root / "README.md").write_text("a tracked file\n")
    repo.commit("readme")
    tag = secrets.token_hex(4)
    outside = [base / f"outside-{tag}.txt", Path.home() / f".asc-hostile-{tag}"]
    tracked = [repo.root / "README.md", repo.root / "golden" / "kernels" / "abs_f16.py", repo.root / "capabilities.yaml"]
    before = {p: p.read_bytes() for p in tracked}
    marker = f"34{secrets.randbelow(10**6):06d}"
    env = dict(os.environ, ASC_SANDBOX=request.param, SCRIPTED_SLEEP=marker,
               SCRIPTED_TAMPER=":".join(str(p) for p in outside + tracked[:2]))
    template = f"{shlex.quote(sys.executable)} {shlex.quote(str(AGENT))} {{prompt_file}} {{workspace}} --sequence hostile"
    try:
        proc = subprocess.run([str(BIN / "generate"), "--agent-command", template, "--attempts", "1",
                               "--agent-env", "SCRIPTED_TAMPER", "--agent-env", "SCRIPTED_SLEEP",
                               "--allow-host-only", "--no-dashboard", "--timeout", "60"],
                              cwd=repo.root, env=env, capture_output=True, text=True, timeout=600)
        written_outside = {p: p.exists() for p in outside}
    finally:
        for p in outside[1:]:
            if p.exists():
                p.unlink()
    records = [json.loads(p.read_text()) for p in repo.records("abs", kind="generative")]
    yield {"confinement": request.param, "proc": proc, "repo": repo, "records": records, "marker": marker,
           "before": before, "written_outside": written_outside}


def test_the_delivered_kernel_is_still_evaluated(attack):
    proc, records = attack["proc"], attack["records"]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(records) == 1
    rec = records[0]
    assert rec["status"] == "pass" and rec["runtime_verified"], rec["failure"]
    assert rec["provenance"]["sandbox"]["confinement"] == attack["confinement"]
    assert rec["kernel"].startswith(f"evidence/abs/float16/{PLATFORM}/artifacts/")


def test_the_repository_is_unchanged(attack):
    repo = attack["repo"]
    assert attack["before"][repo.root / "README.md"] == (repo.root / "README.md").read_bytes()
    assert attack["before"][repo.root / "golden/kernels/abs_f16.py"] == \
        (repo.root / "golden/kernels/abs_f16.py").read_bytes()
    changed = git(repo.root, "status", "--porcelain").split("\n")
    assert all(line[3:].startswith(("capabilities.yaml", "evidence/")) for line in changed if line.strip())


def test_no_process_survives(attack):
    deadline = time.monotonic() + 5
    while _alive(attack["marker"]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(attack["marker"])


def test_what_the_agent_tried_is_known(attack):
    rec = attack["records"][0]
    output = rec["generative"]["agent_output"]
    tampering = rec["provenance"]["sandbox"]["tampering"]
    if attack["confinement"] == "bubblewrap":
        # nothing outside the workspace was written: the repository and $HOME refused the writes; the one
        # under /tmp landed in the run's private /tmp, discarded with it
        assert not any(attack["written_outside"].values()), attack["written_outside"]
        for refused in ("refused: README.md OSError", "refused: golden/kernels/abs_f16.py OSError",
                        "/.asc-hostile-"):
            assert refused in output
        assert "tampered: ~" not in output and "tampered: README" not in output
        assert tampering == []
        assert rec["provenance"]["sandbox"]["agent_network"] is True   # agents keep the network by default
        assert rec["provenance"]["sandbox"]["network"] is False        # kernels never have it
    else:
        # the fallback cannot stop writes; it restores tracked files and records the attempt
        assert tampering == ["agent: README.md (modified, restored)",
                             "agent: golden/kernels/abs_f16.py (modified, restored)"]
        assert "sandbox: no bubblewrap" in attack["proc"].stdout


def test_an_agent_can_be_denied_the_network(tmp_path, monkeypatch):
    repo = build_repo(tmp_path / "repo", {"abs": "good"})
    probe = tmp_path / "netcheck.py"
    probe.write_text("import os\nnames = [l.split(':')[0].strip() for l in open('/proc/net/dev').readlines()[2:]]\n"
                     "open(os.path.join(os.environ['ASC_WORKSPACE'], 'k.py'), 'w').write("
                     "'import numpy as np\\n# ' + ','.join(sorted(names)) + '\\ndef launch(x):\\n    return np.abs(x)\\n')\n")
    template = f"{shlex.quote(sys.executable)} {shlex.quote(str(probe))} {{prompt_file}}"
    proc = subprocess.run([str(BIN / "generate"), "--agent-command", template, "--attempts", "1",
                           "--allow-host-only", "--no-dashboard", "--no-agent-network"],
                          cwd=repo.root, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, ASC_SANDBOX="bubblewrap"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rec = json.loads(repo.records("abs", kind="generative")[0].read_text())
    assert rec["provenance"]["sandbox"]["agent_network"] is False
    assert "# lo\n" in (repo.root / rec["kernel"]).read_text()
