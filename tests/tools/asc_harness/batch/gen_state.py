"""The state of a generate run (``.generate/state.json``), for ``generate --resume``."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from asc_harness.common.errors import HarnessError

STATE_VERSION = 1
RUN_DIR_NAME = ".generate"
# options a resumed run may set afresh; every other option is the interrupted run's
RESUME_OPTIONS = ("root", "capabilities", "evidence_dir", "scheduler", "retries", "connect_timeout", "no_dashboard", "site",
                  "commit", "resume")


class RunState:
    """The attempts of one run and those already recorded, saved atomically after every attempt."""

    def __init__(self, root: Path):
        self.dir = root / RUN_DIR_NAME
        self.path = self.dir / "state.json"
        self.data: dict = {}

    def start(self, argv: list[str]) -> None:
        run_id = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + f"-{os.getpid()}"
        self.data = {"version": STATE_VERSION, "run_id": run_id, "argv": argv, "phase": "attempts", "done": {}}
        self.save()

    def load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise HarnessError(f"nothing to resume: no generate state in {self.dir}") from None
        except (OSError, ValueError) as exc:
            raise HarnessError(f"{self.path} is unreadable ({exc}); delete it to start afresh") from None
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise HarnessError(f"nothing to resume: {self.path} is not a generate state")
        if data.get("phase") == "done":
            raise HarnessError(f"nothing to resume: the run {data.get('run_id')} finished; run generate without "
                               "--resume")
        self.data = data

    def save(self) -> None:
        from asc_harness.store.registry import atomic_write_text

        self.dir.mkdir(parents=True, exist_ok=True)
        ignore = self.dir / ".gitignore"
        if not ignore.exists():  # the state never shows up as a change in the repository
            ignore.write_text("*\n", encoding="utf-8")
        atomic_write_text(self.path, json.dumps(self.data, indent=2) + "\n")

    def task_id(self, cell_id: str, attempt: int) -> str:
        return f"{self.data['run_id']}/{cell_id}#{attempt}"

    def record(self, task_id: str, outcome: dict) -> None:
        self.data["done"][task_id] = outcome
        self.save()

    def finish(self) -> None:
        self.data["phase"] = "done"
        self.save()


def resumed_args(parser, args, state: RunState):
    """The interrupted run's options, with only RESUME_OPTIONS taken from this command line."""
    for action in parser._actions:
        if action.dest in RESUME_OPTIONS or action.dest == "help":
            continue
        if getattr(args, action.dest) != action.default:
            raise HarnessError(f"--resume continues the interrupted run with its own options; drop "
                               f"{'/'.join(action.option_strings)}")
    old = parser.parse_args(state.data["argv"])
    for name in RESUME_OPTIONS:
        setattr(old, name, getattr(args, name))
    return old


def adopt_recorded(ev_dir: Path, root: Path, cell_id: str, task_ids: set[str]) -> dict[str, tuple[dict, Path]]:
    """Records of these tasks already written (by a coordinator killed before it saved its state)."""
    from asc_harness.store.evidence_read import records_for_cell

    found = {}
    for rec in records_for_cell(ev_dir, cell_id, root=root):
        worker = rec.data["provenance"].get("worker") if rec.valid and rec.kind == "generative" else None
        if worker and worker.get("task") in task_ids:
            found[worker["task"]] = (rec.data, rec.path)
    return found

