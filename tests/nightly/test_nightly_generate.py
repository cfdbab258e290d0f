"""generate (and nightly --generative) with a scripted agent on temporary repositories."""

from __future__ import annotations

import json
import shlex

import pytest

from asc_harness import generate
from asc_harness.batch.gen_agent import prompt_text
from asc_harness.batch.gen_attempt import describe_inputs
from asc_harness.run import runner
from asc_harness.store.evidence_read import load_record
from nightly_helpers import AGENT, ASC2_GOLDEN, PLATFORM, PYTHON, git, make_repo, run_nightly  # noqa: F401 - fixtures

CELL = f"abs/float16/{PLATFORM}"


def agent_template(tmp_path, sequence: str) -> str:
    return f"{shlex.quote(PYTHON)} {shlex.quote(str(AGENT))} {{prompt_file}} {{workspace}} --sequence {sequence}"


@pytest.fixture
def run_generate(capsys):
    def run(*argv: str):
        code = generate.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def attempts(repo) -> list[dict]:
    """Generative records in the order they were written (file names carry the time)."""
    return [load_record(p) for p in repo.records("abs", kind="generative")]


def test_scripted_agent_outcomes_are_recorded(make_repo, run_generate, tmp_path, monkeypatch):
    repo = make_repo({"abs": "good"})
    monkeypatch.setenv("ASC_TEST_SECRET", "do-not-leak")
    # kernels that finish get the default budgets (they never time out, however loaded the machine); the
    # budget a hang must exhaust is one second (it times out whatever the load)
    code, out, err = run_generate(*repo.args(
        "--agent-command", agent_template(tmp_path, "good,wrong,noncompile"), "--attempts", "3",
        "--allow-host-only", "--no-dashboard"))
    assert code == 0, out + err
    assert f"{CELL}: pass, fail (numeric_mismatch), error (compile_error) -> generative_status" in out
    code, out, err = run_generate(*repo.args(
        "--agent-command", agent_template(tmp_path, "hang"), "--kernel-timeout", "1", "--allow-host-only",
        "--attempts", "1", "--no-dashboard"))
    assert code == 0, out + err
    assert f"{CELL}: timeout (timeout) -> generative_status" in out
    code, out, err = run_generate(*repo.args(
        "--agent-command", agent_template(tmp_path, "agent_hang"), "--timeout", "1", "--allow-host-only",
        "--attempts", "1", "--no-dashboard"))
    assert code == 0, out + err
    assert f"{CELL}: timeout (timeout) -> generative_status" in out
    recs = attempts(repo)
    assert [r["status"] for r in recs] == ["pass", "fail", "error", "timeout", "timeout"]
    assert [(r["failure"] or {}).get("category") for r in recs] == [
        None, "numeric_mismatch", "compile_error", "timeout", "timeout"]
    assert "Last dimension of tile must be aligned" in recs[2]["failure"]["message"]
    assert recs[3]["failure"]["message"] == "the static check (tracing) timed out after 1 s"
    assert "the agent timed out after 1 s without writing a kernel" in recs[4]["failure"]["message"]
    for r in recs:
        assert r["kind"] == "generative" and r["runtime_verified"]
        gen = r["generative"]
        assert gen["variant"] == "minimal" and gen["agent_output"].startswith("agent exit: ")
        assert "{prompt_file} {workspace}" in gen["agent_command"]
    assert [r["generative"]["agent_exit"] for r in recs] == [0, 0, 0, 0, 124]
    good = recs[0]
    # the newest .py file written after the start, not the older scratch file
    assert good["generative"]["kernel_file"] == "abs_kernel.py"
    assert good["kernel"].startswith(f"evidence/{CELL}/artifacts/") and good["kernel"].endswith("/abs_kernel.py")
    assert (repo.root / good["kernel"]).read_text().startswith("import numpy as np")
    output = good["generative"]["agent_output"]
    # the prompt travels only in the file; the workspace holds only the prompt; the environment is scrubbed
    assert "argv: ['<workspace>/PROMPT.md', '<workspace>', '--sequence'" in output
    assert "listing: ['PROMPT.md']" in output
    assert "prompt: Write abs: y = |x| on float16." in output
    assert "ASC_TEST_SECRET" not in output and "do-not-leak" not in output
    assert repo.cell("abs")["generative_status"] == "pending"  # none of the last 3 passed


