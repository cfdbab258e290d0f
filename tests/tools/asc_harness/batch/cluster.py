"""Running cells on a Dask cluster: the coordinator's side (``nightly`` / ``generate --scheduler``).

Imported only when a scheduler is requested, so the local path never imports Dask. The coordinator
submits one task per cell (per attempt for ``generate``); a task is plain data and runs
:mod:`asc_harness.batch.remote` on a worker, which returns the evidence record as JSON. Results come back
here and the caller's ``on_result`` records them (the coordinator alone writes files).

Faults: Dask reschedules a task whose worker died (the scheduler's ``allowed-failures``); when that
is exhausted, or the task itself raised, the task is resubmitted up to ``retries`` times before the
caller is handed a ``lost`` result. Every task has an id; a second result for an id already
recorded is dropped. Workers whose harness or engine differs from the coordinator's are refused.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
from collections import Counter
from typing import Callable, Iterable

from asc_harness.batch import remote
from asc_harness.common import stopping
from asc_harness.common.errors import HarnessError

ENV_VAR = "ASC_SCHEDULER"
DEFAULT_CONNECT_TIMEOUT_S = 10.0
DEFAULT_RETRIES = 2
WORKER_WAIT_S = 60.0
_LOCAL = re.compile(r"^local:(\d+)$")
_ADDRESS = re.compile(r"^(?:(tcp|tls|inproc|ucx|ws|wss)://)?[\w.\-\[\]:]+$")


class WorkerRefused(HarnessError):
    """A worker runs another harness or engine version than the coordinator."""


def add_options(parser) -> None:
    group = parser.add_argument_group("cluster (dask.distributed)")
    group.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help=f"run the cells on the Dask cluster at ADDRESS (tcp://host:8786), or on local:N, "
                            f"a cluster of N worker processes on this machine (default: ${ENV_VAR}; unset: "
                            "no cluster)")
    group.add_argument("--retries", type=int, default=None, metavar="N",
                       help=f"resubmissions of a task whose run was lost, e.g. its worker died (default "
                            f"{DEFAULT_RETRIES}; cluster runs only)")
    group.add_argument("--connect-timeout", type=float, default=None, metavar="S",
                       help=f"seconds to wait for the scheduler (default {DEFAULT_CONNECT_TIMEOUT_S:g})")


def scheduler_from(args) -> str | None:
    """The requested scheduler (option, else $ASC_SCHEDULER), validated; None for a local run."""
    value = args.scheduler if args.scheduler is not None else os.environ.get(ENV_VAR)
    if args.scheduler is None and not (value or "").strip():
        value = None
    if value is None:
        if args.retries is not None or args.connect_timeout is not None:
            raise HarnessError("--retries and --connect-timeout apply to cluster runs; give --scheduler too")
        return None
    value = value.strip()
    m = _LOCAL.match(value)
    if m:
        if int(m.group(1)) < 1:
            raise HarnessError("--scheduler local:N needs N >= 1 worker processes")
    elif value.startswith("local") or not _ADDRESS.match(value):
        raise HarnessError(f"--scheduler {value!r}: expected a scheduler address such as tcp://host:8786, "
                           "or local:N for N local worker processes")
    if args.retries is not None and args.retries < 0:
        raise HarnessError("--retries must be >= 0")
    if args.connect_timeout is not None and args.connect_timeout <= 0:
        raise HarnessError("--connect-timeout must be positive")
    return value


def _execute(fn: Callable[[dict, dict], dict], task: dict) -> dict:
    """Runs on the worker: the task's function (pickled by reference), told which worker it runs on."""
    from distributed import get_worker

    return fn(task, remote.worker_identity(get_worker().name))


def _worker_versions(engine: str) -> dict:
    return remote.versions(engine)


