"""nightly: run every golden cell, record evidence, sync the statuses, render the dashboard, print the matrix.

A cell with an Ascend C reference kernel (``ascendc:`` in capabilities.yaml) also runs that kernel, in
the same sandboxed task, as its own evidence kind (``ascendc``): sync links it, and the dashboard and the
matrix compare its ticks with the golden's shape by shape; it never decides the cell's statuses. (On a
``--scheduler`` cluster it is a task of its own.)

Every golden cell of capabilities.yaml (or those matching ``--cells``) runs as one pytest item, so
pytest-xdist spreads the cells over the cores (``-n auto``, the default; ``-n 0`` runs them in this
process). Each cell runs sandboxed (bubblewrap: read-only file system, no network, every descendant
dies with the cell) with one time budget (``--timeout``, seconds per cell) and one address-space limit
(``--memory-mb``); a cell that hangs, crashes or runs out of memory is recorded as such and costs only
that cell. Every cell run writes one evidence record. Then ``sync_capabilities`` derives the
statuses, the dashboard is rendered (``--no-dashboard`` to skip) and the matrix is printed.

The run's state is kept in a run directory (default ``.nightly/`` next to capabilities.yaml, file
``state.json``, written atomically after every cell). An interrupted nightly continues with
``--resume`` without redoing finished cells.

``--commit`` commits the evidence records this run wrote and capabilities.yaml (nothing else) with
GitPython, after rebasing onto the branch's upstream head (``git pull --rebase``) when the branch
tracks a remote. It refuses to start when other changes are staged or capabilities.yaml has
uncommitted edits.

``--scheduler ADDRESS`` (or ``$ASC_SCHEDULER``) runs the cells on a Dask cluster instead of local
processes, one task per cell; ``--scheduler local:N`` starts a cluster of N worker processes here.
Workers compute, this process writes: records come back as JSON and are written here, each naming
its worker (``provenance.worker``). See docs/cluster.md.

``nightly --generative [options]`` runs the generative evaluation instead (see ``generate --help``).
"""

from __future__ import annotations

import contextlib
import functools
import datetime as _dt
import os
import sys
import time
from pathlib import Path
from typing import Sequence

from asc_harness.batch import cluster as cluster_mod
from asc_harness.run import sandbox
from asc_harness.common import stopping
from asc_harness.store.cli import add_cells_option, add_path_options, cell_patterns, make_parser, resolve_paths, run_main
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence import harness_git_state, iso_utc
from asc_harness.store.evidence_read import require_valid_evidence
from asc_harness.batch.nightly_cells import _run_cluster, _run_pytest
from asc_harness.batch.nightly_plan import expected_duration, select_cells, worker_count
from asc_harness.batch.nightly_rundir import STATE_VERSION, RunDir
from asc_harness.common.paths import to_repo_path
from asc_harness.batch.pipeline import Reports, _count_text, _counts, commit_message, commit_paths, commit_preflight, finish_pipeline
from asc_harness.store.registry import load_valid_registry
from asc_harness.store.retention import KEEP_LATEST
from asc_harness.run.engines import ENGINES, interpreter_for
from asc_harness.run.runner import BACKENDS, DEFAULT_MEMORY_MB
from asc_harness.store.validation import to_plain

PROG = "nightly"
DEFAULT_TIMEOUT_S = 300.0
RUN_DIR_NAME = ".nightly"
EXIT_CODES = """\
  0  every cell that ran passed (cells may be skipped), and sync / dashboard / commit succeeded
  1  a cell failed (fail / error / timeout), or sync, the dashboard or the commit failed
  2  cannot run: bad option, invalid capabilities file, a corrupt evidence record, a missing golden
     kernel file, engine or sandbox not available, nothing to resume, --commit preconditions
     (checked before anything is written)
  130 interrupted (resume with --resume)"""


