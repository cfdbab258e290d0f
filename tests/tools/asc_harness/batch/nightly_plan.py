"""What a nightly runs: the registry's cells it selects (and why others are skipped), their order (longest
first, from the latest golden record) and the number of pytest-xdist workers."""

from __future__ import annotations

import os
from pathlib import Path

from asc_harness.common.errors import HarnessError
from asc_harness.store.validation import to_plain


def worker_count(requested: str, cells: int) -> int:
    text = str(requested).strip().lower()
    if text == "auto":
        try:
            n = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            n = os.cpu_count() or 1
    else:
        try:
            n = int(text)
        except ValueError:
            raise HarnessError(f"-n/--workers must be a number or 'auto', not {requested!r}") from None
        if n < 0:
            raise HarnessError("-n/--workers must be >= 0")
    return max(0, min(n, cells))


def select_cells(reg, patterns: list[str], platform: str | None) -> tuple[list[dict], dict[str, str]]:
    """(cells to run, {cell id: reason} for matching cells that are skipped)."""
    run, skipped = [], {}
    matched = 0
    for c in reg.iter_cells(patterns):
        cell = to_plain(c)
        if platform and cell["platform"] != platform:
            continue
        matched += 1
        cid = cell["id"]
        if cell["golden_status"] == "blocked":
            skipped[cid] = "golden_status is blocked (excluded by hand)"
        elif not cell.get("golden"):
            skipped[cid] = "no golden kernel"
        elif not (reg.root / cell["golden"]).is_file():
            raise HarnessError(f"the golden kernel of {cid} is missing: {cell['golden']} (restore the file, or "
                               "set golden: null / golden_status: blocked in capabilities.yaml)")
        else:
            run.append(cell)
    if not matched:
        what = ", ".join(patterns) if patterns else "the registry"
        raise HarnessError(f"no cell in {what}" + (f" on platform {platform}" if platform else ""))
    return run, skipped


def expected_duration(cell: dict, root: Path, ev_dir: Path) -> float:
    """Wall time of the cell's latest golden record (longest cells are started first)."""
    from asc_harness.store.evidence_read import records_for_cell

    try:
        recs = [r for r in records_for_cell(ev_dir, cell["id"], root=root) if r.valid and r.kind == "golden"]
    except Exception:  # noqa: BLE001 - only an ordering hint
        return 0.0
    return float(recs[-1].data.get("wall_time_s") or 0.0) if recs else 0.0
