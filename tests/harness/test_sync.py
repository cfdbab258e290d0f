"""sync_capabilities: status rules from evidence, --check/--dry-run, round-trip edits, stale local edits."""

from __future__ import annotations

import difflib
import re

import pytest

from asc_harness.store import check_capabilities
from asc_harness.store import sync_capabilities
from asc_harness.store.registry import load_registry

from conftest import ABS, ADD, MATMUL, git


def sync(ws, *extra):
    return sync_capabilities.main(ws.args(*extra))


def cell(ws, cid):
    return load_registry(ws.cap).cell(cid)


def link(ws, path):
    return path.relative_to(ws.root).as_posix()


def test_no_evidence_means_in_sync(ws, capsys):
    assert sync(ws, "--check") == 0
    assert "in sync" in capsys.readouterr().out


def test_golden_follows_latest_runtime_verified_run(ws):
    first = ws.record(ABS, status="pass")
    assert sync(ws) == 0
    c = cell(ws, ABS)
    assert c["golden_status"] == "confirmed" and c["evidence"]["golden"] == link(ws, first)

    failing = ws.record(ABS, status="fail")
    assert sync(ws) == 0
    c = cell(ws, ABS)
    assert c["golden_status"] == "failing" and c["evidence"]["golden"] == link(ws, failing)

    # none of these may promote the cell again
    ws.record(ABS, status="pass", runtime_verified=False)          # static-only
    ws.record(ABS, status="skipped")                               # skipped
    ws.record(ABS, status="pass", skipped_case=True)               # quick run: not every case ran
    ws.record(ABS, status="error", runtime_verified=False, category="infrastructure")
    assert sync(ws, "--check") == 0
    assert cell(ws, ABS)["golden_status"] == "failing"

    timeout = ws.record(ABS, status="timeout")
    assert sync(ws) == 0
    assert cell(ws, ABS)["evidence"]["golden"] == link(ws, timeout)


def test_static_only_never_promotes(ws):
    ws.record(ABS, status="pass", runtime_verified=False)
    assert sync(ws, "--check") == 0
    assert cell(ws, ABS)["golden_status"] == "pending"


def test_generative_k_of_m(ws):
    a1 = ws.record(ADD, kind="generative", status="pass")
    assert sync(ws) == 0
    c = cell(ws, ADD)
    assert c["generative_status"] == "pending" and list(c["evidence"]["generative"]) == [link(ws, a1)]

    a2 = ws.record(ADD, kind="generative", status="fail")
    a3 = ws.record(ADD, kind="generative", status="pass")
    ws.record(ADD, kind="generative", status="pass", runtime_verified=False)  # static-only: ignored
    assert sync(ws) == 0
    c = cell(ws, ADD)
    assert c["generative_status"] == "confirmed"
    assert list(c["evidence"]["generative"]) == [link(ws, a3), link(ws, a2), link(ws, a1)]

    a4 = ws.record(ADD, kind="generative", status="fail")        # window is now fail, pass, fail
    assert sync(ws) == 0
    c = cell(ws, ADD)
    assert c["generative_status"] == "pending"
    assert list(c["evidence"]["generative"]) == [link(ws, a4), link(ws, a3), link(ws, a2)]

    assert sync(ws, "--k", "1", "--m", "2") == 0                 # configurable
    assert cell(ws, ADD)["generative_status"] == "confirmed"
    assert sync(ws, "--k", "3", "--m", "2") == 2                 # K > M is a usage error


def test_blocked_is_never_touched(ws):
    ws.record(MATMUL, status="pass")
    ws.record(MATMUL, kind="generative", status="pass")
    ws.record(MATMUL, kind="generative", status="pass")
    assert sync(ws) == 0
    c = cell(ws, MATMUL)
    assert c["golden_status"] == "blocked" and c["generative_status"] == "blocked"
    assert c["evidence"]["golden"] is None and list(c["evidence"]["generative"]) == []


def test_perf_measured_from_ticks_or_perf_records(ws):
    ws.record(ABS, status="pass")                                 # no ticks: not a measurement
    assert sync(ws) == 0
    assert cell(ws, ABS)["perf_status"] == "not_attempted"
    ticked = ws.record(ABS, status="pass", ticks=4692)
    assert sync(ws) == 0
    c = cell(ws, ABS)
    assert c["perf_status"] == "measured" and c["evidence"]["perf"] == link(ws, ticked)
    perf = ws.record(ABS, kind="perf", status="pass", ticks=4700)
    ws.record(ABS, status="pass", ticks=1)                        # a perf record is preferred
    assert sync(ws) == 0
    assert cell(ws, ABS)["evidence"]["perf"] == link(ws, perf)


