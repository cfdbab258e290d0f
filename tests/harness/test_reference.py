"""Ascend C references: the ratio reference ticks / golden ticks at the reference shape, the 0.7 flag,
the structure rule on the reference shape, and the matrix column; the reference kernel's run against the
golden's, shape by shape."""

from __future__ import annotations

import json

from asc_harness.report import matrix
from asc_harness.run.reference import (GATE, compare, compare_from_links, label, per_shape, per_shape_from_links,
                                       per_shape_label)
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


# -- the Ascend C reference kernel's run against the golden's, shape by shape ----------------------------------


def _run(*cases):
    """A record with one passing case per (shape, ticks); ticks None: the case failed."""
    return {"kernel": "golden/ascendc/abs_f16.py", "status": "pass",
            "cases": [{"id": "x".join(map(str, s)), "shape": list(s), "status": "pass" if t else "fail", "ticks": t}
                      for s, t in cases]}


def test_per_shape_ratio_is_reference_over_golden_with_worst_and_median():
    got = per_shape(_run(((1, 128), 4000), ((32, 4096), 5000), ((100003,), 9000)),
                    _run(((1, 128), 4400), ((32, 4096), 4000), ((100003,), 9000)))
    assert [r["ratio"] for r in got["rows"]] == [1.1, 0.8, 1.0]
    assert got["worst"] == 0.8 and got["median"] == 1.0 and got["below_gate"] is False
    assert per_shape_label(got) == "C 0.80/1.00"


def test_one_shape_below_the_gate_flags_the_cell():
    # the golden is twice as fast on two shapes, and on the third the reference takes 7000 / 10001 < 0.7 of its ticks
    got = per_shape(_run(((4, 8), 1000), ((16,), 1000), ((100003,), 10001)),
                    _run(((4, 8), 2000), ((16,), 2000), ((100003,), 7000)))
    assert got["worst"] < GATE and got["below_gate"] is True and got["median"] == 2.0
    assert per_shape_label(got).endswith("< 0.7")


def test_only_shapes_both_passed_are_compared():
    got = per_shape(_run(((4, 8), 1000), ((16,), None), ((32,), 500)), _run(((4, 8), 900), ((16,), 100)))
    assert [r["shape"] for r in got["rows"]] == [[4, 8]]          # 16 failed in the golden, 32 not in the reference
    assert per_shape(_run(((16,), None)), _run(((16,), 100)))["worst"] is None
    assert per_shape_label(per_shape(_run(((16,), None)), _run(((16,), 100)))) == "C -"
    assert per_shape(_run(((4, 8), 1000)), None) is None and per_shape_label(None) == ""


def test_per_shape_reads_both_linked_records(tmp_path):
    (tmp_path / "evidence").mkdir()
    (tmp_path / "evidence" / "g.json").write_text(json.dumps(_run(((4, 8), 1000))))
    (tmp_path / "evidence" / "c.json").write_text(json.dumps(_run(((4, 8), 650))))
    cell = {"id": ABS, "evidence": {"golden": "evidence/g.json", "ascendc": "evidence/c.json"}}
    got = per_shape_from_links(cell, tmp_path)
    assert got["worst"] == 0.65 and got["below_gate"] is True
    assert per_shape_from_links({"id": ABS, "evidence": {"golden": "evidence/g.json"}}, tmp_path) is None
