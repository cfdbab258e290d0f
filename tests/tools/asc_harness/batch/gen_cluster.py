"""Generative attempts on a Dask cluster: workers run the agent and evaluate, the coordinator writes."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from asc_harness.batch import remote
from asc_harness.store.evidence import write_record
from asc_harness.batch.gen_agent import _atomic_write_bytes
from asc_harness.batch.gen_attempt import Context, attempt_outcome, attempt_record, describe_inputs
from asc_harness.batch.pipeline import infrastructure_record
from asc_harness.common.paths import to_repo_path


def attempt_task(task: dict, worker: dict) -> dict:
    """On a worker: one attempt in a stand-in repository holding only the cell's golden kernel.

    Returns the record (not written) and the artifacts it refers to (repository-relative path:
    base64 content), for the coordinator to write.
    """
    refused = remote.check_versions(task, worker)
    if refused:
        return refused
    root = Path(tempfile.mkdtemp(prefix="asc-task-"))
    try:
        remote.materialise(task["files"], root)
        ev_dir = root / task["evidence_dir"]
        ev_dir.mkdir(parents=True, exist_ok=True)
        ctx = Context.from_options(task["options"], root, ev_dir, task["agent"], task["golden_hashes"])
        record, _extra = attempt_record(ctx, task["cell"], task["attempt"], task["contract"])
        artifacts = remote.collect(root, ev_dir)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"id": task["id"], "worker": worker, "record": remote.stamp(record, worker, task["id"]),
            "artifacts": artifacts}


def attempt_tasks(ctx: Context, cells: list[dict], attempts: int, run_id: str, versions: dict) -> list[dict]:
    """One task per cell and attempt, carrying everything the worker needs as data."""
    ev_rel = to_repo_path(ctx.ev_dir, ctx.root)
    agent = {"tokens": ctx.tokens, "env": ctx.agent_env, "display": ctx.display}
    tasks = []
    for cell in cells:
        golden = ctx.root / cell["golden"] if cell.get("golden") else None
        have_golden = golden is not None and golden.is_file()
        contract = describe_inputs(golden, cell["platform"], ctx.root, ctx.ev_dir) if have_golden else None
        files = remote.pack_files(ctx.root, [cell["golden"]]) if have_golden else {}
        for attempt in range(1, attempts + 1):
            tasks.append({"id": f"{run_id}/{cell['id']}#{attempt}", "cell": cell, "attempt": attempt,
                          "contract": contract, "files": files, "evidence_dir": ev_rel, "options": ctx.options(),
                          "agent": agent, "golden_hashes": ctx.golden_hashes, "versions": versions})
    return tasks


def run_on_cluster(cl, ctx: Context, tasks: list[dict], console, outcomes: list[dict], state=None) -> None:
    """Run ``tasks`` on the cluster; write each attempt's artifacts and record here, append its outcome."""
    from asc_harness.store.evidence import harness_git_state
    from asc_harness.batch.remote import decode

    commit, dirty = harness_git_state(ctx.root)
    total = len({t["id"] for t in tasks})

    def on_result(task: dict, result: dict) -> None:
        cell, attempt = task["cell"], task["attempt"]
        artifacts = []
        if "lost" in result:
            gen = {"attempt": attempt, "variant": ctx.args.variant, "agent_command": ctx.display, "agent_exit": None,
                   "agent_wall_s": None, "agent_output": None, "kernel_file": None}
            record = infrastructure_record(cell, ctx.root, ctx.opts, f"the cluster lost this attempt: {result['lost']}",
                                           kind="generative", generative=gen)
        else:
            record = result["record"]
            record["provenance"].update(harness_commit=commit, harness_dirty=dirty)
            for rel, data in sorted(result["artifacts"].items()):
                target = ctx.root / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                _atomic_write_bytes(target, decode(data))
                artifacts.append(rel)
        written = write_record(record, ctx.ev_dir)
        o = attempt_outcome(ctx, cell, attempt, record, written, {}, record.get("wall_time_s") or 0.0)
        o["artifacts"] = artifacts
        worker = result.get("worker")
        o["worker"] = f"{worker['name']}@{worker['host']}" if worker else None
        outcomes.append(o)
        if state is not None:
            state.record(task["id"], o)
        style = {"pass": "green"}.get(o["status"], "red")
        detail = f" ({o['category']}: {o['message']})" if o.get("category") else ""
        console.print(f"[{len(outcomes)}/{total}] {cell['id']} attempt {attempt}: [{style}]{o['status']}[/{style}]"
                      f"{' on ' + o['worker'] if worker else ''}, agent exit {o['agent_exit']}{detail}",
                      markup=True, highlight=False, soft_wrap=True)

    cl.run(attempt_task, tasks, on_result, label=lambda t: f"{t['cell']['id']} attempt {t['attempt']}",
           noun="attempts")

