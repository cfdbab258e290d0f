"""check_capabilities: structure, registry/evidence/file cross-checks, strict vs --soft-runtime, output."""

from __future__ import annotations

import json

from asc_harness.store import check_capabilities
from asc_harness.store import sync_capabilities

from conftest import ABS, ADD


def check(ws, *extra):
    return check_capabilities.main(ws.args(*extra))


def test_clean_workspace_passes_strict(ws, capsys):
    assert check(ws) == 0
    out = capsys.readouterr().out
    assert "PASS (strict): 3 cell(s) checked, 0 error(s), 0 drift" in out
    assert ABS in out  # the per-cell table


def test_drift_fails_strict_and_passes_soft(ws, capsys):
    ws.record(ABS, status="pass")                    # evidence says confirmed, registry says pending
    assert check(ws) == 1
    out = capsys.readouterr().out
    assert f"[ERROR] {ABS}: golden_status is 'pending' but the evidence says 'confirmed'" in out
    assert check(ws, "--soft-runtime") == 0
    out = capsys.readouterr().out
    assert f"[DRIFT] {ABS}: golden_status is 'pending' but the evidence says 'confirmed'" in out
    assert "run sync_capabilities" in out
    assert "PASS (soft-runtime)" in out
    assert sync_capabilities.main(ws.args()) == 0
    capsys.readouterr()
    assert check(ws) == 0


def test_demotion_drift(ws, capsys):
    ws.record(ABS, status="pass")
    assert sync_capabilities.main(ws.args()) == 0
    ws.record(ABS, status="fail")
    assert check(ws, "--soft-runtime") == 0
    assert f"[DRIFT] {ABS}: golden_status is 'confirmed' but the evidence says 'failing'" in capsys.readouterr().out


def test_structural_errors_fail_in_both_modes(ws, capsys):
    (ws.root / "golden/kernels/add_f16.py").unlink()
    ws.record(ABS, status="pass")                    # plus some drift
    for mode in ([], ["--soft-runtime"]):
        assert check(ws, *mode) == 1
        out = capsys.readouterr().out
        assert "cells[1].golden: golden kernel not found: golden/kernels/add_f16.py" in out
        assert "capabilities.yaml:" in out            # with a line number


def test_golden_file_must_agree_with_the_cell(ws, capsys):
    g = ws.root / "golden/kernels/abs_f16.py"
    g.write_text(g.read_text().replace('DTYPE = "float16"', 'DTYPE = "float32"')
                 .replace('"atol": 1.0e-3', '"atol": 1.0e-2')
                 .replace('{"id": "16", "shape": [16], "full_only": True}', '{"id": "32", "shape": [32]}'))
    a = ws.root / "golden/kernels/add_f16.py"
    a.write_text(a.read_text().replace('"atol": 2e-3', '"atol": 3e-3'))
    assert check(ws, "--soft-runtime") == 1
    out = capsys.readouterr().out
    assert "DTYPE is 'float32' but the cell's dtype is 'float16'" in out
    assert "TOLERANCE atol=0.01 but the cell says 0.001" in out
    assert "CASES shapes differ from the cell's shapes (only in the file: [32]; only in the registry: [16])" in out
    assert "case 4x8 uses atol=0.003 but the registry says 0.002 for shape [4, 8]" in out


def test_golden_file_without_interface_or_literals(ws, capsys):
    (ws.root / "golden/kernels/abs_f16.py").write_text("import numpy\nprint('plain script')\n")
    a = ws.root / "golden/kernels/add_f16.py"
    a.write_text(a.read_text().replace('CASES = [', 'CASES = list(numpy.ones(1)) + ['))
    assert check(ws) == 1
    out = capsys.readouterr().out
    assert "does not define the golden interface (missing OP, DTYPE, TOLERANCE, CASES" in out
    assert "CASES is not a literal module-level value" in out


