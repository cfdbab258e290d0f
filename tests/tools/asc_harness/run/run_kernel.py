"""run_kernel: run kernel files in a sandbox and report per-case results.

Files with the golden interface (OP, DTYPE, TOLERANCE, CASES, make_inputs, launch, reference) are run
case by case with a harness-owned comparison (max abs/rel error, mismatches, ticks). Other files run as
``python FILE -r BACKEND -v PLATFORM`` and are judged by their exit code. ``--cells PATTERN`` runs the
golden kernels of the matching registry cells (each on its cell's platform), ``--ascendc`` their Ascend C
reference kernels (golden/ascendc/) instead. With ``--evidence`` every run is recorded under evidence/ for
the cell whose golden kernel the file is (kind golden) or whose Ascend C reference it is (kind ascendc).
Each case's launch warnings (the engine's ``asc.KernelWarning`` kinds) are printed under its table row;
``--strict-warnings`` fails a file whose run warns.

When the cell is known (``--cells``, ``--evidence``, ``--perf-gate``), the column ``C/ours`` is the cell's
Ascend C reference ticks over the golden's ticks at the case's shape (> 1: the golden is faster; the
other side comes from the cell's linked evidence record).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Sequence

from tabulate import tabulate

from asc_harness.store.cli import add_cells_option, add_path_options, cell_patterns, make_parser, resolve_paths, run_main
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence import build_record, write_record
from asc_harness.common.paths import to_repo_path
from asc_harness.run.perfgate import last_ticks, regressions
from asc_harness.run.reference import GATE, linked_ticks
from asc_harness.store.registry import load_valid_registry
from asc_harness.run import sandbox
from asc_harness.run.engines import DEFAULT_PLATFORM, ENGINES, check_platform, interpreter_for
from asc_harness.run.runner import BACKENDS, DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S, check_declared, run_file

PROG = "run_kernel"
EXIT_CODES = """\
  0  every file passed (or was skipped entirely by --quick)
  1  at least one file failed (fail / error / timeout, or a launch warning with --strict-warnings)
  2  cannot run: unknown flag, missing file, unknown platform, engine not configured (PYASC_PYTHON),
     invalid capabilities file, a file that is not any cell's golden with --evidence
failure categories: compile_error, numeric_mismatch, runtime_error, timeout, memory, infrastructure"""


def _parser():
    p = make_parser(PROG, __doc__, EXIT_CODES)
    p.add_argument("files", nargs="*", metavar="FILE", help="kernel files to run")
    p.add_argument("-r", "--backend", choices=BACKENDS, default="Model", help="backend (default Model)")
    p.add_argument("-v", "--platform", default=DEFAULT_PLATFORM, help=f"platform (default {DEFAULT_PLATFORM})")
    p.add_argument("--engine", choices=ENGINES, default="embedded",
                   help="embedded: this environment's compiler; pyasc: the interpreter in $PYASC_PYTHON")
    p.add_argument("--evidence", action="store_true",
                   help="write one evidence record per file (kind golden, or ascendc for a cell's Ascend C reference)")
    p.add_argument("--ascendc", action="store_true",
                   help="with --cells: run the cells' Ascend C reference kernels (golden/ascendc/) instead of their goldens")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON instead of tables")
    p.add_argument("--quick", action="store_true", help="skip cases marked full_only")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                   help=f"wall-clock limit per file in seconds (default {DEFAULT_TIMEOUT_S:g})")
    p.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="N",
                   help=f"address-space limit per run in MiB, 0 for none (default {DEFAULT_MEMORY_MB})")
    p.add_argument("--show-output", action="store_true", help="print each run's captured stdout/stderr")
    p.add_argument("--perf-gate", action="store_true",
                   help="fail a golden file whose case ticks exceed its cell's last evidence by more than 5%% "
                        "(accept an intended change by recording new evidence: --evidence)")
    p.add_argument("--strict-warnings", action="store_true",
                   help="fail a file whose run warns (a launch warning of any case: the goldens run warning-free)")
    p.add_argument("--trace", metavar="DIR", help="write a Chrome trace-event JSON per launch (embedded engine) "
                   "into DIR/<kernel file stem>/ (open in Perfetto UI or chrome://tracing)")
    add_path_options(p)
    add_cells_option(p)
    return p


def _fmt(x, spec=".3g"):
    if x is None:
        return "-"
    if isinstance(x, float):
        return format(x, spec)
    return str(x)


def _ratio_value(c, other: dict | None, is_reference: bool) -> float | None:
    """Reference ticks / golden ticks at the case's shape (None without both)."""
    if other is None:
        return None
    theirs, ours = other.get(tuple(c.get("shape") or [])), c.get("ticks")
    if c.get("status") != "pass" or not isinstance(ours, (int, float)) or not theirs or not ours:
        return None
    return round(ours / theirs if is_reference else theirs / ours, 4)


