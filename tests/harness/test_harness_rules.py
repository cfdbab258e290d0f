"""Each documented harness rule and exit code, at the edge where a bug would show: which records count toward
a status (K of the last M attempts, skipped and static-only runs never), records that contradict
themselves are refused, an evidence file name that is taken is never reused, and run_kernel /
sync_capabilities / check_capabilities exit with the documented code for each outcome
(docs/interfaces.md §3-§5, each tool's --help)."""

from __future__ import annotations

import json
import re

import pytest

from asc_harness.store import check_capabilities
from asc_harness.store import evidence
from asc_harness.run import run_kernel
from asc_harness.store import sync_capabilities
from asc_harness.store.evidence import EvidenceError, build_record, write_record
from asc_harness.store.evidence_read import load_record
from asc_harness.store.registry import load_registry

from conftest import ABS, ADD, PLATFORM, write_kernel


def sync(ws, *extra):
    return sync_capabilities.main(ws.args(*extra))


def cell(ws, cid):
    return load_registry(ws.cap).cell(cid)


def link(ws, path):
    return path.relative_to(ws.root).as_posix()


def gen(ws, status, **kw):
    return ws.record(ADD, kind="generative", status=status, **kw)


# -- generative: K of the last M counting attempts ------------------------------------------------------------
def test_skipped_attempts_do_not_count_toward_k_of_m(ws):
    passes = [gen(ws, "pass"), gen(ws, "pass")]
    for _ in range(3):
        gen(ws, "skipped")                        # later, but skipped: the window is still pass, pass
    assert sync(ws) == 0
    c = cell(ws, ADD)
    assert c["generative_status"] == "confirmed"
    assert list(c["evidence"]["generative"]) == [link(ws, p) for p in reversed(passes)]


def test_skipped_attempts_do_not_fill_the_window_either(ws):
    # pass, fail, pass, skipped: with the skipped attempt in the window of 3 only one pass would be left.
    counted = [gen(ws, "pass"), gen(ws, "fail"), gen(ws, "pass")]
    gen(ws, "skipped")
    assert sync(ws) == 0
    c = cell(ws, ADD)
    assert c["generative_status"] == "confirmed"
    assert list(c["evidence"]["generative"]) == [link(ws, p) for p in reversed(counted)]


def test_static_only_attempts_never_count(ws):
    gen(ws, "pass")
    gen(ws, "pass", runtime_verified=False)
    gen(ws, "pass", runtime_verified=False)
    assert sync(ws) == 0
    c = cell(ws, ADD)
    assert c["generative_status"] == "pending" and len(c["evidence"]["generative"]) == 1


@pytest.mark.parametrize("history,status", [
    (["pass", "pass"], "confirmed"),               # exactly K of fewer than M
    (["fail", "pass"], "pending"),                 # K - 1
    (["pass", "pass", "fail", "fail"], "pending"),  # the passes fell out of the window of the last M
    (["pass", "fail", "pass"], "confirmed"),       # K of M, not consecutive
    (["error", "pass", "timeout"], "pending"),     # errors and timeouts count as failed attempts
])
def test_k_of_m_window(ws, history, status):
    for s in history:
        gen(ws, s)
    assert sync(ws) == 0
    assert cell(ws, ADD)["generative_status"] == status
    assert len(cell(ws, ADD)["evidence"]["generative"]) == min(3, len(history))


# -- golden: only the latest counting run decides --------------------------------------------------------------
def test_a_partial_passing_run_does_not_confirm_but_a_partial_failing_run_demotes(ws):
    ws.record(ABS, status="pass", skipped_case=True)
    assert sync(ws) == 0
    assert cell(ws, ABS)["golden_status"] == "pending"
    full = ws.record(ABS, status="pass")
    assert sync(ws) == 0
    assert cell(ws, ABS)["golden_status"] == "confirmed"
    ws.record(ABS, status="pass", skipped_case=True)   # a later quick pass does not replace the full one
    assert sync(ws) == 0
    assert cell(ws, ABS)["evidence"]["golden"] == link(ws, full)


@pytest.mark.parametrize("status", ["fail", "error", "timeout"])
def test_a_partial_run_that_did_not_pass_demotes_whatever_its_failure(ws, status):
    ws.record(ABS, status="pass")
    assert sync(ws) == 0 and cell(ws, ABS)["golden_status"] == "confirmed"
    partial = ws.record(ABS, status=status, skipped_case=True)
    assert sync(ws) == 0
    c = cell(ws, ABS)
    assert c["golden_status"] == "failing" and c["evidence"]["golden"] == link(ws, partial)