def test_k_of_m_rule_and_guided_workspace(make_repo, run_generate, tmp_path):
    repo = make_repo({"abs": "good"})
    template = agent_template(tmp_path, "good,wrong,good")
    code, out, err = run_generate(*repo.args("--agent-command", template, "--attempts", "3", "--variant", "guided",
                                             "--allow-host-only", "--no-dashboard"))
    assert code == 0, out + err
    recs = attempts(repo)
    assert [r["status"] for r in recs] == ["pass", "fail", "pass"]
    assert repo.cell("abs")["generative_status"] == "confirmed"  # 2 of the last 3
    assert len(repo.cell("abs")["evidence"]["generative"]) == 3
    output = recs[0]["generative"]["agent_output"]
    assert "listing: ['ASC2_NOTES.md', 'PROMPT.md']" in output
    assert "prompt: Write abs: y = |x| on float16, tile by tile" in output
    # two more failures push the cell back to pending
    code, out, err = run_generate(*repo.args("--agent-command", agent_template(tmp_path / "x", "wrong"),
                                             "--attempts", "2", "--allow-host-only", "--no-dashboard"))
    assert code == 0, out + err
    assert [r["status"] for r in attempts(repo)[-2:]] == ["fail", "fail"]
    assert repo.cell("abs")["generative_status"] == "pending"


def test_prompt_file_holds_prompt_and_contract(make_repo, tmp_path):
    repo = make_repo({"abs": "good"})
    contract = describe_inputs(repo.root / "golden/kernels/abs_f16.py", PLATFORM, repo.root, repo.evidence)
    cell = repo.cell("abs")
    text = prompt_text(cell, "minimal", contract)
    assert text.startswith("Write abs: y = |x| on float16.")
    assert "`launch(*inputs)`" in text
    assert "- input 1: numpy.ndarray, dtype float16, shape [4, 8]" in text
    assert "atol=0.001, rtol=0.001" in text
    assert "golden" not in text.lower()


def test_stale_files_and_golden_copies_are_rejected(make_repo, run_generate, tmp_path, monkeypatch):
    repo = make_repo({"abs": "good"})
    monkeypatch.setenv("SCRIPTED_GOLDEN", str(repo.root / "golden/kernels/abs_f16.py"))
    code, out, err = run_generate(*repo.args(
        "--agent-command", agent_template(tmp_path, "stale,golden_copy,nothing"),
        "--attempts", "3", "--agent-env", "SCRIPTED_GOLDEN", "--allow-host-only", "--no-dashboard"))
    assert code == 0, out + err
    recs = attempts(repo)
    messages = [r["failure"]["message"] for r in recs]
    assert "wrote no kernel" in messages[0] and recs[0]["kernel"] is None
    assert "copy of the golden kernel golden/kernels/abs_f16.py" in messages[1]
    assert "wrote no kernel" in messages[2]
    assert all(r["status"] == "error" for r in recs)


def test_real_asc2_kernel_is_traced_and_run(make_repo, run_generate, tmp_path):
    repo = make_repo({"abs": "good"})
    repo.write_golden("abs", ASC2_GOLDEN)
    repo.commit("asc2 golden")
    code, out, err = run_generate(*repo.args("--agent-command", agent_template(tmp_path, "asc2,good"),
                                             "--attempts", "2", "--no-dashboard"))
    assert code == 0, out + err
    asc2_rec, host_rec = attempts(repo)
    assert asc2_rec["status"] == "pass" and all(c["ticks"] > 0 for c in asc2_rec["cases"])
    assert host_rec["status"] == "error"
    assert "launches no @asc2.jit kernel" in host_rec["failure"]["message"]


def test_check_and_run_share_one_process_with_a_budget_each(make_repo, run_generate, tmp_path):
    """The kernel passes the static check and hangs only once it has run: a timeout of the run, not the check."""
    repo = make_repo({"abs": "good"})
    repo.write_golden("abs", ASC2_GOLDEN)
    repo.commit("asc2 golden")
    code, out, err = run_generate(*repo.args("--agent-command", agent_template(tmp_path, "asc2_run_hang,asc2"),
                                             "--attempts", "2", "--kernel-timeout", "10", "--no-dashboard"))
    assert code == 0, out + err
    hung, good = attempts(repo)
    assert hung["status"] == "timeout" and hung["failure"]["category"] == "timeout"
    assert hung["failure"]["message"].startswith("case ") and "timed out after 10 s" in hung["failure"]["message"]
    assert "static check" not in hung["failure"]["message"]
    assert hung["cases"][0]["status"] == "timeout" and hung["runtime_verified"]
    # the check's recorded launches are not counted: the run's ticks are those of the same kernel run alone
    alone = runner.run_file(repo.root / "golden/kernels/abs_f16.py", repo=repo.root)
    assert good["status"] == "pass" and alone["status"] == "pass"
    assert [c["ticks"] for c in good["cases"]] == [c["ticks"] for c in alone["cases"]]