def _ratio(c, other: dict | None, is_reference: bool) -> str:
    """The ratio for the table, ``<`` marking one below the report-only gate."""
    ratio = _ratio_value(c, other, is_reference)
    return "-" if ratio is None else f"{ratio:.2f}" + (" <" if ratio < GATE else "")


def _case_rows(cases, other=None, is_reference=False):
    rows = []
    for c in cases:
        mism = "-" if c.get("mismatches") is None else f"{c['mismatches']}/{c.get('elements') or 0}"
        rows.append([c["id"], "x".join(map(str, c.get("shape") or [])) or "-", c["status"],
                     _fmt(c.get("max_abs_err")), _fmt(c.get("max_rel_err")), mism, _fmt(c.get("atol")),
                     _fmt(c.get("rtol")), _fmt(c.get("ticks")), _ratio(c, other, is_reference),
                     _fmt(c.get("wall_s"), ".3f")])
    return rows


def case_warnings(result: dict) -> int:
    """How many launch warnings the run's cases have."""
    return sum(len(c.get("warnings") or ()) for c in result["cases"])


def warning_text(w: dict) -> str:
    """A case's launch warning as Python prints it: ``file:line: Kind: message``."""
    return (f"{w['where']}: " if w.get("where") else "") + f"{w['kind']}: {w['message']}"


def _print_human(display: str, result: dict, cell: str | None, evidence_path: str | None, show_output: bool,
                 other: dict | None = None, is_reference: bool = False):
    engine = result["engine"] + (f" {result['engine_version']}" if result.get("engine_version") else "")
    label = cell or (f"{result['op']}/{result['dtype']}" if result.get("op") else result["mode"] + " file")
    print(f"{display}  [{label}]  {engine}  {result['backend']}/{result['platform']}")
    if result["cases"]:
        headers = ["case", "shape", "status", "max_abs_err", "max_rel_err", "mismatches", "atol", "rtol",
                   "ticks", "C/ours", "wall_s"]
        table = tabulate(_case_rows(result["cases"], other, is_reference), headers=headers, tablefmt="simple",
                         disable_numparse=True).splitlines()
        print("\n".join(table[:2]))
        for row, c in zip(table[2:], result["cases"]):   # each case's warnings under its row
            print(row)
            for w in c.get("warnings") or ():
                print(f"  warning: {warning_text(w)}")
    counts = {}
    for c in result["cases"]:
        counts[c["status"]] = counts.get(c["status"], 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in counts.items()) or "no cases"
    warned = case_warnings(result)
    if warned:
        summary += f"; {warned} warning(s)"
    print(f"{result['status'].upper()}  ({summary}; {result['wall_time_s']:.2f} s)")
    if result.get("failure"):
        msg = result["failure"]["message"].rstrip().replace("\n", "\n    ")
        print(f"  {result['failure']['category']}: {msg}")
    for c in result["cases"]:
        if c["status"] in ("error", "fail", "timeout") and c.get("message") and result.get("failure") \
                and c["message"] not in result["failure"]["message"]:
            print(f"  case {c['id']}: " + c["message"].rstrip().replace("\n", "\n    "))
    if evidence_path:
        print(f"  evidence: {evidence_path}")
    if "traces" in result:
        where = os.path.dirname(result["traces"][0]) if result["traces"] else None
        print(f"  traces: {len(result['traces'])} launch trace(s)" + (f" in {where}" if where else ""))
    if show_output:
        for name in ("stdout", "stderr"):
            if result.get(name):
                print(f"  --- {name} ---")
                print(result[name].rstrip())
    print()


