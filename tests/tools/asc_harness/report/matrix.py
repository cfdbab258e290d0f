"""matrix: print the capability matrix grouped by tier.

One table per tier: a row per operation, a column per dtype (per dtype@platform when the registry has
more than one platform). Each entry shows the golden (G), generative (A, agent) and perf (P) status of
that cell, the perf status with the roofline efficiency recorded in its perf evidence; ``!`` marks a
status or link that differs from what the evidence says (run sync_capabilities); ``W n`` counts the launch
warnings of the golden evidence (the dashboard lists them on the cell's page). Cells with a run of
their Ascend C reference kernel show ``C worst/median`` = its ticks / the golden's ticks over the shapes
both ran, cells with camodel's figure of CANN's operator ``R`` = those ticks / the golden's ticks at
that shape; either is flagged ``< 0.7`` below the report-only perf gate.
"""

from __future__ import annotations

import json
import sys
from typing import Sequence

from tabulate import tabulate, tabulate_formats

from asc_harness.store.cli import add_cells_option, add_path_options, cell_patterns, make_parser, resolve_paths, run_main
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence_read import records_for_cell, require_valid_evidence
from asc_harness.run.reference import compare_from_links, label, per_shape_from_links, per_shape_label
from asc_harness.store.registry import load_valid_registry
from asc_harness.store.status import changes_for
from asc_harness.store.validation import to_plain

PROG = "matrix"
EXIT_CODES = """\
  0  the matrix was printed
  2  cannot run: missing or invalid capabilities file, a corrupt evidence record, bad option"""
DTYPE_ORDER = ["float16", "bfloat16", "float32", "int8", "uint8", "int16", "int32"]
SHORT = {"confirmed": "confirmed", "failing": "FAILING", "pending": "pending", "blocked": "blocked",
         "not_attempted": "-", "measured": "measured"}


def _parser():
    p = make_parser(PROG, __doc__, EXIT_CODES)
    add_path_options(p)
    add_cells_option(p)
    p.add_argument("--json", action="store_true", help="print the matrix as JSON")
    p.add_argument("--format", default="grid", metavar="FMT",
                   help="tabulate table format: grid (default), simple, github, pipe, plain, ...")
    return p


def _drift_fields(cell, ev_dir, root) -> tuple[set[str], float | None, int]:
    """The fields that differ from the evidence, the roofline efficiency of the cell's perf evidence
    (its largest case: the ticks its bytes or FLOPs need at the platform's rates over its ticks), and the
    launch warnings of its golden evidence (each case's distinct ones, as the dashboard counts them)."""
    records = records_for_cell(ev_dir, str(cell["id"]), root=root)  # all valid: checked up front
    drift = {c.field for c in changes_for(cell, records)}
    golden = (cell.get("evidence") or {}).get("golden")
    warned = sum(len(c.get("warnings") or []) for r in records if golden is not None and r.link == golden
                 for c in (r.data or {}).get("cases", []) if isinstance(c, dict))
    roof = None
    link = (cell.get("evidence") or {}).get("perf")
    for r in reversed(records):
        if link is None or r.link == link:
            cases = [c for c in (r.data or {}).get("cases", []) if isinstance(c.get("roofline"), (int, float))]
            if cases:
                roof = max(cases, key=lambda c: c.get("elements") or 0)["roofline"]
            break
    return drift, roof, warned


