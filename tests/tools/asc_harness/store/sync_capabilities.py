"""sync_capabilities: compute the statuses and evidence links in capabilities.yaml from evidence/.

Statuses are never edited by hand: this tool derives them from the records (rules below) and edits the
file in place with a round-trip YAML writer, so comments, key order and formatting are preserved.
If a status field or evidence link has uncommitted local edits (it differs from ``HEAD``) that the
sync would overwrite, the tool refuses unless ``--force``: evidence wins, but not silently. (A field
counts as hand-edited when it differs from HEAD and its status is not what its own evidence link
implies; uncommitted output of an earlier sync does not count.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Sequence

from asc_harness.store.cli import add_cells_option, add_path_options, cell_patterns, make_parser, resolve_paths, run_main
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence_read import records_for_cell
from asc_harness.store.registry import load_valid_registry, parse_registry_text
from asc_harness.store.status import (DEFAULT_K, DEFAULT_M, Change, apply_change, changes_for, current_values, dimension_of,
                     self_consistent)
from asc_harness.store.validation import to_plain

PROG = "sync_capabilities"
EXIT_CODES = """\
  0  the file is in sync (or was updated; or --dry-run)
  1  --check: the file is out of sync; or the sync would overwrite uncommitted local edits (use --force)
  2  cannot run: missing or invalid capabilities file, unreadable evidence records, bad option"""

RULES = """
rules:
  golden      latest runtime-verified golden record: pass -> confirmed, fail/error/timeout -> failing;
              static-only, skipped and partial (--quick) passing runs never count
  generative  >= K of the last M runtime-verified attempts pass -> confirmed, otherwise pending
  perf        a passing perf record, or a passing run with ticks -> measured
  blocked     never touched; cells without counting evidence keep pending / not_attempted
"""


def _parser():
    p = make_parser(PROG, __doc__ + RULES, EXIT_CODES)
    add_path_options(p)
    add_cells_option(p)
    p.add_argument("--k", type=int, default=DEFAULT_K, help=f"passes needed for generative confirmed (default {DEFAULT_K})")
    p.add_argument("--m", type=int, default=DEFAULT_M, help=f"window of recent attempts (default {DEFAULT_M})")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="print the changes, write nothing")
    mode.add_argument("--check", action="store_true", help="exit 1 if the file is out of sync, write nothing")
    p.add_argument("--force", action="store_true", help="overwrite uncommitted local edits to status fields")
    p.add_argument("--json", action="store_true", help="print the changes as JSON")
    return p


def committed_cells(cap_path: Path) -> dict[str, dict] | None:
    """Cells of ``capabilities.yaml`` as committed at HEAD, by id; None when that cannot be determined."""
    try:
        import git

        repo = git.Repo(cap_path.resolve().parent, search_parent_directories=True)
        rel = cap_path.resolve().relative_to(Path(repo.working_tree_dir).resolve()).as_posix()
        text = repo.git.show(f"HEAD:{rel}")
    except Exception:  # not in git, no commits, file not committed yet
        return None
    try:
        doc = to_plain(parse_registry_text(text, Path(f"HEAD:{cap_path.name}")))
    except HarnessError:
        return None
    out = {}
    for c in doc.get("cells") or []:
        if isinstance(c, dict) and "id" in c:
            out[str(c["id"])] = c
    return out


def stale_conflicts(changes: list[Change], working: dict[str, dict], head: dict[str, dict] | None,
                    records: dict[str, list], *, k: int) -> list[str]:
    """Changes that would overwrite an uncommitted hand edit.

    A field counts as hand-edited when its working-tree value differs from HEAD and its dimension
    (status + evidence link) is not self-consistent, i.e. the status is not what its own linked
    evidence implies. Uncommitted results of an earlier sync are always self-consistent, so running
    sync twice before committing is fine.
    """
    if head is None:
        return []
    out = []
    for ch in changes:
        base = head.get(ch.cell)
        if base is None:
            continue  # a new cell: nothing committed to protect
        committed = current_values(base)[ch.field]
        local_values = current_values(working[ch.cell])
        local = local_values[ch.field]
        if committed == local:
            continue
        if self_consistent(local_values, dimension_of(ch.field), records.get(ch.cell, []), k=k):
            continue
        out.append(f"{ch.cell}: {ch.field} was edited locally ({_show(committed)} at HEAD, {_show(local)} "
                   f"now); evidence says {_show(ch.expected)}")
    return out


def _show(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, list):
        return "[" + ", ".join(v) + "]" if v else "[]"
    return str(v)


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.k < 1 or args.m < 1 or args.k > args.m:
        raise HarnessError(f"need 1 <= K <= M, got --k {args.k} --m {args.m}")
    cap, ev_dir, root = resolve_paths(args)
    patterns = cell_patterns(args)
    reg = load_valid_registry(cap, status_rules=False)

    changes: list[Change] = []
    bad: list[str] = []
    by_cell: dict[str, list] = {}
    selected = list(reg.iter_cells(patterns))
    if patterns and not selected:
        raise HarnessError(f"no cell matches {', '.join(patterns)}")
    for cell in selected:
        records = records_for_cell(ev_dir, str(cell["id"]), root=root)
        by_cell[str(cell["id"])] = records
        bad += [r.error for r in records if r.error]
        changes += changes_for(to_plain(cell), records, k=args.k, m=args.m)
    if bad:
        more = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
        raise HarnessError(f"corrupt evidence ({len(bad)} record(s)); fix or remove them, then re-run: "
                           + "; ".join(bad[:3]) + more)

    working = {str(c["id"]): to_plain(c) for c in reg.cells}
    conflicts = [] if args.check else stale_conflicts(changes, working, committed_cells(cap), by_cell, k=args.k)

    if args.json:
        print(json.dumps({"capabilities": str(cap), "in_sync": not changes,
                          "changes": [{"cell": c.cell, "field": c.field, "current": c.current,
                                       "expected": c.expected, "reason": c.reason} for c in changes],
                          "local_edit_conflicts": conflicts}, indent=2))
    else:
        for c in changes:
            print(f"  {c.cell}: {c.field}: {_show(c.current)} -> {_show(c.expected)}"
                  + (f"  ({c.reason})" if c.reason and c.field.endswith("_status") else ""))

    if not changes:
        if not args.json:
            print(f"{cap.name} is in sync with the evidence ({len(selected)} cell(s) checked)")
        return 0
    ncells = len({c.cell for c in changes})
    if args.check:
        if not args.json:
            print(f"{cap.name} is out of sync: {len(changes)} change(s) in {ncells} cell(s); run {PROG}")
        return 1
    if conflicts and not args.force:
        msg = ("refusing to overwrite uncommitted local edits to status fields (commit or revert them, or "
               "re-run with --force):\n  " + "\n  ".join(conflicts))
        if args.dry_run:
            if not args.json:
                print(f"note: without --force the sync would refuse: {msg}")
        else:
            print(f"{PROG}: {msg}", file=sys.stderr)
            return 1
    if args.dry_run:
        if not args.json:
            print(f"dry run: {len(changes)} change(s) in {ncells} cell(s) would be written to {cap}")
        return 0
    for c in changes:
        apply_change(reg.cell(c.cell), c)
    reg.save()
    if not args.json:
        print(f"updated {cap}: {len(changes)} change(s) in {ncells} cell(s)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())