def _parser():
    p = make_parser(PROG, __doc__, EXIT_CODES)
    add_path_options(p)
    add_cells_option(p)
    p.add_argument("--engine", choices=ENGINES, default=None,
                   help="embedded (default): this environment's compiler; pyasc: the interpreter in $PYASC_PYTHON")
    p.add_argument("-r", "--backend", choices=BACKENDS, default=None, help="backend (default Model)")
    p.add_argument("-v", "--platform", default=None, metavar="PLATFORM",
                   help="only cells on this platform (default: every platform in the registry)")
    p.add_argument("-n", "--workers", default="auto", metavar="N",
                   help="parallel pytest-xdist workers: a number, or auto (default: one per core); 0 runs in-process")
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help=f"time budget per cell in seconds, enforced by the sandbox (default {DEFAULT_TIMEOUT_S:g})")
    p.add_argument("--memory-mb", type=int, default=None, metavar="N",
                   help=f"address-space limit per cell in MiB, 0 for none (default {DEFAULT_MEMORY_MB})")
    p.add_argument("--quick", action="store_true", default=None, help="skip cases marked full_only")
    p.add_argument("--resume", action="store_true", help="continue the interrupted nightly in the run directory")
    p.add_argument("--run-dir", type=Path, default=None, metavar="DIR",
                   help=f"state directory (default: {RUN_DIR_NAME}/ next to capabilities.yaml)")
    p.add_argument("--list", action="store_true", help="print the cells that would run (and why others are skipped)")
    p.add_argument("--no-dashboard", action="store_true", help="do not render the dashboard")
    p.add_argument("--site", type=Path, default=None, metavar="DIR",
                   help="dashboard output folder (default: site/ next to capabilities.yaml)")
    p.add_argument("--commit", action="store_true",
                   help="commit the new evidence records and capabilities.yaml (nothing else) with GitPython")
    p.add_argument("--keep-records", type=int, default=KEEP_LATEST, metavar="N",
                   help="after the sync, remove the committed evidence records of the cells that ran that "
                        "capabilities.yaml does not link, but the latest N per cell and kind, and their traces "
                        f"(default {KEEP_LATEST}; 0 keeps every record)")
    p.add_argument("--generative", action="store_true",
                   help="run the generative evaluation instead (all other options as for generate)")
    cluster_mod.add_options(p)
    return p


# --------------------------------------------------------------------------------------------------
# small helpers


def _require_parallel_runner() -> None:
    """pytest and pytest-xdist run the cells; both are runtime dependencies, checked before any state."""
    try:
        import pytest  # noqa: F401
        import xdist  # noqa: F401
    except ImportError as exc:
        raise HarnessError(f"nightly needs pytest and pytest-xdist, which the project installs: {exc} "
                           "(reinstall with: pip install .)") from None


# --------------------------------------------------------------------------------------------------
# summary and commit message


def print_summary(console, state: dict, *, interrupted: bool, wall_s: float, steps: dict | None) -> None:
    results = state["results"]
    opts = state["options"]
    console.print()
    console.print(f"[bold]nightly summary[/bold] ({opts['engine']} engine, backend {opts['backend']}, "
                  f"{'quick' if opts['quick'] else 'full'} cases, {opts['timeout_s']:g} s per cell, "
                  f"{wall_s:.1f} s)", markup=True, highlight=False)
    planned = state["plan"]
    console.print(f"  ran {len(results)} of {len(planned)} cell(s): {_count_text(_counts(results))}", highlight=False)
    if interrupted:
        left = [c for c in planned if c not in results]
        console.print(f"  interrupted: {len(left)} cell(s) not run; continue with: nightly --resume", highlight=False)
    for cid in planned:
        r = results.get(cid)
        if r and r["status"] not in ("pass",):
            what = f"{r['category']}: {r['message']}" if r.get("category") else (r.get("message") or "")
            console.print(f"    {r['status']:<8} {cid}  {what}", highlight=False, soft_wrap=True)
    if state["skipped"]:
        console.print(f"  skipped {len(state['skipped'])} cell(s) without running them:", highlight=False)
        for cid, reason in state["skipped"].items():
            console.print(f"    skipped  {cid}  {reason}", highlight=False, soft_wrap=True)
    written = [r["evidence"] for r in results.values() if r.get("evidence")]
    written += [r["reference"]["evidence"] for r in results.values() if (r.get("reference") or {}).get("evidence")]
    refs = {cid: r["reference"] for cid, r in results.items() if r.get("reference")}
    if refs:
        bad = {cid: ref for cid, ref in refs.items() if ref["status"] != "pass"}
        console.print(f"  Ascend C references: {len(refs) - len(bad)} of {len(refs)} passed", highlight=False)
        for cid, ref in bad.items():
            console.print(f"    {ref['status']:<8} {cid} (reference)  {ref.get('message') or ''}", highlight=False,
                          soft_wrap=True)
    console.print(f"  evidence: {len(written)} record(s) written", highlight=False)
    for name, msg in (steps or {}).items():
        console.print(f"  {name}: {msg}", highlight=False, soft_wrap=True)