def test_linked_records_are_cross_checked(ws, capsys):
    rec_add = ws.record(ADD, status="pass")
    assert sync_capabilities.main(ws.args()) == 0
    capsys.readouterr()
    text = ws.text()
    add_link = rec_add.relative_to(ws.root).as_posix()
    # point abs at add's record, and add at a record that does not exist
    text = text.replace("golden_status: pending      # set by sync", "golden_status: confirmed    # set by sync")
    text = text.replace("      golden: null\n", f"      golden: {add_link}\n", 1)
    text = text.replace(f"      golden: {add_link}\n      generative: []\n      perf: null\n    known_issues:\n      - {{text",
                        f"      golden: {add_link.replace('golden-', 'golden-0')}\n      generative: []\n"
                        f"      perf: null\n    known_issues:\n      - {{text")
    ws.cap.write_text(text)
    assert check(ws, "--soft-runtime") == 1
    out = capsys.readouterr().out
    assert f"is a record for {ADD}, not {ABS}" in out
    assert "evidence record not found" in out


def test_invalid_record_in_cell_directory_is_an_error(ws, capsys):
    path = ws.record(ABS, status="pass")
    data = json.loads(path.read_text())
    data["unexpected"] = 1
    path.write_text(json.dumps(data))
    assert check(ws, "--soft-runtime") == 1
    assert "unexpected: unknown field" in capsys.readouterr().out


def test_schema_error_is_reported_with_path(ws, capsys):
    ws.cap.write_text(ws.text().replace("shapes: [[4, 8], [16]]", "shapes: [[4, 8], [0]]"))
    assert check(ws) == 1
    assert "cells[0].shapes[1][0]: 0 is less than the minimum of 1" in capsys.readouterr().out


def test_json_output_is_stable(ws, capsys):
    ws.record(ABS, status="pass")
    assert check(ws, "--json", "--soft-runtime") == 0
    first = capsys.readouterr().out
    assert check(ws, "--json", "--soft-runtime") == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert data["status"] == "pass" and data["mode"] == "soft-runtime" and data["cells_checked"] == 3
    assert [d["path"] for d in data["drift"]] == ["cells[0].evidence.golden", "cells[0].golden_status"]
    assert data["errors"] == []
    assert check(ws, "--json") == 1
    assert json.loads(capsys.readouterr().out)["status"] == "fail"


def test_cannot_run_exits_2(ws, capsys, tmp_path):
    assert check_capabilities.main(["--capabilities", str(tmp_path / "none.yaml")]) == 2
    assert "capabilities file not found" in capsys.readouterr().err
    ws.cap.write_text("schema_version: 1\ncells: [\n")
    assert check(ws) == 2
    err = capsys.readouterr().err
    assert "invalid YAML" in err and "Traceback" not in err
    assert check(ws, "--json") == 2
    assert json.loads(capsys.readouterr().out)["status"] == "error"


def test_unknown_flag_exits_2(capsys):
    import pytest

    with pytest.raises(SystemExit, match="^2$") as exc:
        check_capabilities.main(["--bogus-flag"])
    assert exc.value.code == 2
    assert "unrecognized arguments: --bogus-flag" in capsys.readouterr().err


def test_cells_filter_and_orphans(ws, capsys):
    assert check(ws, "--cells", "add") == 0
    assert "1 cell(s) checked" in capsys.readouterr().out
    assert check(ws, "--cells", "nope/*") == 2
    ws.record("abs/float32/Ascend950PR_9599", status="pass")
    assert check(ws) == 0
    assert "[WARN]" in capsys.readouterr().out


def test_help_explains_statuses_and_exit_codes(capsys):
    import pytest

    with pytest.raises(SystemExit, match="^0$"):
        check_capabilities.main(["--help"])
    out = capsys.readouterr().out
    for word in ("confirmed", "failing", "pending", "blocked", "not_attempted", "measured", "exit codes", "--soft-runtime"):
        assert word in out


def test_matrix_groups_by_tier(ws, capsys):
    from asc_harness.report import matrix

    ws.record(ABS, status="pass", ticks=3)
    assert matrix.main(ws.args("--format", "simple")) == 0
    out = capsys.readouterr().out
    assert out.index("Tier 0: elementwise") < out.index("Tier 3: advanced")
    assert "G pending !" in out and "G blocked" in out and "P -" in out
    assert "golden 0/2 confirmed" in out
    assert matrix.main(ws.args("--json", "--cells", "abs")) == 0
    data = json.loads(capsys.readouterr().out)
    (tier,) = [t for t in data["tiers"] if t["operations"]]
    assert tier["operations"][0]["cells"]["float16"]["drift"] == ["evidence.golden", "evidence.perf", "golden_status",
                                                                  "perf_status"]


