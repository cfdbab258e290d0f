"""pytest plugin behind ``nightly``: one pytest item per capability cell.

``nightly`` writes a plan file (JSON: the cells to run and the run options) into its run directory
and starts pytest on that file with ``-p asc_harness.batch.nightly_plugin --asc-plan PLAN``. This plugin
collects the plan file as one item per cell, so pytest-xdist can spread the cells over processes (and
machines). Each item runs its cell through :func:`asc_harness.batch.nightly_cells.run_planned_cell`, which runs
the kernel sandboxed, writes the evidence record and a per-cell result marker; the item passes,
fails or is skipped according to the cell's result.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("asc-nightly")
    group.addoption("--asc-plan", action="store", default=None, metavar="PLAN",
                    help="nightly plan file (written by the nightly command)")


def pytest_configure(config):
    """In a pytest-xdist worker: the nightly's stop signal must reach this process too."""
    plan = config.getoption("--asc-plan")
    if plan and hasattr(config, "workerinput"):
        from asc_harness.common import stopping

        stopping.install()
        stopping.announce_helper(helpers_dir(load_plan(Path(plan))))


def pytest_unconfigure(config):
    plan = config.getoption("--asc-plan")
    if plan and hasattr(config, "workerinput"):
        (helpers_dir(load_plan(Path(plan))) / str(os.getpid())).unlink(missing_ok=True)


def helpers_dir(plan: dict) -> Path:
    """Where the workers of a nightly leave their pids (see :mod:`asc_harness.common.stopping`)."""
    from asc_harness.batch.nightly_rundir import RunDir

    return RunDir(Path(plan["run_dir"])).helpers_path


def pytest_collect_file(file_path, parent):
    plan = parent.config.getoption("--asc-plan")
    if plan and Path(file_path).resolve() == Path(plan).resolve():
        return PlanFile.from_parent(parent, path=Path(file_path))
    return None


_PLANS: dict[str, dict] = {}


def load_plan(path: Path) -> dict:
    key = str(Path(path).resolve())
    if key not in _PLANS:
        _PLANS[key] = json.loads(Path(path).read_text(encoding="utf-8"))
    return _PLANS[key]


class CellResultError(Exception):
    """The cell ran and its evidence says fail / error / timeout."""


class PlanFile(pytest.File):
    def collect(self):
        plan = load_plan(self.path)
        for cell_id in plan["run"]:
            yield CellItem.from_parent(self, name=cell_id, cell_id=cell_id)


class CellItem(pytest.Item):
    def __init__(self, *, cell_id: str, **kwargs):
        super().__init__(**kwargs)
        self.cell_id = cell_id

    def runtest(self):
        from asc_harness.batch.nightly_cells import run_planned_cell

        outcome = run_planned_cell(load_plan(self.path), self.cell_id)
        if outcome["status"] == "pass":
            return
        if outcome["status"] == "skipped":
            pytest.skip(outcome.get("message") or "skipped")
        raise CellResultError(f"{self.cell_id}: {outcome['status']}"
                              + (f" ({outcome['category']})" if outcome.get("category") else "")
                              + (f": {outcome['message']}" if outcome.get("message") else ""))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CellResultError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"cell {self.cell_id}"
