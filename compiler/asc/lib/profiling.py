"""``asc.lib.profiling``: pyasc's profiler API, backed by the simulator's tick model.

Every kernel launch inside ``Profiler.profile()`` (or between ``start()`` and ``stop()``) becomes one
``ProfilingTask``: the kernel's name, a task type from the units it uses (vector only ``AI_VECTOR_CORE``,
cube only ``AI_CORE``, both ``MIX_AIC``) and its duration in microseconds, the launch's ticks divided by
the platform's clock (``Hardware.clock_mhz``). Each stored run also gets a Chrome trace-event timeline
(``<result_path>/<run_id>/timeline.json``, opens in Perfetto UI and chrome://tracing).
"""
from __future__ import annotations

import enum
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Iterable, Optional

import numpy as np

from ..runtime import config, launcher
from ..runtime.platforms import hardware
from ..sim import timeline
from ..sim.timeline import chrome_trace

TASK_TYPES = frozenset({"AI_CORE", "AIV_SQE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV", "KERNEL_AIVEC",
                        "KERNEL_AICORE"})


class AicoreMetrics(enum.Enum):
    """AI Core metric groups (accepted for compatibility; the tick model reports pipe busy time)."""
    ARITHMETIC_UTILIZATION = 0
    PIPE_UTILIZATION = 1
    MEMORY_BANDWIDTH = 2
    L0B_AND_WIDTH = 3
    RESOURCE_CONFLICT_RATIO = 4
    MEMORY_UB = 5
    L2_CACHE = 6
    PIPE_EXECUTE_UTILIZATION = 7
    MEMORY_ACCESS = 8
    NONE = 0xFF


class ProfileType(enum.Enum):
    """Profiling data categories (accepted for compatibility)."""
    ACL_API = 0x0001
    TASK_TIME = 0x0002
    AICORE_METRICS = 0x0004
    AICPU = 0x0008
    L2CACHE = 0x0010
    HCCL_TRACE = 0x0020
    TRAINING_TRACE = 0x0040
    MSPROFTX = 0x0080
    RUNTIME_API = 0x0100
    TASK_TIME_L0 = 0x0800


@dataclass(frozen=True)
class ProfilingTask:
    """One kernel launch: ``duration`` in microseconds."""
    id: int
    name: str
    type: str
    duration: float


@dataclass(frozen=True)
class ProfilingResult:
    """The tasks of one profiled run."""
    tasks: tuple
    run_id: str
    stored_at: datetime


def task_time_median(tasks: Iterable[ProfilingTask], name: Optional[str] = None, skip: int = 0) -> float:
    """Median duration (µs, 3 decimals) of the kernel tasks named ``name`` (default: the first kernel
    task's name), dropping the first ``skip`` samples when more remain."""
    values = []
    for task in tasks:
        if task.type not in TASK_TYPES:
            continue
        if name is None:
            name = task.name
        if task.name == name:
            values.append(task.duration)
    if not values:
        raise RuntimeError(f"There is no timings for task {name!r}")
    if len(values) > skip:
        values = values[skip:]
    return round(float(np.median(np.asarray(values, dtype=np.float64))), 3)


def task_type(report) -> str:
    """The msprof task type of a launch, from the pipes it kept busy."""
    pipes = report.get("pipes", {})
    cube = any(p in pipes for p in ("M", "MTE1", "FIX"))
    vector = "V" in pipes or not cube
    if cube and vector:
        return "MIX_AIC"
    return "AI_CORE" if cube else "AI_VECTOR_CORE"


def duration_us(report) -> float:
    """The launch's ticks over its platform's clock, in microseconds."""
    clock = hardware(config.Platform(report["platform"])).clock_mhz
    return report["ticks"] / clock


