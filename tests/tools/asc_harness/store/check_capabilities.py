"""check_capabilities: validate capabilities.yaml and cross-check it with evidence/ and the kernel files.

Checks, in order: the file parses; it matches the JSON Schema (every bad field is reported with its
exact path and line); structural rules (unique ids, id = op/dtype/platform, known tiers, operations and
platforms, statuses backed by evidence links); golden files exist and their literal OP, DTYPE, CASES
shapes, TOLERANCE and per-case tolerances agree with the cell (read with ``ast``, never imported);
every linked record exists, is valid, and belongs to the cell and slot; every record under the cell's
evidence directory is valid; and every status and link equals what sync_capabilities would compute.

Strict mode (default) fails on any disagreement. ``--soft-runtime`` reports status-vs-evidence
disagreements as ``[DRIFT]`` lines and still passes; structural errors fail in both modes.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

from tabulate import tabulate

from asc_harness.store.cli import add_cells_option, add_path_options, cell_patterns, make_parser, resolve_paths, run_main
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence import EvidenceError
from asc_harness.store.evidence_read import iter_records, load_record, records_for_cell
from asc_harness.store.kernelfile import read_kernel_file
from asc_harness.common.paths import to_repo_path
from asc_harness.store.registry import Registry, load_registry
from asc_harness.store.status import DEFAULT_K, DEFAULT_M, changes_for
from asc_harness.store.validation import format_path, line_of, to_plain

PROG = "check_capabilities"
EXIT_CODES = """\
  0  consistent (with --soft-runtime: drift is reported but allowed)
  1  inconsistent: schema, structure, file or evidence errors; in strict mode also any drift
  2  cannot run: the capabilities file is missing or unparsable, or a bad option"""


@dataclass
class Finding:
    level: str            # error | drift | warning
    cell: str | None
    path: str             # field path in capabilities.yaml, or a file path
    message: str
    line: int | None = None


def _parser():
    p = make_parser(PROG, __doc__, EXIT_CODES)
    add_path_options(p)
    add_cells_option(p)
    p.add_argument("--soft-runtime", action="store_true",
                   help="report status-vs-evidence drift as [DRIFT] warnings instead of failing")
    p.add_argument("--json", action="store_true", help="stable JSON output")
    p.add_argument("--k", type=int, default=DEFAULT_K, help=f"generative K of M rule, as for sync (default {DEFAULT_K})")
    p.add_argument("--m", type=int, default=DEFAULT_M, help=f"generative K of M rule, as for sync (default {DEFAULT_M})")
    return p


def _close(a: Any, b: Any) -> bool:
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=0.0)
    except (TypeError, ValueError):
        return False


def _shape_key(shape: Any) -> tuple:
    try:
        return tuple(int(x) for x in shape)
    except (TypeError, ValueError):
        return ("?",)


def check_golden_file(reg: Registry, idx: int, cell: dict) -> list[Finding]:
    """Compare a cell with the literal declarations of its golden kernel."""
    cid = cell["id"]
    rel = cell.get("golden")
    if not rel:
        return []
    path = reg.root / rel
    where = ["cells", idx, "golden"]
    line = line_of(reg.doc, where)
    out: list[Finding] = []

    def err(msg: str) -> None:
        out.append(Finding("error", cid, f"cells[{idx}].golden", msg, line))

    if not path.is_file():
        err(f"golden kernel not found: {rel}")
        return out
    kf = read_kernel_file(path)
    if kf.syntax_error:
        err(f"{rel}: cannot be parsed: {kf.syntax_error}")
        return out
    if not kf.has_golden_interface:
        err(f"{rel}: does not define the golden interface (missing {', '.join(kf.missing_interface)})")
        return out
    vals = kf.values
    for name in ("OP", "DTYPE", "TOLERANCE", "CASES"):
        if name not in vals:
            err(f"{rel}: {name} is not a literal module-level value ({kf.not_literal.get(name, 'not found')})")
    if "OP" in vals and vals["OP"] != cell["op"]:
        err(f"{rel}: OP is {vals['OP']!r} but the cell's op is {cell['op']!r}")
    if "DTYPE" in vals and vals["DTYPE"] != cell["dtype"]:
        err(f"{rel}: DTYPE is {vals['DTYPE']!r} but the cell's dtype is {cell['dtype']!r}")
    tol = vals.get("TOLERANCE")
    if "TOLERANCE" in vals:
        if not isinstance(tol, dict) or not {"atol", "rtol"} <= set(tol):
            err(f"{rel}: TOLERANCE must be a dict with atol and rtol")
            tol = None
        else:
            for key in ("atol", "rtol"):
                if not _close(tol[key], cell["tolerance"][key]):
                    err(f"{rel}: TOLERANCE {key}={tol[key]!r} but the cell says {cell['tolerance'][key]!r}")
    cases = vals.get("CASES")
    if "CASES" in vals:
        if not isinstance(cases, (list, tuple)) or not all(isinstance(c, dict) and "shape" in c for c in cases):
            err(f"{rel}: CASES must be a list of dicts with a shape")
            return out
        file_shapes = Counter(_shape_key(c["shape"]) for c in cases)
        cell_shapes = Counter(_shape_key(s) for s in cell["shapes"])
        if file_shapes != cell_shapes:
            only_file = sorted(file_shapes - cell_shapes)
            only_cell = sorted(cell_shapes - file_shapes)
            parts = []
            if only_file:
                parts.append("only in the file: " + ", ".join(str(list(s)) for s in only_file))
            if only_cell:
                parts.append("only in the registry: " + ", ".join(str(list(s)) for s in only_cell))
            err(f"{rel}: CASES shapes differ from the cell's shapes ({'; '.join(parts)})")
        overrides = {_shape_key(st["shape"]): st for st in cell.get("shape_tolerances", [])}
        if tol is not None:
            for c in cases:
                key = _shape_key(c["shape"])
                want = overrides.get(key, cell["tolerance"])
                for t in ("atol", "rtol"):
                    got = c.get(t, tol[t])
                    if not _close(got, want[t]):
                        err(f"{rel}: case {c.get('id', list(key))} uses {t}={got!r} but the registry says "
                            f"{want[t]!r} for shape {list(key)}")
    return out


def check_links(reg: Registry, idx: int, cell: dict, ev_dir: Path) -> list[Finding]:
    cid = cell["id"]
    out: list[Finding] = []
    ev_rel = to_repo_path(ev_dir, reg.root)
    links = [("golden", cell["evidence"]["golden"], ["evidence", "golden"])]
    links += [("generative", p, ["evidence", "generative", i]) for i, p in enumerate(cell["evidence"]["generative"])]
    links.append(("perf", cell["evidence"]["perf"], ["evidence", "perf"]))
    links.append(("ascendc", cell["evidence"].get("ascendc"), ["evidence", "ascendc"]))
    for slot, link, sub in links:
        if not link:
            continue
        path_parts = ["cells", idx] + sub
        fpath = format_path(path_parts)
        line = line_of(reg.doc, path_parts)

        def err(msg: str) -> None:
            out.append(Finding("error", cid, fpath, msg, line))

        if ev_rel is not None and not (link + "/").startswith(ev_rel.rstrip("/") + "/"):
            err(f"evidence link {link} is not inside the evidence directory {ev_rel}/")
            continue
        try:
            rec = load_record(reg.root / link)
        except EvidenceError as exc:
            err(str(exc).replace(str(reg.root) + "/", ""))
            continue
        if rec["cell"] != cid:
            err(f"{link} is a record for {rec['cell']}, not {cid}")
        expected_dir = f"{ev_rel}/{cid}/" if ev_rel is not None else None
        if expected_dir and not link.startswith(expected_dir):
            err(f"{link} is not stored under {expected_dir}")
        if slot in ("golden", "generative", "ascendc") and rec["kind"] != slot:
            err(f"{link} is a {rec['kind']} record, linked as {slot}")
        if slot == "perf" and rec["kind"] != "perf" and not any(c.get("ticks") is not None for c in rec["cases"]):
            err(f"{link} is a {rec['kind']} record without ticks, linked as perf")
    return out


def run_checks(reg: Registry, ev_dir: Path, patterns: list[str], *, k: int, m: int) -> tuple[list[Finding], list[dict]]:
    findings: list[Finding] = []
    schema = reg.schema_issues()
    for i in schema:
        findings.append(Finding("error", None, i.path, i.message, i.line))
    if schema:
        return findings, []
    for i in reg.structure_issues():
        findings.append(Finding("error", None, i.path, i.message, i.line))
    plain = to_plain(reg.doc)
    known = set()
    rows = []
    selected = [(i, c) for i, c in enumerate(plain["cells"]) if reg_matches(patterns, c["id"])]
    if patterns and not selected:
        raise HarnessError(f"no cell matches {', '.join(patterns)}")
    for idx, cell in selected:
        cid = cell["id"]
        known.add(cid)
        before = len(findings)
        findings += check_golden_file(reg, idx, cell)
        findings += check_links(reg, idx, cell, ev_dir)
        records = records_for_cell(ev_dir, cid, root=reg.root)
        for r in records:
            if r.error:
                findings.append(Finding("error", cid, to_repo_path(r.path, reg.root) or str(r.path),
                                        r.error.replace(str(reg.root) + "/", "")))
        for ch in changes_for(cell, [r for r in records if not r.error], k=k, m=m):
            sub = ch.field.split(".")
            line = line_of(reg.doc, ["cells", idx] + sub)
            findings.append(Finding("drift", cid, f"cells[{idx}].{ch.field}",
                                    f"{ch.field} is {_show(ch.current)} but the evidence says {_show(ch.expected)}"
                                    + (f" ({ch.reason})" if ch.reason and ch.field.endswith("_status") else ""),
                                    line))
        mine = findings[before:]
        rows.append({"cell": cid, "tier": reg.tier_of(cell["op"]), "golden": cell["golden_status"],
                     "generative": cell["generative_status"], "perf": cell["perf_status"],
                     "errors": sum(f.level == "error" for f in mine), "drift": sum(f.level == "drift" for f in mine)})
    if not patterns and ev_dir.is_dir():
        for r in iter_records(ev_dir, root=reg.root):
            cid = "/".join(r.path.relative_to(ev_dir).parts[:3])
            if cid not in known:
                findings.append(Finding("warning", None, to_repo_path(r.path, reg.root) or str(r.path),
                                        f"record for {cid}, which is not a cell in the registry"))
                known.add(cid)
    return findings, rows


def reg_matches(patterns: list[str], cid: str) -> bool:
    from asc_harness.store.registry import matches_any

    return matches_any(patterns, cid)


def _show(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, list):
        return "[" + ", ".join(map(str, v)) + "]"
    return repr(v) if isinstance(v, str) else str(v)


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.k < 1 or args.m < 1 or args.k > args.m:
        raise HarnessError(f"need 1 <= K <= M, got --k {args.k} --m {args.m}")
    cap, ev_dir, root = resolve_paths(args)
    patterns = cell_patterns(args)
    try:
        reg = load_registry(cap)
    except HarnessError as exc:
        if args.json:
            print(json.dumps({"status": "error", "error": str(exc)}, indent=2, sort_keys=True))
            return exc.exit_code
        raise
    findings, rows = run_checks(reg, ev_dir, patterns, k=args.k, m=args.m)
    errors = [f for f in findings if f.level == "error"]
    drift = [f for f in findings if f.level == "drift"]
    warnings = [f for f in findings if f.level == "warning"]
    failed = bool(errors) or (bool(drift) and not args.soft_runtime)
    mode = "soft-runtime" if args.soft_runtime else "strict"

    if args.json:
        def dump(fs):
            return sorted((asdict(f) for f in fs), key=lambda d: (d["cell"] or "", d["path"], d["message"]))
        print(json.dumps({"status": "fail" if failed else "pass", "mode": mode,
                          "capabilities": to_repo_path(cap, root) or str(cap),
                          "cells_checked": len(rows), "errors": dump(errors), "drift": dump(drift),
                          "warnings": dump(warnings), "cells": sorted(rows, key=lambda r: r["cell"])},
                         indent=2, sort_keys=True))
        return 1 if failed else 0

    if rows:
        table = [[r["cell"], r["tier"], r["golden"], r["generative"], r["perf"],
                  "ok" if not (r["errors"] or r["drift"]) else
                  ", ".join(x for x in (f"{r['errors']} error(s)" if r["errors"] else "",
                                        f"{r['drift']} drift" if r["drift"] else "") if x)] for r in rows]
        print(tabulate(table, headers=["cell", "tier", "golden", "generative", "perf", "check"], tablefmt="simple"))
        print()
    for f in errors:
        where = f"{cap.name}:{f.line}: " if f.line else ""
        print(f"[ERROR] {where}{f.path}: {f.message}")
    for f in drift:
        label = "DRIFT" if args.soft_runtime else "ERROR"
        print(f"[{label}] {f.cell}: {f.message}; run sync_capabilities")
    for f in warnings:
        print(f"[WARN] {f.path}: {f.message}")
    verdict = "FAIL" if failed else "PASS"
    print(f"{verdict} ({mode}): {len(rows)} cell(s) checked, {len(errors)} error(s), {len(drift)} drift, "
          f"{len(warnings)} warning(s)")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())
