"""Running the nightly's cells: one cell inside a pytest item (possibly in an xdist worker), the progress
and state kept by the controlling process, and the cells of a Dask cluster (workers compute, this
process writes)."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from pathlib import Path

from asc_harness.common import stopping
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence import iso_utc, write_record
from asc_harness.batch.nightly_rundir import RunDir, _write_json
from asc_harness.common.paths import to_repo_path
from asc_harness.batch.pipeline import RUN_OPTIONS, _first_line, evaluate_cell, infrastructure_record
from asc_harness.run.traces import trace_paths, write_record_with_traces


# --------------------------------------------------------------------------------------------------
# one cell (runs inside a pytest item, possibly in an xdist worker)


def _outcome(record: dict, written: Path | None, root: Path) -> dict:
    failure = record.get("failure") or {}
    counts: dict[str, int] = {}
    for c in record.get("cases", []):
        counts[c["status"]] = counts.get(c["status"], 0) + 1
    ticks = [c["ticks"] for c in record.get("cases", []) if c.get("ticks") is not None]
    return {"status": record["status"], "category": failure.get("category"),
            "message": _first_line(failure.get("message")), "runtime_verified": record.get("runtime_verified"),
            "cases": counts, "ticks": sum(ticks) if ticks else None,
            "evidence": to_repo_path(written, root) if written else None,
            "traces": [to_repo_path(p, root) for p in trace_paths(record, written)] if written else []}


def _run_reference(cell: dict, plan: dict, root: Path, ev_dir: Path) -> dict:
    """Run the cell's Ascend C reference kernel as its own evidence kind (``ascendc``); its outcome is
    reported beside the golden's and never decides the cell's status."""
    opts = plan["options"]
    try:
        source = (root / cell["ascendc"]).read_text(encoding="utf-8")
        record = evaluate_cell(cell, source, {**{k: opts[k] for k in RUN_OPTIONS}, "provenance": plan["provenance"]},
                               repo=root, evidence_dir=ev_dir, kind="ascendc")
        written = write_record_with_traces(record, ev_dir)
    except Exception as exc:  # noqa: BLE001 - the reference must not cost the golden's result
        return {"status": "error", "message": _first_line(f"{type(exc).__name__}: {exc}"), "evidence": None,
                "traces": []}
    out = _outcome(record, written, root)
    return {k: out[k] for k in ("status", "message", "evidence", "traces")}


def run_planned_cell(plan: dict, cell_id: str) -> dict:
    """Run one planned cell, write its evidence record and result marker; return the outcome dict."""
    opts = plan["options"]
    root = Path(plan["root"])
    ev_dir = Path(plan["evidence_dir"])
    run_dir = RunDir(Path(plan["run_dir"]))
    cell = plan["cells"][cell_id]
    started = time.monotonic()
    try:
        source = (root / cell["golden"]).read_text(encoding="utf-8")
        record = evaluate_cell(cell, source, {**{k: opts[k] for k in RUN_OPTIONS}, "provenance": plan["provenance"]},
                               repo=root, evidence_dir=ev_dir)
        written = write_record_with_traces(record, ev_dir)
        outcome = _outcome(record, written, root)
        if cell.get("ascendc"):
            outcome["reference"] = _run_reference(cell, plan, root, ev_dir)
    except Exception as exc:  # noqa: BLE001 - a harness problem must cost only this cell
        message = f"the harness could not run this cell: {type(exc).__name__}: {exc}"
        outcome = {"status": "error", "category": "infrastructure", "message": _first_line(message),
                   "runtime_verified": False, "cases": {}, "ticks": None, "evidence": None}
        with contextlib.suppress(Exception):
            written = write_record(infrastructure_record(cell, root, opts, message), ev_dir)
            outcome["evidence"] = to_repo_path(written, root)
    outcome.update(cell=cell_id, wall_s=round(time.monotonic() - started, 3), finished_at=iso_utc())
    _write_json(run_dir.marker(cell_id), outcome)
    return outcome


# --------------------------------------------------------------------------------------------------
# progress and state updates in the controlling process


class Controller:
    """pytest plugin object registered only in the controlling process: progress display and state."""

    def __init__(self, run_dir: RunDir, state: dict, plan: dict, console, progress=None, task=None):
        self.run_dir = run_dir
        self.state = state
        self.plan = plan
        self.console = console
        self.progress = progress
        self.task = task
        self.running: list[str] = []
        self.finished: set[str] = set()
        self.total = len(plan["run"])

    @staticmethod
    def _cell(nodeid: str) -> str | None:
        return nodeid.split("::", 1)[1] if "::" in nodeid else None

    def _refresh(self) -> None:
        if self.progress is None:
            return
        running = ", ".join(self.running[:3]) + (" ..." if len(self.running) > 3 else "")
        self.progress.update(self.task, completed=len(self.finished),
                             description=f"running {running}" if running else "cells")

    def pytest_runtest_logstart(self, nodeid, location):
        cell = self._cell(nodeid)
        if cell and cell not in self.running:
            self.running.append(cell)
            self._refresh()

    def pytest_runtest_logreport(self, report):
        cell = self._cell(report.nodeid)
        if cell is None or cell in self.finished or cell not in self.plan["cells"]:
            return
        if report.when in ("setup", "call"):
            return
        self.finish_cell(cell, getattr(report, "longreprtext", "") or str(report.longrepr or ""))

    def finish_cell(self, cell: str, crash_text: str = "") -> None:
        outcome = self.run_dir.read_marker(cell)
        if outcome is None:  # the process running the cell died before recording anything
            message = "the harness process running this cell died" + (
                f": {_first_line(crash_text)}" if crash_text else "")
            outcome = {"status": "error", "category": "infrastructure", "message": message, "evidence": None,
                       "runtime_verified": False, "cases": {}, "ticks": None, "wall_s": None,
                       "cell": cell, "finished_at": iso_utc()}
            with contextlib.suppress(Exception):
                root = Path(self.plan["root"])
                rec = infrastructure_record(self.plan["cells"][cell], root, self.plan["options"], message)
                outcome["evidence"] = to_repo_path(write_record(rec, Path(self.plan["evidence_dir"])), root)
            _write_json(self.run_dir.marker(cell), outcome)
        self.finished.add(cell)
        if cell in self.running:
            self.running.remove(cell)
        self.state["results"][cell] = outcome
        self.run_dir.save_state(self.state)
        n = len(self.state["results"])
        total = len(self.state["plan"])
        detail = f" ({outcome['category']}: {outcome['message']})" if outcome.get("category") else ""
        wall = f" {outcome['wall_s']:.1f} s" if isinstance(outcome.get("wall_s"), (int, float)) else ""
        style = {"pass": "green", "skipped": "yellow"}.get(outcome["status"], "red")
        self.console.print(f"[{n}/{total}] {cell} [{style}]{outcome['status']}[/{style}]{wall}{detail}",
                           markup=True, highlight=False, soft_wrap=True)
        self._refresh()


def _run_pytest(run_dir: RunDir, plan: dict, state: dict, workers: int, console) -> int:
    import pytest
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    _write_json(run_dir.plan_path, plan)
    # Only the plugins the run needs: the environment's other pytest plugins (hypothesis, for one) would
    # be imported into every run and its workers, and on a stop, at session end, under a stop's clock.
    args = [str(run_dir.plan_path), "-p", "xdist.plugin", "-p", "asc_harness.batch.nightly_plugin", f"--asc-plan={run_dir.plan_path}",
            "-c", str(run_dir.path / "pytest.ini"), f"--rootdir={run_dir.path}", "--noconftest",
            "-p", "no:cacheprovider", "-s", "-q", "-rN"]
    args += ["-n", str(workers), "--dist", "worksteal"] if workers >= 1 else ["-n", "0"]
    progress = Progress(TextColumn("[bold]nightly[/bold]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TextColumn("{task.description}"), console=console, transient=True,
                        redirect_stdout=False, redirect_stderr=False)
    task = progress.add_task("cells", total=len(plan["run"]))
    controller = Controller(run_dir, state, plan, console, progress, task)
    saved_addopts = os.environ.pop("PYTEST_ADDOPTS", None)
    saved_autoload = os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # inherited by the workers too
    helpers = run_dir.helpers_path
    shutil.rmtree(helpers, ignore_errors=True)  # pids of an earlier run's workers name other processes now
    try:
        with open(run_dir.log_path, "w", encoding="utf-8") as log, progress, stopping.helpers_in(helpers, children=workers >= 1), \
                contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            code = pytest.main(args, plugins=[controller])
    finally:
        if saved_addopts is not None:
            os.environ["PYTEST_ADDOPTS"] = saved_addopts
        if saved_autoload is None:
            os.environ.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
        else:
            os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = saved_autoload
    # cells whose reports never arrived (a crash outside an item): record them if a marker exists
    for cell in plan["run"]:
        if cell not in controller.finished and run_dir.read_marker(cell) is not None:
            controller.finish_cell(cell)
    return int(code)


# --------------------------------------------------------------------------------------------------
# cells on a Dask cluster: workers compute, this process writes


def _adopt_recorded(ev_dir: Path, root: Path, cell_id: str, task_id: str) -> tuple[dict, Path] | None:
    """A record of ``task_id`` already written (by a coordinator killed before it saved its state)."""
    from asc_harness.store.evidence_read import records_for_cell

    for rec in reversed(records_for_cell(ev_dir, cell_id, root=root)):
        worker = (rec.data or {}).get("provenance", {}).get("worker") if rec.valid else None
        if worker and worker.get("task") == task_id:
            return rec.data, rec.path
    return None


def _run_cluster(cl, run_dir: RunDir, plan: dict, state: dict, console) -> int:
    from asc_harness.batch.remote import run_cell_task

    root, ev_dir, opts = Path(plan["root"]), Path(plan["evidence_dir"]), plan["options"]
    run_options = {**{k: opts[k] for k in RUN_OPTIONS}, "provenance": plan["provenance"]}
    total = len(state["plan"])

    def finish(cell_id: str, record: dict, written: Path, worker: dict | None) -> None:
        outcome = _outcome(record, written, root)
        outcome.update(cell=cell_id, wall_s=record.get("wall_time_s"), finished_at=iso_utc(),
                       worker=f"{worker['name']}@{worker['host']}" if worker else None)
        if cell_id in references:
            outcome["reference"] = references[cell_id]
        _write_json(run_dir.marker(cell_id), outcome)
        state["results"][cell_id] = outcome
        run_dir.save_state(state)
        detail = f" ({outcome['category']}: {outcome['message']})" if outcome.get("category") else ""
        style = {"pass": "green", "skipped": "yellow"}.get(outcome["status"], "red")
        where = f" on {outcome['worker']}" if worker else ""
        console.print(f"[{len(state['results'])}/{total}] {cell_id} [{style}]{outcome['status']}[/{style}]"
                      f"{where} {outcome['wall_s'] or 0:.1f} s{detail}", markup=True, highlight=False, soft_wrap=True)

    references: dict[str, dict] = {}   # cell -> its Ascend C reference's outcome, reported with the cell

    def finish_reference(cell_id: str, outcome: dict) -> None:
        references[cell_id] = outcome
        if cell_id in state["results"]:
            state["results"][cell_id]["reference"] = outcome
            _write_json(run_dir.marker(cell_id), state["results"][cell_id])
            run_dir.save_state(state)

    tasks, done = [], set()
    for cid in plan["run"]:
        cell = plan["cells"][cid]
        task_id = f"{state['run_id']}/{cid}"
        found = _adopt_recorded(ev_dir, root, cid, task_id)
        if found:
            finish(cid, found[0], found[1], found[0]["provenance"]["worker"])
            done.add(task_id)
            continue
        try:
            source = (root / cell["golden"]).read_text(encoding="utf-8")
        except OSError as exc:
            raise HarnessError(f"cannot read {cell['golden']}: {exc.strerror or exc}") from None
        tasks.append({"id": task_id, "cell": cell, "source": source, "options": run_options, "versions": cl.versions})
        if cell.get("ascendc") and (root / cell["ascendc"]).is_file():
            tasks.append({"id": f"{task_id}/ascendc", "cell": cell, "kind": "ascendc", "options": run_options,
                          "source": (root / cell["ascendc"]).read_text(encoding="utf-8"), "versions": cl.versions})

    def on_result(task: dict, result: dict) -> None:
        cell = task["cell"]
        if task.get("kind") == "ascendc":
            if "lost" in result:
                finish_reference(cell["id"], {"status": "error", "evidence": None, "traces": [],
                                              "message": f"the cluster lost this run: {result['lost']}"})
                return
            written = write_record_with_traces(result["record"], ev_dir)
            out = _outcome(result["record"], written, root)
            finish_reference(cell["id"], {k: out[k] for k in ("status", "message", "evidence", "traces")})
            return
        if "lost" in result:
            record = infrastructure_record(cell, root, opts, f"the cluster lost this cell: {result['lost']}")
        else:
            record = result["record"]
        finish(cell["id"], record, write_record_with_traces(record, ev_dir), result.get("worker"))

    noun = "runs" if any(t.get("kind") == "ascendc" for t in tasks) else "cells"
    cl.run(run_cell_task, tasks, on_result, noun=noun, done=done,
           label=lambda t: t["cell"]["id"] + (" (Ascend C reference)" if t.get("kind") == "ascendc" else ""))
    return 0