def _jobs(args) -> tuple[list[tuple[Path, str, dict | None, str]], object, Path | None]:
    """(file, platform, cell or None, kind) for every run requested, the registry and the evidence dir;
    kind is ``ascendc`` for a cell's Ascend C reference kernel, else ``golden``."""
    files = [Path(f) for f in args.files]
    for f in files:
        if not f.exists():
            raise HarnessError(f"kernel file not found: {f}")
        if not f.is_file():
            raise HarnessError(f"not a file: {f}")
    patterns = cell_patterns(args)
    if not files and not patterns:
        raise HarnessError("nothing to run: give kernel FILEs and/or --cells PATTERN")
    if args.ascendc and not patterns:
        raise HarnessError("--ascendc selects the Ascend C reference kernels of --cells PATTERN; give --cells "
                           "(a reference kernel FILE runs as it is)")
    reg = ev_dir = None
    if args.evidence or patterns or args.perf_gate:
        cap, ev_dir, _root = resolve_paths(args)
        reg = load_valid_registry(cap)
    jobs: list[tuple[Path, str, dict | None, str]] = []
    for f in files:
        cell = None
        kind = "golden"
        if args.evidence or args.perf_gate:
            matches = [c for c in reg.cells_for_file(f) if str(c["platform"]) == args.platform]
            if not matches:
                matches = [c for c in reg.cells_for_file(f, "ascendc") if str(c["platform"]) == args.platform]
                kind = "ascendc" if matches else kind
            if not matches and args.perf_gate and not args.evidence:
                raise HarnessError(f"{f} is not the golden kernel of any cell on platform {args.platform} in "
                                   f"{reg.path}; there is no evidence to gate its ticks against")
            if not matches:
                raise HarnessError(f"{f} is not the golden kernel or Ascend C reference of any cell on platform "
                                   f"{args.platform} in {reg.path}; cannot write evidence for it")
            cell = matches[0]
        jobs.append((f, args.platform, cell, kind))
    if patterns:
        selected = list(reg.iter_cells(patterns))
        if not selected:
            raise HarnessError(f"no cell matches {', '.join(patterns)}")
        kind = "ascendc" if args.ascendc else "golden"
        if args.ascendc:
            selected = [c for c in selected if c.get("ascendc")]
            if not selected:
                raise HarnessError(f"no cell matching {', '.join(patterns)} has an Ascend C reference kernel "
                                   "(the cell's ascendc: field)")
        for c in selected:
            rel = c.get(kind)
            path = reg.root / str(rel) if rel else None
            what = "golden kernel" if kind == "golden" else "Ascend C reference kernel"
            if path is None:
                raise HarnessError(f"cell {c['id']} has no {what} to run")
            if not path.is_file():
                raise HarnessError(f"{what} of {c['id']} not found: {rel}")
            jobs.append((path, str(c["platform"]), c, kind))
    return jobs, reg, ev_dir


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.timeout <= 0:
        raise HarnessError("--timeout must be positive")
    if args.memory_mb < 0:
        raise HarnessError("--memory-mb must be >= 0")
    if args.trace and os.path.exists(args.trace) and not os.path.isdir(args.trace):
        raise HarnessError(f"--trace {args.trace}: exists and is not a directory")
    jobs, reg, ev_dir = _jobs(args)
    interpreter_for(args.engine)  # a missing engine is one error up front, not one per file
    for platform in sorted({p for _f, p, _c, _k in jobs}):
        check_platform(args.engine, platform)
    sandbox.require_confinement()
    note = sandbox.confinement_note()
    if note:
        print(note, file=sys.stderr)
    failed = 0
    out = []
    for f, platform, cell, kind in jobs:
        trace_dir = Path(args.trace) / f.stem if args.trace else None
        result = run_file(f, engine=args.engine, backend=args.backend, platform=platform,
                          timeout_s=args.timeout, memory_mb=args.memory_mb or None, quick=args.quick,
                          trace_dir=trace_dir)
        evidence_rel = None
        slower = []
        if cell is not None and args.perf_gate:
            baseline, link = last_ticks(ev_dir, str(cell["id"]), reg.root, args.engine, kind)
            slower = [f"{m} ({link})" for m in regressions(result, baseline)]
        if cell is not None and args.evidence:
            check_declared(result, cell)
            record = build_record(result, cell=str(cell["id"]), kind=kind, root=reg.root, kernel=f)
            written = write_record(record, ev_dir)
            evidence_rel = to_repo_path(written, reg.root)
        strict = args.strict_warnings and case_warnings(result) > 0
        if result["status"] not in ("pass", "skipped") or slower or strict:
            failed += 1
        # the other side of the reference / golden ratio: the cell's linked record of the other kind
        other = linked_ticks(cell, reg.root, "golden" if kind == "ascendc" else "ascendc") if cell is not None else None
        rel = os.path.relpath(f)
        display = rel if not rel.startswith("..") else str(f)
        if args.json:
            item = {k: v for k, v in result.items() if k not in ("stdout", "stderr", "sandbox_dirs")}
            item["cell"] = str(cell["id"]) if cell is not None else None
            item["evidence"] = evidence_rel
            item["perf_regressions"] = slower
            item["strict_warnings_failed"] = strict
            item["kind"] = kind
            item["reference_ratios"] = {c["id"]: _ratio_value(c, other, kind == "ascendc") for c in result["cases"]}
            if args.show_output:
                item["stdout"], item["stderr"] = result["stdout"], result["stderr"]
            out.append(item)
        else:
            _print_human(display, result, str(cell["id"]) if cell is not None else None, evidence_rel,
                         args.show_output, other, kind == "ascendc")
            for m in slower:
                print(f"PERF REGRESSION  {m}")
            if strict:
                print(f"WARNINGS  {case_warnings(result)} launch warning(s) with --strict-warnings")
            if slower or strict:
                print()
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
    elif len(jobs) > 1:
        print(f"{len(jobs) - failed} of {len(jobs)} file(s) passed")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())