def test_nightly_generative_and_infrastructure_failures(make_repo, run_nightly, tmp_path):
    repo = make_repo({"abs": "good", "neg": "good"})
    code, out, err = run_nightly(*repo.args("--generative", "--cells", "abs", "--agent-command",
                                            agent_template(tmp_path, "good"), "--attempts", "1",
                                            "--allow-host-only", "--no-dashboard"))
    assert code == 0, out + err
    assert len(repo.records("abs", kind="generative")) == 1 and not repo.records("neg", kind="generative")
    code, out, err = run_nightly(*repo.args("--generative", "--cells", "neg", "--agent-command",
                                            str(tmp_path / "no-such-agent") + " {prompt_file}", "--attempts", "1",
                                            "--no-dashboard"))
    assert code == 1
    rec = load_record(repo.records("neg", kind="generative")[0])
    assert rec["failure"]["category"] == "infrastructure" and not rec["runtime_verified"]
    assert repo.cell("neg")["generative_status"] == "not_attempted"


def test_generate_commit_and_user_errors(make_repo, run_generate, tmp_path, monkeypatch):
    repo = make_repo({"abs": "good"})
    monkeypatch.delenv("ASC_AGENT_COMMAND", raising=False)
    code, out, err = run_generate(*repo.args("--no-dashboard"))
    assert code == 2 and "no agent command" in err and "Traceback" not in err
    code, out, err = run_generate(*repo.args("--agent-command", "agent 'unclosed"))
    assert code == 2 and "cannot split the agent command" in err
    monkeypatch.setenv("ASC_AGENT_COMMAND", agent_template(tmp_path, "good"))
    code, out, err = run_generate(*repo.args("--attempts", "1", "--allow-host-only", "--no-dashboard", "--commit"))
    assert code == 0, out + err
    files = git(repo.root, "show", "--name-only", "--format=", "HEAD").split()
    assert "capabilities.yaml" in files
    assert all(f == "capabilities.yaml" or f.startswith(f"evidence/{CELL}/") for f in files)
    assert len(files) == 3 and any(f.endswith("/abs_kernel.py") for f in files)
    assert git(repo.root, "log", "-1", "--format=%s").startswith("generate: generative evidence for 1 attempt(s)")
    assert not git(repo.root, "status", "--porcelain").strip()


def test_a_killed_generate_resumes_with_the_attempts_not_yet_recorded(make_repo, run_generate, monkeypatch):
    import signal
    import subprocess
    import time

    repo = make_repo({"abs": "good"})
    monkeypatch.setenv("SCRIPTED_BEHAVIOUR", "good")
    template = f"{shlex.quote(PYTHON)} {shlex.quote(str(AGENT))} {{prompt_file}} {{workspace}}"
    state_path = repo.root / ".generate" / "state.json"
    proc = subprocess.Popen([PYTHON, "-m", "asc_harness.generate", *repo.args(
        "--agent-command", template, "--attempts", "4", "--agent-env", "SCRIPTED_BEHAVIOUR", "--allow-host-only",
        "--no-dashboard")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(3000):  # kill it once it has recorded an attempt
            if state_path.exists() and json.loads(state_path.read_text() or "{}").get("done"):
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        proc.kill()
    done = len(json.loads(state_path.read_text())["done"])
    assert 1 <= done < 4
    code, out, err = run_generate(*repo.args("--resume", "--attempts", "2"))
    assert code == 2 and "drop --attempts" in err
    code, out, err = run_generate(*repo.args("--resume", "--no-dashboard"))
    assert code == 0, out + err
    assert f"{done} of 4 attempt(s) already recorded" in out
    assert sorted(r["generative"]["attempt"] for r in attempts(repo)) == [1, 2, 3, 4]  # each attempt once
    code, out, err = run_generate(*repo.args("--resume"))
    assert code == 2 and "nothing to resume" in err