def test_check_and_dry_run_write_nothing(ws, capsys):
    ws.record(ABS, status="pass")
    before = ws.text()
    assert sync(ws, "--check") == 1
    assert "out of sync" in capsys.readouterr().out
    assert sync(ws, "--dry-run") == 0
    out = capsys.readouterr().out
    assert f"{ABS}: golden_status: pending -> confirmed" in out and "dry run" in out
    assert ws.text() == before
    assert sync(ws) == 0
    assert sync(ws, "--check") == 0


def test_round_trip_keeps_comments_order_and_layout(ws):
    ws.record(ABS, status="pass", ticks=5)
    g1 = ws.record(ADD, kind="generative", status="pass")
    before = ws.text()
    assert sync(ws) == 0
    after = ws.text()
    diff = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), n=0, lineterm="")
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    # only the status and link lines differ; comments, flow mappings and key order are untouched
    assert len(diff) == 11  # 4 lines replaced for abs; generative: [] becomes a block list for add
    assert all(re.match(r"^[-+]\s+(golden_status|perf_status|golden|perf|generative):|^\+\s+- evidence/", d)
               for d in diff), diff
    assert "# Test registry. This comment must survive a sync." in after
    assert "    golden_status: confirmed    # set by sync\n" in after
    assert '  - {name: add, tier: 0, description: "sum"}   # trailing comment' in after
    assert f"        - {link(ws, g1)}" in after
    assert load_registry(ws.cap).issues() == []


def test_selected_cells_only(ws):
    ws.record(ABS, status="pass")
    ws.record(ADD, status="pass")
    assert sync(ws, "--cells", "add/*") == 0
    assert cell(ws, ABS)["golden_status"] == "pending"
    assert cell(ws, ADD)["golden_status"] == "confirmed"
    assert sync(ws, "--cells", "nothing") == 2


def test_refuses_to_overwrite_uncommitted_status_edit(ws, capsys):
    ws.record(ABS, status="fail")
    assert sync(ws) == 0
    ws.commit("sync: abs failing")
    # a stale local promotion, not committed
    ws.cap.write_text(ws.text().replace("golden_status: failing", "golden_status: confirmed", 1))
    edited = ws.text()
    assert sync(ws) == 1
    err = capsys.readouterr().err
    assert "refusing to overwrite uncommitted local edits" in err
    assert f"{ABS}: golden_status was edited locally (failing at HEAD, confirmed now); evidence says failing" in err
    assert ws.text() == edited
    assert sync(ws, "--dry-run") == 0                              # reports, writes nothing
    assert "would refuse" in capsys.readouterr().out
    assert sync(ws, "--force") == 0
    assert cell(ws, ABS)["golden_status"] == "failing"


def test_local_edit_that_agrees_with_evidence_is_fine(ws):
    ws.record(ABS, status="pass")
    ws.cap.write_text(ws.text().replace("golden_status: pending ", "golden_status: confirmed ", 1))
    # the link is still missing, the status edit agrees with the evidence: no conflict on the status
    assert sync(ws) == 0
    assert cell(ws, ABS)["golden_status"] == "confirmed"


def test_invalid_evidence_stops_sync(ws, capsys):
    good = ws.record(ABS, status="pass")
    good.with_name("golden-20990101T000000000000Z-0000.json").write_text("{not json")
    before = ws.text()
    assert sync(ws) == 2
    err = capsys.readouterr().err
    assert "invalid JSON" in err and "Traceback" not in err
    assert ws.text() == before


def test_bad_inputs_exit_2_without_traceback(ws, capsys, tmp_path):
    assert sync_capabilities.main(["--capabilities", str(tmp_path / "missing.yaml")]) == 2
    ws.cap.write_text("cells: [\n")
    assert sync(ws) == 2
    err = capsys.readouterr().err
    assert "capabilities file not found" in err and "invalid YAML" in err and "Traceback" not in err


