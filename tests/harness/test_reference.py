"""Ascend C references: the ratio reference ticks / golden ticks at the reference shape, the 0.7 flag,
the structure rule on the reference shape, and the matrix column."""

from __future__ import annotations

import json

from asc_harness.report import matrix
from asc_harness.run.reference import GATE, compare, compare_from_links, label
from asc_harness.store.registry import load_registry

from conftest import ABS, ADD, REGISTRY

CELL = {"id": ABS, "reference": {"impl": "aclnnAbs", "shape": [4, 8], "ticks": 700, "source": "measured"}}


def _record(ticks, shape=(4, 8), status="pass"):
    return {"cases": [{"id": "16", "shape": [16], "status": "pass", "ticks": 1},
                      {"id": "4x8", "shape": list(shape), "status": status, "ticks": ticks}]}


def test_ratio_uses_the_case_at_the_reference_shape():
    got = compare(CELL, _record(1000))
    assert got["ticks"] == 1000 and got["ratio"] == 0.7 and got["below_gate"] is False
    assert label(got) == "R 0.70"


def test_just_below_the_gate_is_flagged():
    got = compare(CELL, _record(1001))
    assert got["ratio"] < GATE and got["below_gate"] is True
    assert label(got) == "R 0.70 < 0.7"


def test_no_ratio_without_a_passing_case_at_that_shape():
    assert compare(CELL, _record(1000, shape=(8, 4)))["ratio"] is None
    assert compare(CELL, _record(1000, status="fail"))["ratio"] is None
    assert compare(CELL, None)["ratio"] is None and label(compare(CELL, None)) == "R -"
    assert compare({"id": ABS}, _record(1000)) is None and label(None) == ""


def test_unreadable_linked_record_gives_no_ticks(tmp_path):
    cell = dict(CELL, evidence={"golden": "evidence/missing.json"})
    assert compare_from_links(cell, tmp_path)["ticks"] is None
    (tmp_path / "evidence").mkdir()
    (tmp_path / "evidence" / "r.json").write_text(json.dumps(_record(350)))
    assert compare_from_links(dict(CELL, evidence={"golden": "evidence/r.json"}), tmp_path)["ratio"] == 2.0


REF_YAML = "    reference: {impl: aclnnAbs, shape: [4, 8], ticks: 500, source: \"camodel, 3 runs\"}\n"


def _with_reference(text, shape="[4, 8]"):
    anchor = "      - {text: \"a known issue\", link: \"https://example.invalid/issue\", since: 2026-05-06}\n"
    return text.replace(anchor, anchor + REF_YAML.replace("[4, 8]", shape), 1)


def test_reference_shape_must_be_a_cell_shape(tmp_path):
    p = tmp_path / "capabilities.yaml"
    p.write_text(_with_reference(REGISTRY))
    assert load_registry(p).issues() == []
    p.write_text(_with_reference(REGISTRY, "[8, 4]"))
    issues = load_registry(p).issues()
    assert [i.path for i in issues] == ["cells[1].reference.shape"]
    assert "not one of the cell's shapes" in issues[0].message


def test_matrix_shows_the_ratio(ws, capsys):
    ws.cap.write_text(_with_reference(ws.text()))
    rec = ws.record(ADD, ticks=400)
    head, tail = ws.text().split(f"  - id: {ADD}\n", 1)
    tail = tail.replace("    evidence:\n      golden: null", "    evidence:\n      golden: "
                        f"{rec.relative_to(ws.root).as_posix()}", 1)
    ws.cap.write_text(head + f"  - id: {ADD}\n" + tail)
    assert matrix.main(ws.args()) == 0
    out = capsys.readouterr().out
    assert "R 1.25" in out and "R 1.25 <" not in out
    assert matrix.main(ws.args("--json")) == 0
    data = json.loads(capsys.readouterr().out)
    entry = next(o for o in data["tiers"][0]["operations"] if o["op"] == "add")["cells"]["float16"]
    assert entry["ascend_c"]["ratio"] == 1.25 and entry["ascend_c"]["reference_ticks"] == 500


def test_dashboard_data_carries_the_comparison(ws, tmp_path):
    from asc_harness.report.dashboard import build_site_data, render_site

    ws.cap.write_text(_with_reference(ws.text()))
    ws.record(ADD, ticks=1000)  # the dashboard falls back to the newest golden record of the cell
    data = build_site_data(ws.cap, ws.evidence)
    add = next(c for c in data["cells"] if c["id"] == ADD)
    assert add["ascend_c"]["ratio"] == 0.5 and add["ascend_c"]["below_gate"] is True
    assert next(c for c in data["cells"] if c["id"] == ABS)["ascend_c"] is None
    render_site(data, tmp_path / "site")
    page = next((tmp_path / "site" / "cells").glob("add--*.html")).read_text()
    assert "aclnnAbs" in page and "(below 0.7)" in page
