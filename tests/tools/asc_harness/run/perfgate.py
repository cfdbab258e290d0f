"""The perf regression gate: modelled ticks of a golden run against the cell's last evidence.

Ticks are deterministic, so any case whose ticks grow by more than the tolerance (default 5 %) over the
last passing evidence record of its cell fails the gate. To accept an intended change (a kernel or tick
model change that makes a case slower on purpose), record new evidence for the cell in the same commit:
``run_kernel --evidence -v PLATFORM golden/kernels/FILE.py`` (or a nightly run); the new record is then
the one compared against.
"""
from __future__ import annotations

from pathlib import Path

from asc_harness.store.evidence_read import records_for_cell

TOLERANCE = 0.05


def last_ticks(ev_dir: Path, cell: str, root: Path, engine: str, kind: str = "golden") -> tuple[dict[str, int], str | None]:
    """Case id -> ticks of the newest passing, runtime-verified record of ``cell`` from ``engine``; the
    cell's Ascend C reference kernel (``kind="ascendc"``) is gated against its own records only, and the
    golden never against them."""
    for rec in reversed(records_for_cell(ev_dir, cell, root=root)):
        d = rec.data
        if not rec.valid or (d["kind"] == "ascendc") != (kind == "ascendc"):
            continue
        if d["status"] != "pass" or not d["runtime_verified"] or \
                (d.get("provenance") or {}).get("engine", "embedded") != engine:
            continue
        ticks = {c["id"]: c["ticks"] for c in d["cases"] if isinstance(c.get("ticks"), int)}
        if ticks:
            return ticks, rec.link
    return {}, None


def regressions(result: dict, baseline: dict[str, int], tolerance: float = TOLERANCE) -> list[str]:
    """One message per case of ``result`` whose ticks exceed its baseline by more than ``tolerance``."""
    out = []
    for c in result.get("cases", []):
        old, new = baseline.get(str(c.get("id"))), c.get("ticks")
        if isinstance(old, int) and old > 0 and isinstance(new, int) and new > old * (1.0 + tolerance):
            out.append(f"case {c['id']}: {new} ticks vs {old} in the last evidence (+{(new / old - 1) * 100:.1f}%, "
                       f"limit +{tolerance * 100:g}%)")
    return out