def test_matrix_columns_per_platform(ws, capsys):
    from asc_harness.report import matrix

    text = ws.text().replace("platforms: [Ascend950PR_9599]", "platforms: [Ascend950PR_9599, Ascend910B1]")
    text = text.replace(f"cells:\n", f"cells:\n  - id: abs/float16/Ascend910B1\n    op: abs\n    dtype: float16\n"
                        f"    platform: Ascend910B1\n    golden: null\n    shapes: [[4]]\n"
                        f"    tolerance: {{atol: 0.0, rtol: 0.0}}\n    prompts: {{minimal: m, guided: g}}\n"
                        f"    golden_status: not_attempted\n    generative_status: not_attempted\n"
                        f"    perf_status: not_attempted\n    evidence: {{golden: null, generative: [], perf: null}}\n"
                        f"    known_issues: []\n", 1)
    ws.cap.write_text(text)
    assert matrix.main(ws.args("--format", "simple")) == 0
    out = capsys.readouterr().out
    assert "float16@Ascend910B1" in out and "float16@Ascend950PR_9599" in out


def test_evidence_dir_outside_the_repository(ws, capsys, tmp_path):
    assert check_capabilities.main(["--capabilities", str(ws.cap), "--evidence-dir", str(tmp_path / "elsewhere")]) == 2
    assert "must be inside" in capsys.readouterr().err


def test_sync_modes_are_exclusive(ws, capsys):
    import pytest

    with pytest.raises(SystemExit, match="^2$") as exc:
        sync_capabilities.main(ws.args("--check", "--dry-run"))
    assert exc.value.code == 2


def test_matrix_shows_the_roofline_efficiency_of_the_perf_evidence(ws, capsys):
    from asc_harness.report import matrix
    from asc_harness.store import sync_capabilities

    ws.record(ABS, status="pass", ticks=300, roofline=0.5)
    ws.record(ABS, status="pass", ticks=400, roofline=0.234)
    assert sync_capabilities.main(ws.args()) == 0
    capsys.readouterr()
    assert matrix.main(ws.args("--format", "simple")) == 0
    out = capsys.readouterr().out
    assert "P measured 23%" in out and "50%" not in out
    assert "roofline efficiency" in out
    assert matrix.main(ws.args("--json", "--cells", "abs")) == 0
    (tier,) = [t for t in json.loads(capsys.readouterr().out)["tiers"] if t["operations"]]
    assert tier["operations"][0]["cells"]["float16"]["roofline"] == 0.234


def test_matrix_counts_the_launch_warnings_of_the_golden_evidence(ws, capsys):
    """A cell whose deciding golden run warned shows ``W n``; a newer run's warnings do not count until the
    cell is synced to it, and a clean golden run shows no ``W`` line."""
    from asc_harness.report import matrix
    from asc_harness.store import sync_capabilities

    warned = [{"kind": "PastEndWarning", "where": "abs_f16.py:12", "message": "past-the-end"},
              {"kind": "FlagWarning", "where": "abs_f16.py:20", "message": "set_flag never waited for"}]
    ws.record(ABS, status="pass", ticks=300, warnings=warned)
    assert sync_capabilities.main(ws.args()) == 0
    capsys.readouterr()
    assert matrix.main(ws.args("--format", "simple")) == 0
    assert "W 2 launch warnings" in capsys.readouterr().out
    assert matrix.main(ws.args("--json", "--cells", "abs")) == 0
    (tier,) = [t for t in json.loads(capsys.readouterr().out)["tiers"] if t["operations"]]
    assert tier["operations"][0]["cells"]["float16"]["launch_warnings"] == 2
    ws.record(ABS, status="pass", ticks=300, warnings=[])
    assert sync_capabilities.main(ws.args()) == 0
    capsys.readouterr()
    assert matrix.main(ws.args("--format", "simple")) == 0
    assert "launch warning" not in capsys.readouterr().out.split("G golden")[0]


