"""The nightly's run directory (``.nightly/``): its lock, the run's state and the per-cell result markers,
all written atomically, so that an interrupted nightly can continue with ``--resume``."""

from __future__ import annotations

import contextlib
import fcntl
import json
from pathlib import Path
from typing import Any

from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence import iso_utc
from asc_harness.store.registry import atomic_write_text

STATE_VERSION = 1


def _slug(cell_id: str) -> str:
    return cell_id.replace("/", "__")


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=2, allow_nan=False) + "\n")


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise HarnessError(f"{path} is unreadable ({exc}); delete it to start afresh") from None


class RunDir:
    """``.nightly/``: ``state.json`` (the run), ``plan.json`` (for the pytest items), ``results/`` markers."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.state_path = self.path / "state.json"
        self.plan_path = self.path / "plan.json"
        self.results = self.path / "results"
        self.log_path = self.path / "pytest.log"
        self.helpers_path = self.path / "helpers"  # the pids of the run's pytest-xdist workers (asc_harness.common.stopping)
        self._lock_fh = None

    def prepare(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        ignore = self.path / ".gitignore"
        if not ignore.exists():  # the run directory never shows up as a change in the repository
            ignore.write_text("*\n", encoding="utf-8")
        self.results.mkdir(exist_ok=True)
        (self.path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")

    def lock(self) -> None:
        self._lock_fh = open(self.path / "lock", "a+")
        try:
            fcntl.flock(self._lock_fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock_fh.close()
            self._lock_fh = None
            raise HarnessError(f"another nightly is running with the run directory {self.path}") from None

    def unlock(self) -> None:
        if self._lock_fh is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_fh.fileno(), fcntl.LOCK_UN)
            self._lock_fh.close()
            self._lock_fh = None

    def load_state(self) -> dict | None:
        return _read_json(self.state_path)

    def save_state(self, state: dict) -> None:
        state["updated_at"] = iso_utc()
        _write_json(self.state_path, state)

    def marker(self, cell_id: str) -> Path:
        return self.results / f"{_slug(cell_id)}.json"

    def read_marker(self, cell_id: str) -> dict | None:
        try:
            data = json.loads(self.marker(cell_id).read_text(encoding="utf-8"))
            return data if isinstance(data, dict) and data.get("cell") == cell_id else None
        except (OSError, ValueError):
            return None

    def clear_markers(self) -> None:
        for p in self.results.glob("*.json"):
            with contextlib.suppress(OSError):
                p.unlink()
