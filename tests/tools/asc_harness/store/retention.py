"""Evidence retention: the working tree keeps, per cell and record kind, the records ``capabilities.yaml``
links and the latest :data:`KEEP_LATEST`; older records and the trace files only they refer to leave
the tree (git history keeps them).

Why that is safe: the status rules (:mod:`asc_harness.store.status`) decide each dimension from the latest
counting records, and those are exactly the ones a synced registry links (the latest counting golden
run, the last M counting generative attempts, the latest record with ticks). A record older than a
linked one of its kind can no longer decide anything, so syncing and checking the pruned tree gives
the same statuses and links. Prune only cells whose links were synced from the present records.

Only records git has (tracked in the index) are pruned: a record no commit holds yet, such as one
this run wrote, stays. Records that cannot be read are never pruned (``check_capabilities`` reports
them), nor the traces of their cell. Command line:
``python -m asc_harness.store.retention [--keep N] [--dry-run] [--cells PATTERN]`` prunes the working tree
after checking that ``capabilities.yaml`` is in sync.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Sequence

from asc_harness.store.evidence_read import iter_records

KEEP_LATEST = 3  # per cell and kind, besides the linked records: covers the default 3-attempt window


def linked_paths(cell: dict, root: Path) -> set[Path]:
    ev = cell.get("evidence") or {}
    links = [ev.get("golden"), ev.get("perf"), ev.get("ascendc"), *(ev.get("generative") or [])]
    return {(root / link).resolve() for link in links if link}


def tracked_files(root: Path, ev_dir: Path) -> set[Path]:
    """The files under ``ev_dir`` that git tracks (none outside a git work tree)."""
    proc = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--full-name", "--", str(ev_dir)],
                          capture_output=True)
    if proc.returncode != 0:
        return set()
    top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    base = Path(top.stdout.strip())
    return {(base / name).resolve() for name in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if name}


def plan_cell(cell: dict, ev_dir: Path, root: Path, keep: int = KEEP_LATEST,
              tracked: set[Path] | None = None) -> tuple[list[Path], list[Path]]:
    """(record files to remove, trace files to remove) for one cell (a plain registry cell); only
    files in ``tracked`` (default: what git tracks) are removed."""
    tracked = tracked_files(root, ev_dir) if tracked is None else tracked
    linked = linked_paths(cell, root)
    by_kind: dict[str, list] = {}
    unreadable = []
    for rec in iter_records(ev_dir, root=root, cell=str(cell["id"])):  # oldest first
        if rec.valid:
            by_kind.setdefault(rec.kind, []).append(rec)
        else:
            unreadable.append(rec)
    kept, dropped = [], []
    for recs in by_kind.values():
        for i, rec in enumerate(recs):
            latest = i >= len(recs) - keep
            stays = latest or rec.path.resolve() in linked or rec.path.resolve() not in tracked
            (kept if stays else dropped).append(rec)
    if not dropped:
        return [], []
    cell_dir = dropped[0].path.parent
    still_used = {(rec.path.parent / t).resolve() for rec in kept for t in _traces(rec.data)}
    still_used |= {p.resolve() for rec in unreadable for p in (rec.path.parent / "traces").rglob("*")} \
        if unreadable else set()  # an unreadable record might refer to any trace: keep them all
    traces = sorted({(rec.path.parent / t).resolve() for rec in dropped for t in _traces(rec.data)} - still_used)
    traces = [t for t in traces if t.is_file() and t in tracked and cell_dir.resolve() in t.parents]
    return [rec.path for rec in dropped], traces


def _traces(record: dict) -> Iterable[str]:
    for case in record.get("cases") or []:
        yield from (t for t in case.get("trace") or [] if isinstance(t, str))


def prune(cells: Iterable[dict], ev_dir: Path, root: Path, keep: int = KEEP_LATEST, *,
          dry_run: bool = False) -> list[Path]:
    """Remove what :func:`plan_cell` names for every cell; returns the removed files (records, traces)."""
    removed: list[Path] = []
    tracked = tracked_files(root, ev_dir)
    for cell in cells:
        records, traces = plan_cell(cell, ev_dir, root, keep, tracked)
        for path in [*traces, *records]:
            if not dry_run:
                path.unlink(missing_ok=True)
            removed.append(path)
        if not dry_run:
            for path in traces:  # a trace folder of removed records only is removed with them
                _remove_empty_dirs(path.parent, stop=ev_dir)
    return removed


def _remove_empty_dirs(directory: Path, *, stop: Path) -> None:
    directory, stop = directory.resolve(), stop.resolve()
    while directory != stop and stop in directory.parents:
        try:
            directory.rmdir()
        except OSError:  # not empty (or gone): done
            return
        directory = directory.parent


def _main(argv: Sequence[str] | None) -> int:
    from asc_harness.store.cli import add_cells_option, add_path_options, cell_patterns, make_parser, resolve_paths
    from asc_harness.common.errors import HarnessError
    from asc_harness.store.registry import load_valid_registry
    from asc_harness.store.sync_capabilities import main as sync_main
    from asc_harness.store.validation import to_plain

    p = make_parser("python -m asc_harness.store.retention", "Remove the evidence records (and their traces) that "
                    "capabilities.yaml does not link and that are older than the latest N per cell and kind.",
                    "  0  pruned (or nothing to prune)\n  2  cannot run (capabilities.yaml out of sync, bad option)",
                    statuses=False)
    add_path_options(p)
    add_cells_option(p)
    p.add_argument("--keep", type=int, default=KEEP_LATEST, metavar="N",
                   help=f"latest records kept per cell and kind besides the linked ones (default {KEEP_LATEST})")
    p.add_argument("--dry-run", action="store_true", help="list what would be removed, remove nothing")
    args = p.parse_args(argv)
    if args.keep < 1:
        raise HarnessError("--keep must be >= 1")
    cap, ev_dir, root = resolve_paths(args)
    patterns = cell_patterns(args)
    paths = ["--capabilities", str(cap), "--evidence-dir", str(ev_dir), "--check"]
    if sync_main(paths + (["--cells", ",".join(patterns)] if patterns else [])) != 0:
        raise HarnessError(f"{cap.name} is not in sync with the evidence: run sync_capabilities first (pruning "
                           "keeps the linked records, so the links must be current)")
    reg = load_valid_registry(cap)
    removed = prune([to_plain(c) for c in reg.iter_cells(patterns)], ev_dir, root, args.keep, dry_run=args.dry_run)
    for path in removed:
        print(("would remove " if args.dry_run else "removed ") + os.path.relpath(path, root))
    print(f"{len(removed)} file(s) {'to remove' if args.dry_run else 'removed'} (keeping the linked records and "
          f"the latest {args.keep} per cell and kind)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from asc_harness.store.cli import run_main

    return run_main(_main, argv, "retention")


if __name__ == "__main__":
    sys.exit(main())