def _link_abs(ws, *, golden="null", generative="[]", perf="null"):
    """Point the abs cell's evidence links at the given repository paths."""
    old = "    evidence:\n      golden: null\n      generative: []\n      perf: null\n"
    text = ws.text()
    assert text.count(old) == 3
    ws.cap.write_text(text.replace(old, f"    evidence:\n      golden: {golden}\n      generative: {generative}\n"
                                        f"      perf: {perf}\n", 1))


def test_every_link_is_checked_for_its_slot_and_directory(ws, capsys):
    gen = ws.record(ABS, kind="generative", status="pass").relative_to(ws.root).as_posix()
    gold = ws.record(ABS, status="pass")                      # no ticks
    stray = ws.evidence / ADD / gold.name                     # a record for abs, filed under add
    stray.parent.mkdir(parents=True)
    stray.write_text(gold.read_text())
    gold = gold.relative_to(ws.root).as_posix()
    stray = stray.relative_to(ws.root).as_posix()
    missing = gen.replace("generative-", "generative-0")
    # a broken link must not stop the checks of the links after it
    _link_abs(ws, golden=gen, generative=f"[{missing}, {stray}]", perf=gold)
    assert check(ws, "--soft-runtime", "--cells", "abs") == 1
    out = capsys.readouterr().out
    assert f"cells[0].evidence.golden: {gen} is a generative record, linked as golden" in out
    assert "cells[0].evidence.generative[0]: evidence record not found" in out
    assert f"cells[0].evidence.generative[1]: {stray} is not stored under evidence/{ABS}/" in out
    assert f"cells[0].evidence.generative[1]: {stray} is a golden record, linked as generative" in out
    assert f"cells[0].evidence.perf: {gold} is a golden record without ticks, linked as perf" in out


def test_per_cell_counts_keep_errors_and_drift_apart(ws, capsys):
    ws.record(ABS, status="pass")                             # abs: drift only (status and link)
    (ws.root / "golden/kernels/add_f16.py").unlink()          # add: one error, no drift
    assert check(ws, "--soft-runtime", "--json") == 1
    rows = {r["cell"]: r for r in json.loads(capsys.readouterr().out)["cells"]}
    assert (rows[ABS]["errors"], rows[ABS]["drift"]) == (0, 2)
    assert (rows[ADD]["errors"], rows[ADD]["drift"]) == (1, 0)
    assert check(ws, "--soft-runtime") == 1
    table = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line.startswith(("abs/", "add/"))}
    assert table[ABS].endswith("  2 drift") and table[ADD].endswith("  1 error(s)")


def test_a_tolerance_that_is_not_a_number_is_an_error_not_a_crash(ws, capsys):
    g = ws.root / "golden/kernels/abs_f16.py"
    g.write_text(g.read_text().replace('TOLERANCE = {"atol": 1.0e-3,', 'TOLERANCE = {"atol": None,'))
    a = ws.root / "golden/kernels/add_f16.py"
    a.write_text(a.read_text().replace('"atol": 2e-3', '"atol": "2e-3x"'))
    assert check(ws, "--soft-runtime") == 1
    out = capsys.readouterr().out
    assert "abs_f16.py: TOLERANCE atol=None but the cell says 0.001" in out
    assert "add_f16.py: case 4x8 uses atol='2e-3x' but the registry says 0.002 for shape [4, 8]" in out


def test_drift_names_the_reason_of_a_status_and_lists_links(ws, capsys):
    gold = ws.record(ABS, status="pass").relative_to(ws.root).as_posix()
    gen = ws.record(ABS, kind="generative", status="pass").relative_to(ws.root).as_posix()
    assert check(ws, "--soft-runtime", "--cells", "abs") == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("[DRIFT]")]
    assert (f"[DRIFT] {ABS}: golden_status is 'pending' but the evidence says 'confirmed' "
            f"(latest counting golden run {gold} is pass); run sync_capabilities") in lines
    assert f"[DRIFT] {ABS}: evidence.golden is null but the evidence says '{gold}'; run sync_capabilities" in lines
    assert (f"[DRIFT] {ABS}: evidence.generative is [] but the evidence says [{gen}]; "
            "run sync_capabilities") in lines