def test_an_infrastructure_error_that_ran_nothing_never_demotes(ws):
    ok = ws.record(ABS, status="pass")
    ws.record(ABS, status="error", runtime_verified=False, category="infrastructure")
    assert sync(ws) == 0
    c = cell(ws, ABS)
    assert c["golden_status"] == "confirmed" and c["evidence"]["golden"] == link(ws, ok)


def test_perf_needs_a_passing_run_with_ticks(ws):
    ws.record(ABS, status="fail", ticks=100)
    ws.record(ABS, status="pass", ticks=None)
    assert sync(ws) == 0
    assert cell(ws, ABS)["perf_status"] == "not_attempted"
    measured = ws.record(ABS, status="pass", ticks=120)
    assert sync(ws) == 0
    c = cell(ws, ABS)
    assert c["perf_status"] == "measured" and c["evidence"]["perf"] == link(ws, measured)


@pytest.mark.parametrize("status", ["fail", "error"])
def test_a_perf_record_that_did_not_pass_is_not_a_measurement(ws, status):
    ws.record(ABS, kind="perf", status=status)
    assert sync(ws) == 0
    assert cell(ws, ABS)["perf_status"] == "not_attempted"
    ticked = ws.record(ABS, status="pass", ticks=120)
    assert sync(ws) == 0
    c = cell(ws, ABS)
    assert c["perf_status"] == "measured" and c["evidence"]["perf"] == link(ws, ticked)


# -- records that contradict themselves -----------------------------------------------------------------------------
def _result(ws, **overrides):
    result = {"file": str(ws.root / "golden/kernels/abs_f16.py"), "status": "pass", "failure": None,
              "runtime_verified": True, "engine": "embedded", "engine_version": "0.1.0", "backend": "Model",
              "platform": PLATFORM, "python": "3.11.7", "seed": 2026, "wall_time_s": 0.5,
              "cases": [{"id": "4x8", "shape": [4, 8], "status": "pass", "atol": 1e-3, "rtol": 1e-3,
                         "max_abs_err": 0.0, "max_rel_err": 0.0, "mismatches": 0, "elements": 32, "ticks": 5,
                         "wall_s": 0.01}]}
    result.update(overrides)
    return result


def test_a_record_whose_provenance_platform_differs_is_refused(ws):
    rec = build_record(_result(ws, platform="Ascend910B1"), cell=ABS, root=ws.root)
    with pytest.raises(EvidenceError, match=re.escape("provenance.platform")):
        write_record(rec, ws.evidence)
    assert not list(ws.evidence.rglob("*.json"))


def test_a_hand_made_record_with_another_provenance_platform_is_rejected_by_every_reader(ws, capsys):
    path = ws.record(ABS, status="pass")
    data = json.loads(path.read_text())
    data["provenance"]["platform"] = "Ascend910B1"
    path.write_text(json.dumps(data))
    with pytest.raises(EvidenceError, match="differs from platform"):
        load_record(path)
    assert sync(ws) == 2                                         # unreadable evidence: cannot run
    assert "provenance.platform" in capsys.readouterr().err
    assert cell(ws, ABS)["golden_status"] == "pending"
    assert check_capabilities.main(ws.args("--soft-runtime")) == 1
    assert "provenance.platform" in capsys.readouterr().out


@pytest.mark.parametrize("field,value", [("dtype", "float32"), ("dtype", "bfloat16"), ("op", "zzz"), ("op", "aaa"),
                                         ("platform", "Ascend910B1")])
def test_a_record_whose_cell_differs_from_its_op_dtype_platform_is_refused(ws, field, value):
    rec = build_record(_result(ws), cell=ABS, root=ws.root)
    rec[field] = value
    if field == "platform":
        rec["provenance"]["platform"] = value
    with pytest.raises(EvidenceError, match="does not match op/dtype/platform"):
        write_record(rec, ws.evidence)


def test_a_passing_record_with_a_failed_case_is_refused(ws):
    res = _result(ws)
    res["cases"][0]["status"] = "fail"
    with pytest.raises(EvidenceError, match=re.escape("case is 'fail' in a passing record")):
        write_record(build_record(res, cell=ABS, root=ws.root), ws.evidence)


