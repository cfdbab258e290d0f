"""nightly on temporary repositories: evidence per cell, sync, matrix, filters, resume, commit."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from asc_harness.store.evidence_read import load_record
from nightly_helpers import ASC2_GOLDEN, PLATFORM, PYTHON, git, make_repo, run_nightly  # noqa: F401 - fixtures

ROOT = Path(__file__).resolve().parents[2]


def nightly_cmd(repo, *extra):
    return [PYTHON, "-m", "asc_harness.nightly", "--capabilities", str(repo.cap), *extra]


def test_runs_every_golden_cell_then_syncs_and_prints_matrix(make_repo, run_nightly):
    repo = make_repo({"abs": "good", "neg": "wrong", "sq": "none", "blk": "blocked"})
    code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard"))
    assert code == 1, out + err  # a failing cell fails the nightly
    abs_recs, neg_recs = repo.records("abs"), repo.records("neg")
    assert len(abs_recs) == 1 and len(neg_recs) == 1
    assert not repo.records("sq") and not repo.records("blk")
    assert load_record(abs_recs[0])["status"] == "pass"
    neg = load_record(neg_recs[0])
    assert neg["status"] == "fail" and neg["failure"]["category"] == "numeric_mismatch"
    # sync applied
    assert repo.cell("abs")["golden_status"] == "confirmed"
    assert repo.cell("abs")["evidence"]["golden"] == abs_recs[0].relative_to(repo.root).as_posix()
    assert repo.cell("neg")["golden_status"] == "failing"
    assert repo.cell("blk")["golden_status"] == "blocked"
    # matrix and summary
    assert "Tier 0: elementwise" in out and "G confirmed" in out and "G FAILING" in out
    assert "ran 2 of 2 cell(s): 1 passed, 1 failed" in out
    assert "sq/float16/Ascend950PR_9599  no golden kernel" in out
    assert "blk/float16/Ascend950PR_9599  golden_status is blocked" in out
    assert "numeric_mismatch" in out
    state = json.loads((repo.root / ".nightly" / "state.json").read_text())
    assert state["phase"] == "done" and set(state["results"]) == {f"abs/float16/{PLATFORM}", f"neg/float16/{PLATFORM}"}
    # the run directory never shows up as a repository change
    assert ".nightly" not in git(repo.root, "status", "--porcelain")


def test_dashboard_is_rendered(make_repo, run_nightly, tmp_path):
    repo = make_repo({"abs": "good"})
    site = tmp_path / "out-site"
    code, out, err = run_nightly(*repo.args("-n", "0", "--site", str(site)))
    assert code == 0, out + err
    assert (site / "index.html").is_file()
    assert f"dashboard: {site / 'index.html'}" in out


def test_cells_filter_and_unknown_pattern(make_repo, run_nightly):
    repo = make_repo({"abs": "good", "neg": "good"})
    code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--cells", "ne*/float16"))
    assert code == 0, out + err
    assert len(repo.records("neg")) == 1 and not repo.records("abs")
    assert repo.cell("abs")["golden_status"] == "pending"
    code, out, err = run_nightly(*repo.args("--cells", "nothing/*"))
    assert code == 2
    assert "no cell in nothing/*" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_quick_skips_full_only_cases(make_repo, run_nightly):
    repo = make_repo({"abs": "good"})
    code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--quick"))
    assert code == 0, out + err
    rec = load_record(repo.records("abs")[0])
    assert {c["id"]: c["status"] for c in rec["cases"]} == {"4x8": "pass", "64": "skipped"}
    assert repo.cell("abs")["golden_status"] == "pending"  # a partial run never promotes


def test_a_crashing_cell_costs_only_that_cell_in_parallel(make_repo, run_nightly):
    repo = make_repo({"abs": "good", "crash": "crash", "hang": "hang", "neg": "good"})
    code, out, err = run_nightly(*repo.args("-n", "2", "--no-dashboard", "--timeout", "2"))
    assert code == 1, out + err
    crash = load_record(repo.records("crash")[0])
    assert crash["status"] == "error" and "SIGABRT" in crash["failure"]["message"]
    hang = load_record(repo.records("hang")[0])
    assert hang["status"] == "timeout" and hang["failure"]["category"] == "timeout"
    for op in ("abs", "neg"):
        assert load_record(repo.records(op)[0])["status"] == "pass"
        assert repo.cell(op)["golden_status"] == "confirmed"
    assert "2 worker process(es)" in out
    assert "ran 4 of 4 cell(s): 2 passed, 1 error, 1 timed out" in out


def test_real_asc2_kernel_on_the_embedded_engine(make_repo, run_nightly):
    repo = make_repo({"abs": "good"})
    repo.write_golden("abs", ASC2_GOLDEN)
    repo.commit("asc2 golden")
    code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--commit"))
    assert code == 0, out + err
    path = repo.records("abs")[0]
    rec = load_record(path)
    assert rec["status"] == "pass" and rec["runtime_verified"]
    assert all(c["ticks"] and c["ticks"] > 0 for c in rec["cases"])
    assert repo.cell("abs")["perf_status"] == "measured"
    # every case keeps its launch's Chrome trace beside the record, and its per-pipe timeline in it
    committed = git(repo.root, "show", "--name-only", "--format=", "HEAD").split()
    for case in rec["cases"]:
        assert list(case["timeline"]["pipes"])[:2] == ["S", "MTE2"] and "MTE3" in case["timeline"]["pipes"]
        assert case["timeline"]["launches"] == 1 and 0 < case["timeline"]["ticks"] <= case["ticks"]
        (trace,) = case["trace"]
        assert re.fullmatch(rf"traces/[\w.-]+/{case['id']}-\d{{4}}-abs_kernel\.json\.gz", trace)
        events = json.loads(gzip.decompress((path.parent / trace).read_bytes()))["traceEvents"]
        assert {e["cat"] for e in events if e["ph"] == "X"} >= {"MTE2", "V", "MTE3"}
        assert (path.parent / trace).relative_to(repo.root).as_posix() in committed


def test_resume_refuses_different_options(make_repo, run_nightly):
    repo = make_repo({"abs": "good"})
    run_dir = repo.root / ".nightly"
    run_dir.mkdir()
    (run_dir / "state.json").write_text(json.dumps({
        "version": 1, "run_id": "x", "started_at": "2026-01-01T00:00:00Z", "finished_at": None, "phase": "cells",
        "options": {"engine": "embedded", "backend": "Model", "platform": None, "timeout_s": 300.0,
                    "memory_mb": 8192, "quick": False},
        "patterns": [], "capabilities": "capabilities.yaml", "evidence_dir": "evidence",
        "plan": [f"abs/float16/{PLATFORM}"], "skipped": {}, "results": {}}))
    code, out, err = run_nightly(*repo.args("--resume", "--quick"))
    assert code == 2 and "--resume continues the interrupted nightly" in err
    code, out, err = run_nightly(*repo.args("--resume", "-n", "0", "--no-dashboard"))
    assert code == 0, out + err
    assert len(repo.records("abs")) == 1


def test_commit_commits_only_evidence_and_capabilities(make_repo, run_nightly):
    repo = make_repo({"abs": "good", "neg": "good"})
    (repo.root / "notes.txt").write_text("untracked work in progress\n")
    (repo.root / ".gitignore").write_text("/site/\n# local edit\n")
    head = git(repo.root, "rev-parse", "HEAD").strip()
    code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--commit"))
    assert code == 0, out + err
    assert git(repo.root, "rev-parse", "HEAD~1").strip() == head
    files = git(repo.root, "show", "--name-only", "--format=", "HEAD").split()
    expected = sorted([p.relative_to(repo.root).as_posix() for p in repo.records()] + ["capabilities.yaml"])
    assert sorted(files) == expected and len(files) == 3
    message = git(repo.root, "log", "-1", "--format=%B")
    assert message.startswith("nightly: golden evidence for 2 cell(s) on the embedded engine")
    assert f"abs/float16/{PLATFORM}: pass" in message
    status = git(repo.root, "status", "--porcelain")
    assert " M .gitignore" in status and "?? notes.txt" in status
    assert "capabilities.yaml" not in status and "evidence" not in status


def test_commit_refuses_when_other_changes_are_staged(make_repo, run_nightly):
    repo = make_repo({"abs": "good"})
    (repo.root / "notes.txt").write_text("staged by someone\n")
    git(repo.root, "add", "notes.txt")
    head = git(repo.root, "rev-parse", "HEAD").strip()
    code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--commit"))
    assert code == 2
    assert "other changes are staged (notes.txt)" in err and "Traceback" not in err
    assert not repo.records("abs") and git(repo.root, "rev-parse", "HEAD").strip() == head
    git(repo.root, "reset", "-q", "notes.txt")
    with open(repo.cap, "a") as fh:
        fh.write("# a local edit\n")
    code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--commit"))
    assert code == 2 and "capabilities.yaml has uncommitted changes" in err


def test_commit_rebases_onto_the_upstream_head(make_repo, run_nightly, tmp_path):
    repo = make_repo({"abs": "good"})
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    git(repo.root, "remote", "add", "origin", str(remote))
    git(repo.root, "push", "-q", "-u", "origin", "main")
    other = tmp_path / "other"
    subprocess.run(["git", "clone", "-q", str(remote), str(other)], check=True)
    git(other, "config", "user.email", "o@example.invalid")
    git(other, "config", "user.name", "other")
    (other / "elsewhere.txt").write_text("meanwhile\n")
    git(other, "add", "elsewhere.txt")
    git(other, "commit", "-q", "-m", "meanwhile upstream")
    git(other, "push", "-q")
    upstream = git(other, "rev-parse", "HEAD").strip()
    code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--commit"))
    assert code == 0, out + err
    assert git(repo.root, "rev-parse", "HEAD~1").strip() == upstream
    assert "rebase: rebased onto origin/main" in out
    assert sorted(git(repo.root, "show", "--name-only", "--format=", "HEAD").split())[0] == "capabilities.yaml"


def test_user_errors_are_one_line(make_repo, run_nightly):
    repo = make_repo({"abs": "good"})
    for argv, text in ((["--resume"], "nothing to resume"), (["-n", "many"], "-n/--workers"),
                       (["--timeout", "0"], "--timeout must be positive")):
        code, out, err = run_nightly(*repo.args(*argv))
        assert code == 2, (argv, out, err)
        assert text in err and "Traceback" not in err
    code, out, err = run_nightly("--capabilities", str(repo.root / "missing.yaml"))
    assert code == 2 and "capabilities file not found" in err


def test_list_and_gitignore(make_repo, run_nightly):
    repo = make_repo({"abs": "good", "sq": "none"})
    code, out, err = run_nightly(*repo.args("--list"))
    assert code == 0
    assert f"run      abs/float16/{PLATFORM}" in out and "skip     sq/float16" in out
    assert not repo.records()
    ignore = (ROOT / ".gitignore").read_text().split()
    assert "/.nightly/" in ignore and "/site/" in ignore


def test_a_dead_worker_is_recorded_as_an_infrastructure_error(make_repo):
    from asc_harness.batch.nightly_cells import Controller
    from asc_harness.batch.nightly_rundir import RunDir
    from rich.console import Console
    import io

    repo = make_repo({"abs": "good"})
    cell = repo.cell("abs")
    run_dir = RunDir(repo.root / ".nightly")
    run_dir.prepare()
    state = {"plan": [cell["id"]], "results": {}}
    plan = {"root": str(repo.root), "evidence_dir": str(repo.evidence), "run_dir": str(run_dir.path),
            "options": {"engine": "embedded", "backend": "Model"}, "cells": {cell["id"]: cell}, "run": [cell["id"]]}
    out = io.StringIO()
    Controller(run_dir, state, plan, Console(file=out)).finish_cell(cell["id"], "worker 'gw0' crashed while running")
    result = state["results"][cell["id"]]
    assert result["status"] == "error" and result["category"] == "infrastructure"
    assert "crashed while running" in result["message"]
    rec = load_record(repo.root / result["evidence"])
    assert rec["failure"]["category"] == "infrastructure" and not rec["runtime_verified"]
    assert json.loads((run_dir.path / "state.json").read_text())["results"][cell["id"]]["status"] == "error"
    assert "[1/1] abs/float16" in out.getvalue()


def _with_reference(repo, op, behaviour):
    """Give the cell of ``op`` an Ascend C reference kernel (golden/ascendc/) behaving as ``behaviour``."""
    from nightly_helpers import kernel_source

    (repo.root / "golden" / "ascendc").mkdir(exist_ok=True)
    (repo.root / "golden" / "ascendc" / f"{op}_f16.py").write_text(kernel_source(op, behaviour))
    text = repo.cap.read_text().replace(f"    golden: golden/kernels/{op}_f16.py\n",
                                        f"    golden: golden/kernels/{op}_f16.py\n    ascendc: golden/ascendc/{op}_f16.py\n")
    repo.cap.write_text(text)
    repo.commit("reference kernel")


def test_a_cells_reference_kernel_runs_as_its_own_kind_and_is_committed(make_repo, run_nightly):
    repo = make_repo({"abs": "good", "neg": "good"})
    _with_reference(repo, "abs", "good")
    _with_reference(repo, "neg", "wrong")
    code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--commit"))
    assert code == 0, out + err                     # a failing reference is reported, never fails the nightly
    (ref,) = repo.records("abs", kind="ascendc")
    assert load_record(ref)["kernel"] == "golden/ascendc/abs_f16.py" and load_record(ref)["status"] == "pass"
    assert load_record(repo.records("neg", kind="ascendc")[0])["status"] == "fail"
    assert repo.cell("abs")["evidence"]["ascendc"] == ref.relative_to(repo.root).as_posix()
    assert repo.cell("neg")["golden_status"] == "confirmed"      # decided by the golden alone
    assert "Ascend C references: 1 of 2 passed" in out and "neg/float16" in out
    assert git(repo.root, "status", "--porcelain", "evidence") == ""     # the reference's record is committed too
