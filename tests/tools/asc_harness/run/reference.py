"""Perf against hand-written Ascend C, two ways.

The cell's Ascend C reference kernel (``ascendc``: a pyasc v1 kernel with the golden interface) runs as
its own evidence kind; :func:`per_shape` compares its linked record with the golden's, shape by shape:
``ratio = reference ticks / golden ticks`` (> 1: the golden is faster), summarised by the worst
(smallest) and the median ratio; a cell whose worst ratio is below ``GATE`` is flagged (report-only, as
the reference harness's perf gate).

The cell's ``reference`` (camodel's ticks of CANN's ``aclnn*`` operator at one shape on the cell's
platform, a recorded constant) is the third figure: :func:`compare` against the golden's ticks at that
shape.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any, Mapping

GATE = 0.7


def golden_ticks_at(record: Mapping[str, Any], shape: list) -> int | float | None:
    """Ticks of the passing case of ``record`` whose shape is ``shape`` (None when there is none)."""
    for case in record.get("cases") or []:
        if isinstance(case, Mapping) and list(case.get("shape") or []) == list(shape) \
                and case.get("status") == "pass" and isinstance(case.get("ticks"), (int, float)):
            return case["ticks"]
    return None


def compare(cell: Mapping[str, Any], record: Mapping[str, Any] | None) -> dict | None:
    """The comparison for ``cell`` against its golden evidence ``record`` (None without a reference)."""
    ref = cell.get("reference")
    if not isinstance(ref, Mapping):
        return None
    ticks = golden_ticks_at(record, ref["shape"]) if record else None
    ratio = round(ref["ticks"] / ticks, 4) if ticks else None
    return {"impl": ref["impl"], "shape": list(ref["shape"]), "reference_ticks": ref["ticks"], "ticks": ticks,
            "ratio": ratio, "below_gate": ratio is not None and ratio < GATE, "source": ref.get("source")}


def compare_from_links(cell: Mapping[str, Any], root: Path) -> dict | None:
    """``compare`` with the record the cell's ``evidence.golden`` link names (unreadable: no ticks)."""
    link = (cell.get("evidence") or {}).get("golden")
    record = None
    if link:
        try:
            record = json.loads((Path(root) / str(link)).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            record = None
    return compare(cell, record if isinstance(record, Mapping) else None)


def label(result: Mapping[str, Any] | None) -> str:
    """``R 0.96`` / ``R 0.46 < 0.7`` / ``R -`` (no ticks yet); empty without a reference."""
    if not result:
        return ""
    if result["ratio"] is None:
        return "R -"
    return f"R {result['ratio']:.2f}" + (f" < {GATE}" if result["below_gate"] else "")


def _passing_ticks(record: Mapping[str, Any] | None) -> dict[tuple, int | float]:
    """{shape: ticks} of the passing cases of ``record`` that have ticks."""
    out = {}
    for case in (record or {}).get("cases") or []:
        if isinstance(case, Mapping) and case.get("status") == "pass" and isinstance(case.get("ticks"), (int, float)) \
                and case["ticks"] > 0:
            out.setdefault(tuple(case.get("shape") or []), case["ticks"])
    return out


def per_shape(golden: Mapping[str, Any] | None, ascendc: Mapping[str, Any] | None) -> dict | None:
    """The per-shape comparison of an Ascend C reference record with the golden record of its cell.

    ``rows``: one per shape both ran and passed (in the golden's case order) with both ticks and the
    ratio; ``worst`` / ``median``: of those ratios (None without a common shape); ``below_gate``: the
    worst ratio is below ``GATE``. None when there is no reference record.
    """
    if not ascendc:
        return None
    theirs = _passing_ticks(ascendc)
    ours = _passing_ticks(golden)
    rows = [{"shape": list(shape), "golden_ticks": ticks, "reference_ticks": theirs[shape],
             "ratio": round(theirs[shape] / ticks, 4)} for shape, ticks in ours.items() if shape in theirs]
    ratios = [r["ratio"] for r in rows]
    worst = min(ratios) if ratios else None
    return {"kernel": ascendc.get("kernel"), "status": ascendc.get("status"), "rows": rows, "worst": worst,
            "median": round(statistics.median(ratios), 4) if ratios else None,
            "below_gate": worst is not None and worst < GATE}


def _linked(cell: Mapping[str, Any], slot: str, root: Path) -> Mapping[str, Any] | None:
    link = (cell.get("evidence") or {}).get(slot)
    if not link:
        return None
    try:
        record = json.loads((Path(root) / str(link)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, Mapping) else None


def per_shape_from_links(cell: Mapping[str, Any], root: Path) -> dict | None:
    """:func:`per_shape` of the records the cell's ``evidence.golden`` and ``evidence.ascendc`` link."""
    return per_shape(_linked(cell, "golden", root), _linked(cell, "ascendc", root))


def linked_ticks(cell: Mapping[str, Any], root: Path, slot: str) -> dict[tuple, int | float] | None:
    """{shape: ticks} of the passing cases of the record the cell's ``evidence.<slot>`` links (None without)."""
    record = _linked(cell, slot, root)
    return None if record is None else _passing_ticks(record)


def per_shape_label(result: Mapping[str, Any] | None) -> str:
    """``C 0.82/1.10`` (worst / median) / ``C 0.46 < 0.7`` / ``C -``; empty without a reference record."""
    if not result:
        return ""
    if result["worst"] is None:
        return "C -"
    text = f"C {result['worst']:.2f}/{result['median']:.2f}"
    return text + (f" < {GATE}" if result["below_gate"] else "")