class Profiler:
    """Collects the launches of a block of code: ``with profiler.profile(): kernel[n](...)``."""

    def __init__(self, result_path: Optional[str] = None):
        self.result_path = result_path
        self.auto_remove = result_path is None
        self.results: dict = {}
        self.started = False
        self._reports: list = []

    @property
    def last_result(self) -> ProfilingResult:
        if not self.results:
            raise RuntimeError("No results were stored, maybe profiling was never finished")
        return self.results[next(reversed(self.results))]

    def _record(self, report):
        self._reports.append(report)

    def start(self, device_id: Optional[int] = None, metrics: AicoreMetrics = AicoreMetrics.PIPE_UTILIZATION,
              profile_types: Optional[Iterable[ProfileType]] = None) -> None:
        if device_id is not None and (not isinstance(device_id, int) or isinstance(device_id, bool) or device_id < 0):
            raise RuntimeError(f"Device handle should be int >= 0, but '{device_id}' with {type(device_id)} type "
                               "was given")
        if self.result_path is None:
            self.result_path = tempfile.mkdtemp(prefix="pyasc_profiler_")
        else:
            self.result_path = str(Path(self.result_path).resolve())
            os.makedirs(self.result_path, exist_ok=True)
        self._reports = []
        if self._record not in launcher.LAUNCH_LISTENERS:
            launcher.LAUNCH_LISTENERS.append(self._record)
        timeline.start_recording()   # reports carry the per-pipe schedule for timeline.json
        self.started = True

    def stop(self) -> None:
        if not self.started:
            return
        if self._record in launcher.LAUNCH_LISTENERS:
            launcher.LAUNCH_LISTENERS.remove(self._record)
        timeline.stop_recording()
        self.started = False
        self._write_run()

    def _write_run(self):
        run_id = datetime.now().strftime("PROF_%Y%m%d%H%M%S_%f")
        run_dir = Path(self.result_path) / run_id
        run_dir.mkdir(parents=True, exist_ok=True)
        tasks = [{"id": i, "name": r["kernel"], "type": task_type(r), "duration": duration_us(r)}
                 for i, r in enumerate(self._reports)]
        clock = hardware(config.current_platform()).clock_mhz if not self._reports else \
            hardware(config.Platform(self._reports[0]["platform"])).clock_mhz
        _write_json(run_dir / "tasks.json", tasks)
        _write_json(run_dir / "timeline.json", chrome_trace(self._reports, clock))

    def store_result(self, run_id: str) -> ProfilingResult:
        run_dir = Path(self.result_path) / run_id
        if not run_dir.is_dir():
            raise RuntimeError(f"{run_dir} is not a directory")
        try:
            rows = json.loads((run_dir / "tasks.json").read_text())
        except (OSError, ValueError):
            raise RuntimeError(f"There is no task report in {run_dir}") from None
        tasks = tuple(ProfilingTask(int(t["id"]), t["name"], t["type"], float(t["duration"])) for t in rows)
        self.results[run_id] = ProfilingResult(tasks, run_id, stored_at=datetime.now())
        return self.results[run_id]

    def store_last_result(self) -> ProfilingResult:
        runs = sorted(d for d in os.listdir(self.result_path) if (Path(self.result_path) / d).is_dir())
        if not runs:
            raise RuntimeError(f"There is no profiling results in {self.result_path}")
        return self.store_result(runs[-1])

    def cleanup(self) -> None:
        if self.auto_remove and self.result_path and os.path.isdir(self.result_path):
            shutil.rmtree(self.result_path)
            self.result_path = None

    @contextmanager
    def profile(self, device_id: Optional[int] = None, cleanup: bool = True,
                metrics: AicoreMetrics = AicoreMetrics.PIPE_UTILIZATION,
                profile_types: Optional[Iterable[ProfileType]] = None):
        """Profile the launches of the ``with`` body; the result is stored as ``last_result``."""
        try:
            self.start(device_id, metrics=metrics, profile_types=profile_types)
            yield self
            self.stop()
            self.store_last_result()
        finally:
            if self.started:
                self.stop()
            if cleanup:
                self.cleanup()


def _write_json(path: Path, data):
    """Write atomically: a reader never sees a half-written file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f)
    os.replace(tmp, path)


__all__ = ["AicoreMetrics", "ProfileType", "Profiler", "ProfilingResult", "ProfilingTask", "task_time_median"]