class Cluster:
    """A connected Dask client (and the LocalCluster behind ``local:N``) with the harness's checks."""

    def __init__(self, spec: str, *, engine: str, console, retries: int | None = None,
                 connect_timeout: float | None = None):
        self.spec = spec
        self.engine = engine
        self.console = console
        self.retries = DEFAULT_RETRIES if retries is None else retries
        self.connect_timeout = connect_timeout or DEFAULT_CONNECT_TIMEOUT_S
        self.client = None
        self.local = None
        self.versions = remote.versions(engine)

    # -- connecting ----------------------------------------------------------------------------------

    def __enter__(self) -> "Cluster":
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise HarnessError(f"--scheduler needs dask.distributed ({exc}); install it with "
                               "pip install 'asc-embedded[cluster]'") from None
        for name in ("distributed", "distributed.worker", "distributed.nanny", "distributed.scheduler",
                     "distributed.core", "distributed.comm", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL)  # worker deaths are reported by us
        m = _LOCAL.match(self.spec)
        try:
            if m:
                with dask.config.set({"distributed.worker.daemon": False,
                                      "distributed.scheduler.allowed-failures": max(1, self.retries + 1)}):
                    self.local = LocalCluster(n_workers=int(m.group(1)), threads_per_worker=1, processes=True,
                                              dashboard_address=":0", silence_logs=logging.CRITICAL)
                self.client = Client(self.local, timeout=self.connect_timeout)
            else:
                self.client = Client(self.spec, timeout=self.connect_timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            self.close()
            raise HarnessError(f"cannot reach the Dask scheduler at {self.spec}: {_first(exc)} (start one "
                               "with `dask scheduler`, or use --scheduler local:N)") from None
        try:
            self.client.wait_for_workers(1, timeout=WORKER_WAIT_S)
        except (TimeoutError, OSError):
            self.close()
            raise HarnessError(f"the Dask scheduler at {self.spec} has no workers (waited {WORKER_WAIT_S:g} s); "
                               f"start some with `dask worker {self.spec}`") from None
        try:
            self.check_workers()
        except BaseException:
            self.close()
            raise
        link = self.dashboard()
        names = sorted(self.worker_names().values())
        self.console.print(f"cluster: {self.address} with {len(names)} worker(s)"
                           + (f"; dashboard {link}" if link else ""), highlight=False)
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.close(timeout=10)
            self.client = None
        if self.local is not None:
            with contextlib.suppress(Exception):
                self.local.close(timeout=10)
            self.local = None

    @property
    def address(self) -> str:
        return self.client.scheduler.address if self.client is not None else self.spec

    def dashboard(self) -> str | None:
        try:
            services = self.client.scheduler_info().get("services") or {}
        except Exception:  # noqa: BLE001 - only informative
            return None
        return self.client.dashboard_link if "dashboard" in services else None

    def worker_names(self) -> dict[str, str]:
        info = self.client.scheduler_info().get("workers") or {}
        return {addr: str(w.get("name", addr)) for addr, w in info.items()}

    def check_workers(self) -> None:
        """Refuse the run when a connected worker runs other harness or engine code."""
        try:
            found = self.client.run(_worker_versions, self.engine, on_error="return")
        except Exception as exc:  # noqa: BLE001 - a worker that cannot even answer
            raise HarnessError(f"cannot ask the workers of {self.spec} for their versions: {_first(exc)}") from None
        names = self.worker_names()
        bad = []
        for addr, theirs in found.items():
            if isinstance(theirs, BaseException):
                bad.append(f"worker {names.get(addr, addr)} ({addr}) cannot run the harness: {_first(theirs)}")
                continue
            diff = remote.version_mismatch(theirs, self.versions)
            if diff:
                bad.append(f"worker {names.get(addr, addr)} ({addr}): {diff}")
        if bad:
            raise WorkerRefused("refusing workers whose harness or engine differs from this one (install the "
                                "same asc-embedded on every worker): " + "; ".join(bad))

    # -- running -------------------------------------------------------------------------------------

    def run(self, fn: Callable[[dict, dict], dict], tasks: Iterable[dict],
            on_result: Callable[[dict, dict], None], *, label: Callable[[dict], str], noun: str = "cells",
            done: set[str] | None = None) -> dict:
        """Run ``fn(task, worker)`` on the cluster for every task; hand each task id's first result to
        ``on_result(task, result)``. ``fn`` must be a module-level function of the harness.

        A result is ``{"id", "worker", "record", ...}``, or ``{"id", "lost": message}`` once a task
        has been lost more than ``retries`` times. Returns ``{"per_worker": {...}, "duplicates": n,
        "resubmitted": n}``. Raises WorkerRefused when a worker refuses a task for a version mismatch.
        """
        from distributed import as_completed
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        tasks = list(tasks)
        done = set(done or ())
        tries: Counter = Counter()
        by_key: dict[str, dict] = {}
        per_worker: Counter = Counter()
        stats = {"duplicates": 0, "resubmitted": 0}
        pending = as_completed(loop=self.client.loop)
        unique = len({t["id"] for t in tasks} - done)

        def submit(task: dict) -> None:
            tries[task["id"]] += 1
            key = f"asc-{len(by_key)}-{_key_part(task['id'])}"
            fut = self.client.submit(_execute, fn, task, key=key, pure=False)
            by_key[fut.key] = task
            pending.add(fut)

        progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), console=self.console, transient=False)
        bar = progress.add_task(noun, total=unique)
        started = time.monotonic()
        try:
            with progress:
                for task in tasks:
                    if task["id"] not in done:
                        submit(task)
                for fut in pending:
                    task = by_key[fut.key]
                    result = self._result(fut, task)
                    fut.release()
                    if result is None:  # lost, resubmitted
                        if tries[task["id"]] <= self.retries:
                            stats["resubmitted"] += 1
                            progress.console.print(f"  {label(task)}: run lost; resubmitting "
                                                   f"({tries[task['id']]} of {self.retries})", highlight=False)
                            submit(task)
                            continue
                        result = {"id": task["id"], "worker": None,
                                  "lost": f"the run was lost {tries[task['id']]} time(s): {self._last_error}"}
                    if result.get("refused"):
                        raise WorkerRefused(result["refused"] + "; refusing to mix evidence of different versions")
                    if result["id"] in done:
                        stats["duplicates"] += 1
                        continue
                    done.add(result["id"])
                    on_result(task, result)
                    worker = result.get("worker") or {}
                    if worker:
                        per_worker[f"{worker['name']}@{worker['host']}"] += 1
                    counts = "  ".join(f"{w}: {n}" for w, n in sorted(per_worker.items()))
                    progress.update(bar, advance=1, description=f"{noun} [dim]({counts})[/dim]")
        except BaseException:
            with contextlib.suppress(Exception):
                self.client.cancel(list(pending.futures) if hasattr(pending, "futures") else [])
            with contextlib.suppress(Exception):  # a cancelled task's thread runs on: stop its sandboxed command
                self.client.run(stopping.kill_running_groups)
            raise
        elapsed = time.monotonic() - started
        shares = ", ".join(f"{w} {n}" for w, n in sorted(per_worker.items()))
        self.console.print(f"cluster: {sum(per_worker.values())} {noun} in {elapsed:.1f} s on "
                           f"{len(per_worker)} worker(s) ({shares})"
                           + (f"; {stats['resubmitted']} resubmitted" if stats["resubmitted"] else "")
                           + (f"; {stats['duplicates']} duplicate result(s) dropped" if stats["duplicates"] else ""),
                           highlight=False)
        return {"per_worker": dict(per_worker), "elapsed_s": elapsed, **stats}

    _last_error = ""

    def _result(self, fut, task: dict) -> dict | None:
        """The task's result, or None when its run was lost (worker died, harness error, cancelled)."""
        try:
            return fut.result()
        except Exception as exc:  # noqa: BLE001 - KilledWorker, CancelledError, an error in the task
            self._last_error = f"{type(exc).__name__}: {_first(exc)}"
            return None


def _key_part(task_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.#-]", "_", task_id)


def _first(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