# --------------------------------------------------------------------------------------------------
# main


def _new_state(run_id: str, opts: dict, cap: Path, ev_dir: Path, root: Path, plan_ids: list[str],
               skipped: dict[str, str], patterns: list[str]) -> dict:
    return {"version": STATE_VERSION, "run_id": run_id, "started_at": iso_utc(), "updated_at": None,
            "finished_at": None, "phase": "cells", "options": opts, "patterns": patterns,
            "capabilities": to_repo_path(cap, root) or str(cap), "evidence_dir": to_repo_path(ev_dir, root) or str(ev_dir),
            "plan": plan_ids, "skipped": skipped, "results": {}}


def _resume_state(run_dir: RunDir, args, cap: Path, ev_dir: Path, root: Path) -> dict:
    state = run_dir.load_state()
    if not state or state.get("version") != STATE_VERSION:
        raise HarnessError(f"nothing to resume: no nightly state in {run_dir.path}")
    if state.get("phase") == "done":
        raise HarnessError(f"nothing to resume: the nightly started {state.get('started_at')} finished at "
                           f"{state.get('finished_at')}; run nightly without --resume")
    if state.get("capabilities") != (to_repo_path(cap, root) or str(cap)):
        raise HarnessError(f"the interrupted nightly used {state.get('capabilities')}, not {cap}")
    opts = state["options"]
    given = {"engine": args.engine, "backend": args.backend, "platform": args.platform, "timeout_s": args.timeout,
             "memory_mb": args.memory_mb, "quick": args.quick}
    for key, value in given.items():
        if value is not None and value != opts.get(key):
            raise HarnessError(f"--resume continues the interrupted nightly with its own options; it ran with "
                               f"{key}={opts.get(key)!r}, not {value!r} (drop the option, or start afresh "
                               "without --resume)")
    if args.cells and cell_patterns(args) != state.get("patterns"):
        raise HarnessError("--resume continues the interrupted nightly with its own --cells selection; drop --cells")
    for cid in state["plan"]:
        if cid not in state["results"]:
            marker = run_dir.read_marker(cid)
            if marker is not None:
                state["results"][cid] = marker
    return state


