"""Perf against hand-written Ascend C: a cell's ``reference`` (the modelled ticks of the ``aclnn*``
operator at one shape on the cell's platform) against the golden's ticks at that shape.

``ratio = reference ticks / golden ticks`` (> 1: the golden is faster); cells below ``GATE`` are
flagged, as the reference harness's report-only perf gate does. The golden's ticks come from the
cell's linked golden evidence record (the case whose shape is the reference shape).
"""

from __future__ import annotations

import json
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