# -- evidence file names are never reused -----------------------------------------------------------------------
def _taken_names(monkeypatch, names):
    """Make the random part of record names repeat: the first names are all the same."""
    seq = iter(names)
    monkeypatch.setattr(evidence.secrets, "token_hex", lambda n: next(seq))
    fixed = evidence.utc_now()
    monkeypatch.setattr(evidence, "utc_now", lambda: fixed)


def test_a_name_clash_never_replaces_an_existing_record(ws, monkeypatch):
    _taken_names(monkeypatch, ["abcd", "abcd", "abcd", "beef"])
    first = write_record(build_record(_result(ws), cell=ABS, root=ws.root), ws.evidence)
    before = first.read_bytes()
    second = write_record(build_record(_result(ws, status="fail", failure={"category": "numeric_mismatch",
                                                                           "message": "x"},
                                               cases=[]), cell=ABS, root=ws.root), ws.evidence)
    assert first != second and second.name.endswith("-beef.json") and first.name.endswith("-abcd.json")
    assert first.read_bytes() == before
    assert load_record(second)["status"] == "fail"
    assert not [p for p in first.parent.iterdir() if p.name.startswith(".tmp-")]


def test_a_name_clash_without_hard_links_does_not_replace_either(ws, monkeypatch):
    _taken_names(monkeypatch, ["abcd", "abcd", "cafe"])
    first = write_record(build_record(_result(ws), cell=ABS, root=ws.root), ws.evidence)
    before = first.read_bytes()

    def no_links(src, dst):
        raise PermissionError("hard links are not supported here")
    monkeypatch.setattr(evidence.os, "link", no_links)
    second = write_record(build_record(_result(ws), cell=ABS, root=ws.root), ws.evidence)
    assert second.name.endswith("-cafe.json") and first.read_bytes() == before
    assert sorted(p.name for p in first.parent.iterdir()) == sorted([first.name, second.name])


def test_no_free_name_is_an_error_not_an_overwrite(ws, monkeypatch):
    _taken_names(monkeypatch, ["abcd"] * 200)
    first = write_record(build_record(_result(ws), cell=ABS, root=ws.root), ws.evidence)
    before = first.read_bytes()
    with pytest.raises(EvidenceError, match="could not find a free evidence file name"):
        write_record(build_record(_result(ws), cell=ABS, root=ws.root), ws.evidence)
    assert first.read_bytes() == before
    assert [p.name for p in first.parent.iterdir()] == [first.name]


# -- run_kernel exit codes ----------------------------------------------------------------------------------------
PLAIN_OK = """\
import sys
print("ran", sys.argv[1:])
"""
PLAIN_RAISES = """\
raise RuntimeError("the kernel failed")
"""
PLAIN_EXIT3 = """\
import sys
sys.exit(3)
"""
PLAIN_HANGS = """\
import time
time.sleep(60)
"""
KERNEL_OOB = """\
import numpy as np
import asc, asc2
import asc.runtime.config as config

@asc2.jit
def k(x_ptr: asc.GlobalAddress, n: int):
    g = asc2.tensor(x_ptr, [n])
    asc2.store(asc2.load(g, [64], offsets=[0]) + 1.0, g, offsets=[0])

config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
k[1](np.zeros(32, np.float32), 64)     # the tensor claims 64 elements of a 32-element buffer
"""


@pytest.mark.parametrize("source,code,status", [
    (PLAIN_OK, 0, "pass"),
    (PLAIN_RAISES, 1, "error"),
    (PLAIN_EXIT3, 1, "error"),
    (KERNEL_OOB, 1, "error"),
], ids=["ok", "raises", "exit-3", "kernel-out-of-bounds"])
def test_run_kernel_exit_code_follows_the_kernel(tmp_path, capsys, source, code, status):
    f = write_kernel(tmp_path, "k.py", source)
    assert run_kernel.main([str(f), "--json"]) == code
    (item,) = json.loads(capsys.readouterr().out)
    assert item["status"] == status
    if status != "pass":
        assert item["failure"]["category"] in ("runtime_error", "compile_error")


def test_run_kernel_exits_1_on_a_timeout_and_says_so(tmp_path, capsys):
    f = write_kernel(tmp_path, "hang.py", PLAIN_HANGS)
    assert run_kernel.main([str(f), "--json", "--timeout", "2"]) == 1
    (item,) = json.loads(capsys.readouterr().out)
    assert item["status"] == "timeout" and item["failure"]["category"] == "timeout"