def _main(argv: Sequence[str] | None, reports: Reports) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--generative" in argv:
        from asc_harness.batch import generate

        return generate.main([a for a in argv if a != "--generative"], reports=reports)
    args = _parser().parse_args(argv)
    args.reports = reports
    if args.timeout is not None and args.timeout <= 0:
        raise HarnessError("--timeout must be positive")
    if args.memory_mb is not None and args.memory_mb < 0:
        raise HarnessError("--memory-mb must be >= 0")
    if args.keep_records < 0:
        raise HarnessError("--keep-records must be >= 0")
    scheduler = cluster_mod.scheduler_from(args)
    cap, ev_dir, root = resolve_paths(args)
    patterns = cell_patterns(args)
    reg = load_valid_registry(cap)
    run_dir = RunDir(args.run_dir.resolve() if args.run_dir else root / RUN_DIR_NAME)
    site = (args.site if args.site else root / "site").resolve()

    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False, soft_wrap=True)

    if args.list:
        run, skipped = select_cells(reg, patterns, args.platform)
        for c in run:
            console.print(f"run      {c['id']}  {c['golden']}", highlight=False)
        for cid, reason in skipped.items():
            console.print(f"skip     {cid}  {reason}", highlight=False)
        return 0

    # Everything that can make the run impossible is checked before any state is written.
    worker_count(args.workers, 1)
    require_valid_evidence(ev_dir, root=root)
    if args.resume:
        peek = run_dir.load_state() if run_dir.state_path.is_file() else None
        if not peek or peek.get("version") != STATE_VERSION or not isinstance(peek.get("options"), dict):
            raise HarnessError(f"nothing to resume: no nightly state in {run_dir.path}")
        engine = peek["options"].get("engine", "embedded")
    else:
        select_cells(reg, patterns, args.platform)
        engine = args.engine or "embedded"
    if engine == "pyasc":
        interpreter_for("pyasc")
    _require_parallel_runner()
    sandbox.require_confinement()
    repo = commit_preflight(root, cap) if args.commit else None

    with contextlib.ExitStack() as stack:
        cl = stack.enter_context(cluster_mod.Cluster(scheduler, engine=engine, console=console,
                                                     retries=args.retries, connect_timeout=args.connect_timeout)) \
            if scheduler else None
        return _run(args, cl, stack, cap=cap, ev_dir=ev_dir, root=root, reg=reg, patterns=patterns,
                    run_dir=run_dir, site=site, repo=repo, console=console)