def _entry(cell, drift: set[str], roof: float | None = None, ref: dict | None = None,
           kernel_ref: dict | None = None, warned: int = 0) -> str:
    def mark(field: str) -> str:
        return " !" if field in drift or f"evidence.{field.split('_')[0]}" in drift else ""
    perf = f" {roof:.0%}" if roof is not None else ""
    lines = [f"G {SHORT.get(cell['golden_status'], cell['golden_status'])}{mark('golden_status')}",
             f"A {SHORT.get(cell['generative_status'], cell['generative_status'])}{mark('generative_status')}",
             f"P {SHORT.get(cell['perf_status'], cell['perf_status'])}{perf}{mark('perf_status')}"]
    lines += [f"W {warned} launch warning{'s' if warned != 1 else ''}"] if warned else []
    return "\n".join(lines + ([per_shape_label(kernel_ref)] if kernel_ref else []) + ([label(ref)] if ref else []))


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.format not in tabulate_formats:
        raise HarnessError(f"--format {args.format!r}: not a table format; choose from {', '.join(tabulate_formats)}")
    cap, ev_dir, root = resolve_paths(args, need_evidence_inside=False)
    patterns = cell_patterns(args)
    reg = load_valid_registry(cap)
    require_valid_evidence(ev_dir, root=root)
    doc = to_plain(reg.doc)
    multi_platform = len(doc["platforms"]) > 1
    cells = [to_plain(c) for c in reg.iter_cells(patterns)]
    looked = {c["id"]: _drift_fields(c, ev_dir, root) for c in cells}
    drift = {k: v[0] for k, v in looked.items()}
    roof = {k: v[1] for k, v in looked.items()}
    warned = {k: v[2] for k, v in looked.items()}
    refs = {c["id"]: compare_from_links(c, root) for c in cells}
    kernel_refs = {c["id"]: per_shape_from_links(c, root) for c in cells}
    op_tier = {o["name"]: o["tier"] for o in doc["operations"]}
    op_order = [o["name"] for o in doc["operations"]]

    def column(c):
        return f"{c['dtype']}@{c['platform']}" if multi_platform else c["dtype"]

    def col_key(name):
        dt = name.split("@")[0]
        return (DTYPE_ORDER.index(dt) if dt in DTYPE_ORDER else len(DTYPE_ORDER), name)

    if args.json:
        out = []
        for t in sorted(doc["tiers"], key=lambda t: t["id"]):
            ops = []
            for op in op_order:
                if op_tier[op] != t["id"]:
                    continue
                entries = {column(c): {"cell": c["id"], "golden_status": c["golden_status"],
                                       "generative_status": c["generative_status"], "perf_status": c["perf_status"],
                                       "roofline": roof[c["id"]], "drift": sorted(drift[c["id"]]),
                                       "launch_warnings": warned[c["id"]],
                                       "ascend_c": refs[c["id"]], "reference": kernel_refs[c["id"]]}
                           for c in cells if c["op"] == op}
                if entries:
                    ops.append({"op": op, "cells": entries})
            out.append({"tier": t["id"], "name": t["name"], "operations": ops})
        print(json.dumps({"tiers": out}, indent=2, sort_keys=True))
        return 0

    printed = 0
    for t in sorted(doc["tiers"], key=lambda t: t["id"]):
        tier_cells = [c for c in cells if op_tier.get(c["op"]) == t["id"]]
        if not tier_cells:
            continue
        cols = sorted({column(c) for c in tier_cells}, key=col_key)
        rows = []
        for op in op_order:
            op_cells = {column(c): c for c in tier_cells if c["op"] == op}
            if op_cells:
                rows.append([op] + [_entry(op_cells[k], drift[op_cells[k]["id"]], roof[op_cells[k]["id"]],
                                           refs[op_cells[k]["id"]], kernel_refs[op_cells[k]["id"]],
                                           warned[op_cells[k]["id"]])
                                    if k in op_cells else "" for k in cols])
        confirmed = sum(c["golden_status"] == "confirmed" for c in tier_cells)
        gen = sum(c["generative_status"] == "confirmed" for c in tier_cells)
        perf = sum(c["perf_status"] == "measured" for c in tier_cells)
        n = len(tier_cells)
        desc = f" - {t['description']}" if t.get("description") else ""
        print(f"Tier {t['id']}: {t['name']}{desc}")
        print(f"golden {confirmed}/{n} confirmed, generative {gen}/{n} confirmed, perf {perf}/{n} measured")
        print(tabulate(rows, headers=["op"] + cols, tablefmt=args.format, disable_numparse=True))
        print()
        printed += 1
    if not printed:
        print("no cells" + (f" match {', '.join(patterns)}" if patterns else ""))
        return 0
    print("G golden, A generative, P perf (with the largest case's roofline efficiency: the ticks its bytes or "
          "FLOPs need at the platform's rates over its modelled ticks); - not attempted; ! differs from the "
          "evidence (run sync_capabilities); W the launch warnings its golden evidence recorded")
    print("C the Ascend C reference kernel's ticks / golden ticks, worst/median over the shapes; R camodel's ticks of "
          "CANN's operator / golden ticks at its shape (> 1: the golden is faster; < 0.7 flagged)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())