def test_run_kernel_one_failure_among_passes_fails_the_run(tmp_path, capsys):
    ok = write_kernel(tmp_path, "ok.py", PLAIN_OK)
    bad = write_kernel(tmp_path, "bad.py", PLAIN_RAISES)
    assert run_kernel.main([str(ok), str(bad), str(ok)]) == 1
    assert "2 of 3 file(s) passed" in capsys.readouterr().out
    assert run_kernel.main([str(ok), str(ok)]) == 0
    assert "2 of 2 file(s) passed" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["--memory-mb", "-1"], "--memory-mb must be >= 0"),
    (["--timeout", "-3"], "--timeout must be positive"),
])
def test_run_kernel_bad_limits_exit_2(tmp_path, capsys, argv, message):
    ok = write_kernel(tmp_path, "ok.py", PLAIN_OK)
    assert run_kernel.main([str(ok), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# -- sync / check exit codes -------------------------------------------------------------------------------------
def test_sync_check_exit_codes(ws, capsys):
    assert sync(ws, "--check") == 0
    ws.record(ABS, status="pass")
    before = ws.text()
    assert sync(ws, "--check") == 1                              # out of sync: reported, nothing written
    assert ws.text() == before
    assert sync(ws, "--dry-run") == 0 and ws.text() == before
    assert sync(ws) == 0 and ws.text() != before
    assert sync(ws, "--check") == 0


def test_check_capabilities_strict_and_soft_exit_codes(ws, capsys):
    assert check_capabilities.main(ws.args()) == 0
    ws.record(ABS, status="pass")                                # evidence the registry does not reflect yet
    assert check_capabilities.main(ws.args()) == 1
    assert check_capabilities.main(ws.args("--soft-runtime")) == 0
    assert sync(ws) == 0
    assert check_capabilities.main(ws.args()) == 0
    ws.cap.write_text(ws.text().replace("schema_version: 1", "schema_version: [", 1))
    assert check_capabilities.main(ws.args()) == 2               # unparsable: cannot run
    assert sync(ws) == 2


# -- sync never overwrites a hand edit that its own evidence link does not support ------------------------------------
def _edit(ws, old, new):
    text = ws.text()
    assert old in text
    ws.cap.write_text(text.replace(old, new, 1))
    return ws.text()


def test_a_local_promotion_over_a_timed_out_run_is_a_hand_edit(ws, capsys):
    ws.record(ABS, status="timeout")
    assert sync(ws) == 0 and cell(ws, ABS)["golden_status"] == "failing"
    ws.commit("sync")
    edited = _edit(ws, "golden_status: failing", "golden_status: confirmed")
    assert sync(ws) == 1
    assert "golden_status was edited locally (failing at HEAD, confirmed now)" in capsys.readouterr().err
    assert ws.text() == edited


def test_a_local_generative_confirmation_without_k_passes_is_a_hand_edit(ws, capsys):
    for _ in range(3):
        gen(ws, "fail")
    assert sync(ws) == 0 and cell(ws, ADD)["generative_status"] == "pending"
    ws.commit("sync")
    edited = _edit(ws, "generative_status: pending", "generative_status: confirmed")
    assert sync(ws) == 1
    assert "generative_status was edited locally (pending at HEAD, confirmed now)" in capsys.readouterr().err
    assert ws.text() == edited
    assert sync(ws, "--force") == 0 and cell(ws, ADD)["generative_status"] == "pending"


def test_a_local_golden_confirmation_linking_a_quick_run_is_a_hand_edit(ws, capsys):
    quick = ws.record(ABS, status="pass", skipped_case=True)   # passed, but skipped a case: does not count
    assert sync(ws) == 0 and cell(ws, ABS)["golden_status"] == "pending"
    ws.commit("sync")
    _edit(ws, "golden_status: pending", "golden_status: confirmed")
    edited = _edit(ws, "golden: null", f"golden: {link(ws, quick)}")
    assert cell(ws, ABS)["evidence"]["golden"] == link(ws, quick)
    assert sync(ws) == 1
    assert "golden_status was edited locally (pending at HEAD, confirmed now)" in capsys.readouterr().err
    assert ws.text() == edited


def test_a_local_generative_confirmation_linking_attempts_that_do_not_count_is_a_hand_edit(ws, capsys):
    static = [gen(ws, "pass", runtime_verified=False) for _ in range(2)]   # passes, but never ran
    assert sync(ws) == 0 and cell(ws, ADD)["generative_status"] == "pending"
    ws.commit("sync")
    head, add = ws.text().split(f"id: {ADD}")
    links = "".join(f"\n        - {link(ws, r)}" for r in reversed(static))
    add = add.replace("generative_status: pending", "generative_status: confirmed", 1)
    add = add.replace("generative: []", "generative:" + links, 1)
    ws.cap.write_text(head + f"id: {ADD}" + add)
    edited = ws.text()
    assert list(cell(ws, ADD)["evidence"]["generative"]) == [link(ws, r) for r in reversed(static)]
    assert sync(ws) == 1
    assert "generative_status was edited locally (pending at HEAD, confirmed now)" in capsys.readouterr().err
    assert ws.text() == edited


def test_a_local_perf_demotion_that_keeps_the_link_is_a_hand_edit(ws, capsys):
    ws.record(ABS, status="pass", ticks=100)
    assert sync(ws) == 0 and cell(ws, ABS)["perf_status"] == "measured"
    ws.commit("sync")
    edited = _edit(ws, "perf_status: measured", "perf_status: pending")
    assert sync(ws) == 1
    assert "perf_status was edited locally (measured at HEAD, pending now)" in capsys.readouterr().err
    assert ws.text() == edited


def test_generative_links_are_written_as_a_block_list_and_emptied_as_flow(ws):
    recs = [gen(ws, "pass"), gen(ws, "fail")]
    assert sync(ws) == 0
    text = ws.text()
    block = "      generative:\n" + "".join(f"        - {link(ws, r)}\n" for r in reversed(recs))
    assert block in text, text
    ws.commit("sync")
    for r in recs:
        r.unlink()
    assert sync(ws) == 0
    text = ws.text()
    assert "generative: []\n" in text and "generative:\n" not in text.split(f"id: {ADD}")[1].split("- id:")[0]
    assert cell(ws, ADD)["evidence"]["generative"] == []


def test_files_that_are_not_json_records_are_ignored_by_readers(ws, capsys):
    ok = ws.record(ABS, status="pass")
    for name in ("README", "notes.txt", "golden-old.bak", "golden.JSON", ".tmp-123.json"):
        (ok.parent / name).write_text("not a record\n")
    assert sync(ws) == 0
    assert cell(ws, ABS)["golden_status"] == "confirmed"
    ws.commit("sync")
    assert check_capabilities.main(ws.args()) == 0, capsys.readouterr().out


@pytest.mark.parametrize("runs,median,spread", [
    ([100, 104], 102, 0.039216), ([99, 100, 101, 102], 100.5, 0.029851), ([7], 7, 0.0), ([5, 1, 3], 3, 1.333333),
    ([50, 10, 40, 20, 30], 30, 1.333333), ([60, 10, 50, 20, 40, 30], 35, 1.428571),   # the middle, not near the end
])
def test_perf_block_median_and_spread(runs, median, spread):
    block = evidence.perf_block(runs)
    assert block["ticks_median"] == median and block["spread"] == spread
    assert block["ticks_runs"] == runs


def test_perf_links_the_newest_measured_run_and_says_so(ws, capsys):
    ws.record(ABS, status="pass", ticks=100)
    newest = ws.record(ABS, status="pass", ticks=90)
    ws.record(ABS, status="fail", ticks=80)                      # later, but failing: not a measurement
    assert sync(ws, "--dry-run") == 0
    assert f"ticks recorded in {link(ws, newest)}" in capsys.readouterr().out
    assert sync(ws) == 0
    assert cell(ws, ABS)["evidence"]["perf"] == link(ws, newest)


def test_records_name_the_home_directory_as_a_tilde(ws, monkeypatch):
    home = "/home/kernel-author"
    monkeypatch.setenv("HOME", home)
    res = _result(ws, status="error", failure={"category": "runtime_error",
                                               "message": f"cannot open {home}/data/x.npy"}, cases=[])
    rec = build_record(res, cell=ABS, root=ws.root)
    assert rec["failure"]["message"] == "cannot open ~/data/x.npy"


def test_a_home_directory_of_slash_leaves_paths_alone(ws, monkeypatch):
    monkeypatch.setenv("HOME", "/")               # e.g. a service account without a home
    res = _result(ws, status="error", failure={"category": "runtime_error",
                                               "message": "cannot open /srv/data/x.npy"}, cases=[])
    rec = build_record(res, cell=ABS, root=ws.root)
    assert rec["failure"]["message"] == "cannot open /srv/data/x.npy"