def _run(args, cl, stack, *, cap, ev_dir, root, reg, patterns, run_dir, site, repo, console) -> int:
    run_dir.prepare()
    run_dir.lock()
    try:
        if args.resume:
            state = _resume_state(run_dir, args, cap, ev_dir, root)
            cells_by_id = {str(c["id"]): to_plain(c) for c in reg.cells}
            for cid in list(state["plan"]):
                if cid not in state["results"] and cid not in cells_by_id:
                    state["plan"].remove(cid)
                    state["skipped"][cid] = "no longer in capabilities.yaml"
            todo = [cid for cid in state["plan"] if cid not in state["results"]]
            console.print(f"resuming nightly {state['run_id']}: {len(state['results'])} of {len(state['plan'])} "
                          f"cell(s) already done, {len(todo)} to run", highlight=False)
            cells = {cid: cells_by_id[cid] for cid in state["plan"] if cid in cells_by_id}
        else:
            previous = run_dir.load_state() if run_dir.state_path.exists() else None
            if previous and previous.get("phase") != "done":
                console.print(f"note: starting afresh; the unfinished nightly {previous.get('run_id')} is "
                              "discarded (its evidence records stay)", highlight=False)
            run, skipped = select_cells(reg, patterns, args.platform)
            run.sort(key=lambda c: -expected_duration(c, root, ev_dir))
            opts = {"engine": args.engine or "embedded", "backend": args.backend or "Model",
                    "platform": args.platform, "timeout_s": float(args.timeout or DEFAULT_TIMEOUT_S),
                    "memory_mb": DEFAULT_MEMORY_MB if args.memory_mb is None else int(args.memory_mb),
                    "quick": bool(args.quick)}
            run_id = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ") + f"-{os.getpid()}"
            state = _new_state(run_id, opts, cap, ev_dir, root, [c["id"] for c in run], skipped, patterns)
            run_dir.clear_markers()
            run_dir.save_state(state)
            todo = list(state["plan"])
            cells = {c["id"]: c for c in run}

        started = time.monotonic()
        interrupted = False
        code = 0
        note = sandbox.confinement_note() if todo else None
        if note:
            console.print(note, highlight=False, soft_wrap=True)
        if todo:
            workers = worker_count(args.workers, len(todo))
            where = f"the cluster at {cl.address}" if cl else f"{workers or 'no'} worker process(es)"
            console.print(f"nightly: {len(todo)} cell(s) on the {state['options']['engine']} engine, "
                          f"{where}, {state['options']['timeout_s']:g} s per cell", highlight=False)
            commit, dirty = harness_git_state(root)
            plan = {"version": STATE_VERSION, "root": str(root), "evidence_dir": str(ev_dir),
                    "provenance": {"harness_commit": commit, "harness_dirty": dirty},
                    "run_dir": str(run_dir.path), "options": state["options"], "cells": cells, "run": todo}
            try:
                code = _run_cluster(cl, run_dir, plan, state, console) if cl else \
                    _run_pytest(run_dir, plan, state, workers, console)
            except KeyboardInterrupt:
                code = 2
            finally:
                stack.close()  # the cluster is not needed for sync, dashboard and commit
            unfinished = [c for c in state["plan"] if c not in state["results"]]
            interrupted = code == 2 and bool(unfinished)
            if unfinished and not interrupted:
                for cid in unfinished:  # pytest stopped without running them (collection or internal error)
                    state["results"][cid] = {"status": "error", "category": "infrastructure", "cell": cid,
                                             "message": f"not run: pytest exited with code {code} (see "
                                                        f"{run_dir.log_path})", "evidence": None, "wall_s": None}
                run_dir.save_state(state)
        if interrupted:
            print_summary(console, state, interrupted=True, wall_s=time.monotonic() - started, steps=None)
            return 130

        state["phase"] = "finishing"
        run_dir.save_state(state)
        ran = [cid for cid in state["plan"] if cid in state["results"]]
        fin = finish_pipeline(console, cap=cap, ev_dir=ev_dir, root=root, cell_ids=ran, keep=args.keep_records,
                              dashboard=not args.no_dashboard, site=site, reports=args.reports,
                              repo=repo if repo is not None and ran else None)
        steps = fin["steps"]
        if repo is not None:
            paths = [root / r["evidence"] for r in state["results"].values() if r.get("evidence")]
            paths += [root / t for r in state["results"].values() for t in r.get("traces") or [] if t]
            for ref in (r.get("reference") for r in state["results"].values()):
                if ref and ref.get("evidence"):
                    paths += [root / ref["evidence"]] + [root / t for t in ref.get("traces") or [] if t]
            paths += fin["pruned"]  # their removal is part of the commit
            if "sync" not in fin["failed"] and "rebase" not in fin["failed"]:
                paths.append(cap)
            if "rebase" in fin["failed"]:
                steps["commit"] = "not committed (the rebase failed); the evidence is in the working tree"
                fin["failed"].append("commit")
            else:
                try:
                    sha = commit_paths(repo, paths, commit_message(state, "sync" not in fin["failed"]))
                    steps["commit"] = f"committed {sha[:10]}" if sha else "nothing to commit"
                except HarnessError as exc:
                    steps["commit"] = f"FAILED: {exc}"
                    fin["failed"].append("commit")
        state["phase"] = "done"
        state["finished_at"] = iso_utc()
        state["steps"] = steps
        run_dir.save_state(state)
        print_summary(console, state, interrupted=False, wall_s=time.monotonic() - started, steps=steps)
        bad = [r for r in state["results"].values() if r["status"] not in ("pass", "skipped")]
        return 1 if bad or fin["failed"] else 0
    finally:
        run_dir.unlock()


def main(argv: Sequence[str] | None = None, reports: Reports = Reports()) -> int:
    """The nightly; ``reports``: the report steps it ends with (see :mod:`asc_harness.nightly`)."""
    with stopping.handling_stops():  # Ctrl-C / SIGTERM: a prompt stop in every phase
        return run_main(functools.partial(_main, reports=reports), argv, PROG)


if __name__ == "__main__":
    sys.exit(main())