def test_outside_git_still_syncs(ws):
    import shutil

    shutil.rmtree(ws.root / ".git")
    ws.record(ABS, status="pass")
    assert sync(ws) == 0
    assert cell(ws, ABS)["golden_status"] == "confirmed"
    assert git  # keep the helper import used


def test_a_hand_edit_is_refused_even_after_changes_to_untouched_fields(ws, capsys):
    ws.record(ADD, status="fail")
    assert sync(ws) == 0
    ws.commit("sync: add failing")
    ws.cap.write_text(ws.text().replace("golden_status: failing", "golden_status: confirmed", 1))
    ws.record(ABS, status="pass")            # abs (listed first) changes too, in fields nobody edited
    edited = ws.text()
    assert sync(ws) == 1
    err = capsys.readouterr().err
    assert f"{ADD}: golden_status was edited locally (failing at HEAD, confirmed now); evidence says failing" in err
    assert ABS not in err
    assert ws.text() == edited


@pytest.mark.parametrize("tool", ["sync", "check"])
@pytest.mark.parametrize("k, m, ok", [(1, 1, True), (3, 3, True), (1, 5, True), (4, 3, False), (0, 3, False),
                                      (1, 0, False)])
def test_k_and_m_must_satisfy_1_le_k_le_m(ws, capsys, tool, k, m, ok):
    main = sync_capabilities.main if tool == "sync" else check_capabilities.main
    code = main(ws.args("--k", str(k), "--m", str(m), "--soft-runtime" if tool == "check" else "--check"))
    err = capsys.readouterr().err
    if ok:
        assert code == 0, err
    else:
        assert code == 2 and err == f"{tool}_capabilities: error: need 1 <= K <= M, got --k {k} --m {m}\n"


def test_k_of_m_of_one_confirms_on_a_single_pass(ws, capsys):
    ws.record(ADD, kind="generative", status="pass")
    assert sync(ws, "--k", "1", "--m", "1") == 0
    assert cell(ws, ADD)["generative_status"] == "confirmed"
    assert check_capabilities.main(ws.args("--k", "1", "--m", "1")) == 0
    assert check_capabilities.main(ws.args()) == 1          # the default 2 of 3 says pending


@pytest.mark.parametrize("corrupt, more", [(3, ""), (4, " (and 1 more)")])
def test_corrupt_evidence_lists_the_first_three_and_counts_the_rest(ws, capsys, corrupt, more):
    good = ws.record(ABS, status="pass")
    for i in range(corrupt):
        good.with_name(f"golden-2099010{i + 1}T000000000000Z-0000.json").write_text("{not json")
    before = ws.text()
    assert sync(ws) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sync_capabilities: error: corrupt evidence ({corrupt} record(s)); fix or remove them, "
                          "then re-run: ")
    assert err.count("invalid JSON") == 3 and err.endswith(f"{more}\n")
    assert ws.text() == before


def test_ascendc_runs_are_linked_apart_from_golden_and_perf(ws):
    golden = ws.record(ABS, status="pass", ticks=5000)
    assert sync(ws) == 0
    reference = ws.record(ABS, kind="ascendc", status="pass", ticks=4000)
    ws.record(ABS, kind="ascendc", status="pass", ticks=1, skipped_case=True)   # a quick run compares part
    assert sync(ws) == 0
    c = cell(ws, ABS)
    assert c["evidence"]["ascendc"] == link(ws, reference)
    # the reference's ticks are not the golden's: golden status and perf stay on the golden's record
    assert c["golden_status"] == "confirmed" and c["evidence"]["golden"] == link(ws, golden)
    assert c["perf_status"] == "measured" and c["evidence"]["perf"] == link(ws, golden)
    assert sync(ws, "--check") == 0
    assert check_capabilities.main(ws.args()) == 0


def test_a_failing_reference_run_is_linked_but_a_golden_run_is_never_linked_as_reference(ws):
    failing = ws.record(ABS, kind="ascendc", status="fail")
    assert sync(ws) == 0
    assert cell(ws, ABS)["evidence"]["ascendc"] == link(ws, failing)
    assert cell(ws, ABS)["golden_status"] == "pending"
    ws.record(ABS, status="pass", ticks=5000)
    assert sync(ws) == 0
    assert cell(ws, ABS)["evidence"]["ascendc"] == link(ws, failing)
