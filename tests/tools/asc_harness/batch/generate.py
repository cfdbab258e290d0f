"""generate: evaluate an external code-generating agent on the cells that have prompts.

For every selected cell and every attempt (``--attempts N``) the agent gets a fresh workspace that
holds only what the variant allows: ``PROMPT.md`` (the cell's ``minimal`` or ``guided`` prompt plus
the harness's delivery contract) and, for ``guided``, ``ASC2_NOTES.md`` (short asc2 API notes). No
golden kernel is ever placed there. The agent is the command line given by ``--agent-command`` (or
``$ASC_AGENT_COMMAND``), a template with ``{prompt_file}`` and ``{workspace}`` placeholders that is
split with shlex into an argument vector (no shell is involved; the prompt travels only in the
file). It runs in the sandbox with ``--timeout`` seconds, a scrubbed environment (add variables with
``--agent-env NAME``) and a check that it changed nothing in the repository (tracked files, the
evidence directory, and new untracked files).

The kernel is the newest ``*.py`` file written in the workspace after the agent started (never a
file that was there before, a symlink, or a copy of a golden kernel). It is copied next to the
evidence (``evidence/<cell>/artifacts/<attempt>/``; the agent's output, truncated, goes into the
record), statically checked by tracing it on the embedded compiler (a compile error is a result, not a
crash), then run against the cell's cases with the harness's own comparison: the cell's golden
``make_inputs`` / ``reference`` / ``CASES`` with the generated ``launch``. On the embedded engine the
check and the run are one sandboxed process (each with its own ``--kernel-timeout``); on pyasc, two.
Each attempt writes one generative evidence record; sync_capabilities then applies the K-of-M rule.

The run's state (``.generate/state.json`` next to capabilities.yaml, written after every attempt)
lets ``--resume`` continue an interrupted run with the attempts not yet recorded. ``--scheduler
ADDRESS`` (or ``$ASC_SCHEDULER``; ``local:N`` for N local worker processes) runs each attempt as a
task on a Dask cluster: the worker runs the agent and the evaluation, this process writes the
artifacts and records (docs/cluster.md).

This module is the command line; the work lives in ``gen_agent`` (command line, prompt, workspace,
agent output), ``gen_attempt`` (one attempt: agent, static check, run, record), ``gen_cluster``
(attempts as cluster tasks) and ``gen_state`` (the run state for ``--resume``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Sequence

from asc_harness.batch import cluster as cluster_mod
from asc_harness.run import sandbox
from asc_harness.common import stopping
from asc_harness.store.cli import add_cells_option, add_path_options, cell_patterns, make_parser, resolve_paths, run_main
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence import file_sha256, iso_utc
from asc_harness.store.evidence_read import require_valid_evidence
from asc_harness.batch.gen_attempt import Context, attempt_outcome, describe_inputs, run_attempt
from asc_harness.batch.gen_agent import parse_template, prompt_text  # noqa: F401 - part of this module's interface
from asc_harness.batch.gen_cluster import attempt_tasks, run_on_cluster
from asc_harness.batch.gen_state import RunState, adopt_recorded, resumed_args
from asc_harness.batch.pipeline import Reports, commit_message, commit_paths, commit_preflight, finish_pipeline
from asc_harness.store.registry import load_valid_registry
from asc_harness.run.engines import ENGINES
from asc_harness.run.runner import BACKENDS, DEFAULT_MEMORY_MB
from asc_harness.store.validation import to_plain

PROG = "generate"
VARIANTS = ("minimal", "guided")
DEFAULT_ATTEMPTS = 3
DEFAULT_AGENT_TIMEOUT_S = 1200.0
DEFAULT_KERNEL_TIMEOUT_S = 300.0
EXIT_CODES = """\
  0  every attempt was evaluated (whatever the agent's results) and sync succeeded
  1  an attempt could not be evaluated (infrastructure: the agent did not start, the harness failed),
     or sync / dashboard / commit failed
  2  cannot run: no agent command, bad option, invalid capabilities file, a corrupt evidence record, a
     missing golden kernel file, sandbox not available, --commit preconditions (checked before any run)"""


def _parser():
    p = make_parser(PROG, __doc__, EXIT_CODES)
    add_path_options(p)
    add_cells_option(p)
    p.add_argument("--agent-command", metavar="TEMPLATE", default=None,
                   help="agent command line with {prompt_file} and {workspace} placeholders "
                        "(default: $ASC_AGENT_COMMAND)")
    p.add_argument("--attempts", type=int, default=DEFAULT_ATTEMPTS, metavar="N",
                   help=f"attempts per cell (default {DEFAULT_ATTEMPTS})")
    p.add_argument("--variant", choices=VARIANTS, default="minimal", help="prompt variant (default minimal)")
    p.add_argument("--timeout", type=float, default=DEFAULT_AGENT_TIMEOUT_S, metavar="S",
                   help=f"time budget of one agent run in seconds (default {DEFAULT_AGENT_TIMEOUT_S:g})")
    p.add_argument("--kernel-timeout", type=float, default=DEFAULT_KERNEL_TIMEOUT_S, metavar="S",
                   help="time budget of the static check and of the kernel run, each "
                        f"(default {DEFAULT_KERNEL_TIMEOUT_S:g})")
    p.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="N",
                   help=f"address-space limit of the check and the kernel run in MiB, 0 for none "
                        f"(default {DEFAULT_MEMORY_MB})")
    p.add_argument("--agent-memory-mb", type=int, default=0, metavar="N",
                   help="address-space limit of the agent in MiB (default 0: none)")
    p.add_argument("--agent-env", action="append", default=[], metavar="NAME",
                   help="pass this environment variable to the agent (repeatable)")
    p.add_argument("--engine", choices=ENGINES, default="embedded", help="engine for the kernel run (default embedded)")
    p.add_argument("-r", "--backend", choices=BACKENDS, default="Model", help="backend (default Model)")
    p.add_argument("-v", "--platform", default=None, metavar="PLATFORM", help="only cells on this platform")
    p.add_argument("--quick", action="store_true", help="skip cases marked full_only")
    p.add_argument("--allow-host-only", action="store_true",
                   help="accept kernels that launch no @asc2.jit kernel (for checking the harness itself)")
    p.add_argument("--no-agent-network", action="store_true",
                   help="run the agent without network access (by default it keeps the network to reach its "
                        "model's API; kernels never have it)")
    p.add_argument("--keep-workspaces", action="store_true", help="keep the agents' workspaces (paths printed)")
    p.add_argument("--list", action="store_true", help="print the cells that would be evaluated")
    p.add_argument("--no-dashboard", action="store_true", help="do not render the dashboard")
    p.add_argument("--site", type=Path, default=None, metavar="DIR",
                   help="dashboard output folder (default: site/ next to capabilities.yaml)")
    p.add_argument("--commit", action="store_true",
                   help="commit the new records, their artifacts and capabilities.yaml (nothing else)")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted run (its own cells, attempts and options) with the attempts "
                        "not yet recorded")
    cluster_mod.add_options(p)
    return p


# --------------------------------------------------------------------------------------------------
# main


def select_cells(reg, patterns: list[str], platform: str | None, variant: str) -> tuple[list[dict], dict[str, str]]:
    run, skipped = [], {}
    matched = 0
    for c in reg.iter_cells(patterns):
        cell = to_plain(c)
        if platform and cell["platform"] != platform:
            continue
        matched += 1
        if cell["generative_status"] == "blocked":
            skipped[cell["id"]] = "generative_status is blocked (excluded by hand)"
        elif not str((cell.get("prompts") or {}).get(variant) or "").strip():
            skipped[cell["id"]] = f"no {variant} prompt"
        else:
            run.append(cell)
    if not matched:
        what = ", ".join(patterns) if patterns else "the registry"
        raise HarnessError(f"no cell in {what}" + (f" on platform {platform}" if platform else ""))
    return run, skipped


def _main(argv: Sequence[str] | None, reports: Reports) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    args = parser.parse_args(argv)
    state = None
    if args.resume:
        state = RunState(resolve_paths(args)[2])
        state.load()
        args = resumed_args(parser, args, state)
    args.reports = reports
    if args.attempts < 1:
        raise HarnessError("--attempts must be >= 1")
    for name, value in (("--timeout", args.timeout), ("--kernel-timeout", args.kernel_timeout)):
        if value <= 0:
            raise HarnessError(f"{name} must be positive")
    if args.memory_mb < 0 or args.agent_memory_mb < 0:
        raise HarnessError("memory limits must be >= 0")
    for name in args.agent_env:
        if name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP"):
            raise HarnessError(f"--agent-env {name}: this variable may not be passed into the sandbox")
    scheduler = cluster_mod.scheduler_from(args)
    if scheduler and args.keep_workspaces:
        raise HarnessError("--keep-workspaces applies to local runs (a cluster run's workspaces are on its workers)")
    cap, ev_dir, root = resolve_paths(args)
    patterns = cell_patterns(args)
    reg = load_valid_registry(cap)
    cells, skipped = select_cells(reg, patterns, args.platform, args.variant)
    require_valid_evidence(ev_dir, root=root)
    for c in cells:
        if c.get("golden") and not (root / c["golden"]).is_file():
            raise HarnessError(f"the golden kernel of {c['id']} is missing: {c['golden']} (its cases and reference "
                               "judge the generated kernels)")

    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    if args.list:
        for c in cells:
            console.print(f"run      {c['id']}  ({args.variant} prompt, {args.attempts} attempt(s))")
        for cid, reason in skipped.items():
            console.print(f"skip     {cid}  {reason}")
        return 0
    tokens = parse_template(args.agent_command or os.environ.get("ASC_AGENT_COMMAND"))
    if args.engine == "pyasc":
        from asc_harness.run.engines import interpreter_for

        interpreter_for("pyasc")
    sandbox.require_confinement()
    repo = commit_preflight(root, cap) if args.commit else None

    golden_hashes = {}
    for c in reg.cells:
        if c.get("golden"):
            sha = file_sha256(root / str(c["golden"]))
            if sha:
                golden_hashes[sha] = str(c["golden"])
    ctx = Context(args, root, ev_dir, tokens, golden_hashes)
    started = time.monotonic()
    total = len(cells) * args.attempts
    with contextlib.ExitStack() as stack:
        cl = stack.enter_context(cluster_mod.Cluster(scheduler, engine=args.engine, console=console,
                                                     retries=args.retries, connect_timeout=args.connect_timeout)) \
            if scheduler else None
        if state is None:
            state = RunState(root)
            kept = [a for a in argv if a not in ("--resume",)]
            state.start(kept if args.agent_command else kept + ["--agent-command", " ".join(map(shlex.quote, tokens))])
        else:
            console.print(f"resuming generate {state.data['run_id']}: {len(state.data['done'])} of {total} attempt(s) "
                          "already recorded", highlight=False)
        outcomes: list[dict] = list(state.data["done"].values())
        interrupted = _attempts(args, ctx, cl, state, cells, outcomes, total, console)
    if not interrupted:
        state.finish()
    return _finish(args, ctx, reg, cap, repo, skipped, outcomes, interrupted, started, console)


def _attempts(args, ctx: Context, cl, state: RunState, cells: list[dict], outcomes: list[dict], total: int,
              console) -> bool:
    """Run the attempts not yet recorded, locally or on the cluster; True when interrupted."""
    root, ev_dir = ctx.root, ctx.ev_dir
    note = sandbox.confinement_note()
    if note:
        console.print(note, highlight=False, soft_wrap=True)
    console.print(f"generate: {len(cells)} cell(s) x {args.attempts} attempt(s), {args.variant} prompts, "
                  f"agent budget {args.timeout:g} s", highlight=False)
    try:
        if cl is not None:
            tasks = [t for t in attempt_tasks(ctx, cells, args.attempts, state.data["run_id"], cl.versions)
                     if t["id"] not in state.data["done"]]
            for cell in cells:  # records a killed coordinator wrote but did not note
                for tid, (record, path) in adopt_recorded(ev_dir, root, cell["id"], {t["id"] for t in tasks}).items():
                    attempt = record["generative"]["attempt"]
                    o = attempt_outcome(ctx, cell, attempt, record, path, {}, record.get("wall_time_s") or 0.0)
                    outcomes.append(o)
                    state.record(tid, o)
            tasks = [t for t in tasks if t["id"] not in state.data["done"]]
            run_on_cluster(cl, ctx, tasks, console, outcomes, state)
            return False
        for cell in cells:
            golden = root / cell["golden"] if cell.get("golden") else None
            contract = None
            for attempt in range(1, args.attempts + 1):
                tid = state.task_id(cell["id"], attempt)
                if tid in state.data["done"]:
                    continue
                if contract is None and golden is not None and golden.is_file():
                    contract = describe_inputs(golden, cell["platform"], root, ev_dir)
                o = run_attempt(ctx, cell, attempt, contract, console)
                outcomes.append(o)
                state.record(tid, o)
                style = {"pass": "green"}.get(o["status"], "red")
                detail = f" ({o['category']}: {o['message']})" if o.get("category") else ""
                console.print(f"[{len(outcomes)}/{total}] {cell['id']} attempt {attempt}: "
                              f"[{style}]{o['status']}[/{style}] agent exit {o['agent_exit']}, "
                              f"{o['wall_s']:.1f} s{detail}", markup=True, highlight=False, soft_wrap=True)
                if o.get("workspace"):
                    console.print(f"    workspace kept: {o['workspace']}", highlight=False)
    except KeyboardInterrupt:
        console.print("interrupted: the attempts recorded so far are kept (continue with generate --resume)",
                      highlight=False)
        return True
    return False


def _finish(args, ctx: Context, reg, cap: Path, repo, skipped: dict, outcomes: list[dict], interrupted: bool,
            started: float, console) -> int:
    root, ev_dir = ctx.root, ctx.ev_dir
    ran = sorted({o["cell"] for o in outcomes})
    fin = finish_pipeline(console, cap=cap, ev_dir=ev_dir, root=root, cell_ids=ran, dashboard=not args.no_dashboard,
                          reports=args.reports,
                          site=(args.site or root / "site").resolve(), repo=repo if repo is not None and ran else None)
    steps = fin["steps"]
    if repo is not None and ran and "rebase" not in fin["failed"]:
        paths = []
        for o in outcomes:
            paths += [root / p for p in [o.get("evidence")] + list(o.get("artifacts") or []) if p]
        paths += fin["pruned"]  # their removal is part of the commit
        if "sync" not in fin["failed"]:
            paths.append(cap)
        state = {"results": {f"{o['cell']}#{o['attempt']}": o for o in outcomes}, "options":
                 {"engine": args.engine, "backend": args.backend, "quick": args.quick},
                 "plan": [f"{o['cell']}#{o['attempt']}" for o in outcomes], "run_id": iso_utc()}
        message = commit_message(state, "sync" not in fin["failed"]).replace(
            "nightly: golden evidence for", "generate: generative evidence for", 1)
        message = message.replace(" cell(s) on the", f" attempt(s) ({args.variant} prompts) on the", 1)
        try:
            sha = commit_paths(repo, paths, message)
            steps["commit"] = f"committed {sha[:10]}" if sha else "nothing to commit"
        except HarnessError as exc:
            steps["commit"] = f"FAILED: {exc}"
            fin["failed"].append("commit")

    reg = load_valid_registry(cap)
    console.print()
    console.print(f"[bold]generate summary[/bold] ({args.variant} prompts, {len(outcomes)} attempt(s), "
                  f"{time.monotonic() - started:.1f} s)", markup=True, highlight=False)
    for cid in ran:
        mine = [o for o in outcomes if o["cell"] == cid]
        statuses = ", ".join(o["status"] + (f" ({o['category']})" if o.get("category") else "") for o in mine)
        try:
            status = reg.cell(cid)["generative_status"]
        except KeyError:
            status = "?"
        console.print(f"  {cid}: {statuses} -> generative_status {status}", highlight=False, soft_wrap=True)
    for cid, reason in skipped.items():
        console.print(f"  skipped {cid}: {reason}", highlight=False)
    for name, msg in steps.items():
        console.print(f"  {name}: {msg}", highlight=False, soft_wrap=True)
    if interrupted:
        return 130
    infra = [o for o in outcomes if o.get("category") == "infrastructure"]
    return 1 if infra or fin["failed"] else 0


def main(argv: Sequence[str] | None = None, reports: Reports = Reports()) -> int:
    """The generative evaluation; ``reports``: the report steps it ends with (see :mod:`asc_harness.generate`)."""
    with stopping.handling_stops():  # Ctrl-C / SIGTERM: a prompt stop in every phase
        return run_main(functools.partial(_main, reports=reports), argv, PROG)


if __name__ == "__main__":
    sys.exit(main())
