"""Work that a cluster worker does for a coordinator: pure functions of plain data (no Dask import).

A task is a JSON-able dict: the cell, the source of every file the run needs (by repository-relative
path), the run options and the coordinator's versions. The worker materialises the files in a fresh
temporary directory that stands in for the repository, runs them exactly as a local run would (same
runner, same sandbox), and returns the evidence record as plain JSON. It writes nothing that
outlives the task; the coordinator alone writes evidence, the registry and the site.

Records built here carry repository-relative paths (the temporary root takes the repository's
place) and no harness commit (the worker has no checkout): the coordinator fills that in.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import importlib.util
import socket
import sys
from pathlib import Path
from typing import Any, Mapping

from asc_harness.common.errors import HarnessError

PACKAGE_DIR = Path(__file__).resolve().parent.parent
DISTRIBUTION = "asc-embedded"
_versions_cache: dict[str, dict] = {}


# --------------------------------------------------------------------------------------------------
# versions: what a worker must share with its coordinator


def _tree_hash(directories: list[Path], patterns: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    for top in directories:
        files = sorted(p for pat in patterns for p in top.rglob(pat) if "__pycache__" not in p.parts)
        for p in files:
            h.update(p.relative_to(top.parent).as_posix().encode())
            h.update(b"\0")
            h.update(p.read_bytes())
            h.update(b"\0")
    return h.hexdigest()[:12]


def _package_dirs(*names: str) -> list[Path]:
    dirs = []
    for name in names:
        spec = importlib.util.find_spec(name)  # locates the package without importing it
        if spec is not None and spec.submodule_search_locations:
            dirs.append(Path(list(spec.submodule_search_locations)[0]))
    return dirs


def versions(engine: str = "embedded") -> dict:
    """This process's harness and engine identity; a worker must match its coordinator exactly.

    ``harness``: the distribution version and a hash of the harness code and schemas (evidence is
    built by that code). ``engine``: for the embedded engine, the compiler's version and a hash of
    its source; for pyasc, the versions the pyasc interpreter reports.
    """
    if engine in _versions_cache:
        return _versions_cache[engine]
    try:
        dist = importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        dist = "unknown"
    harness = f"{DISTRIBUTION} {dist} (harness {_tree_hash([PACKAGE_DIR], ('*.py', '*.json'))})"
    if engine == "embedded":
        dirs = _package_dirs("asc", "asc2")
        engine_id = f"embedded {dist} (compiler {_tree_hash(dirs, ('*.py',)) if dirs else 'missing'})"
    else:
        from asc_harness.run.engines import engine_facts, interpreter_for

        facts = engine_facts(interpreter_for(engine), engine)
        engine_id = (f"{engine} {facts.get('engine_version')} (pyasc {facts.get('pyasc_revision')}, "
                     f"CANN {facts.get('cann_version')})")
    out = {"harness": harness, "engine": engine_id,
           "python": "%d.%d" % sys.version_info[:2]}
    _versions_cache[engine] = out
    return out


def version_mismatch(mine: Mapping[str, str], theirs: Mapping[str, str]) -> str | None:
    """A one-line description of how a worker's versions differ from the coordinator's, or None."""
    diffs = [f"{key} {mine.get(key)!r} (coordinator: {theirs.get(key)!r})"
             for key in ("harness", "engine", "python") if mine.get(key) != theirs.get(key)]
    return "; ".join(diffs) if diffs else None


def worker_identity(name: Any) -> dict:
    return {"name": str(name), "host": socket.gethostname()}


# --------------------------------------------------------------------------------------------------
# files travelling with a task


def pack_files(root: Path, rel_paths: list[str]) -> dict[str, str]:
    """{repository-relative path: base64 content} for the files a task needs."""
    out = {}
    for rel in rel_paths:
        path = root / rel
        try:
            out[rel] = base64.b64encode(path.read_bytes()).decode("ascii")
        except OSError as exc:
            raise HarnessError(f"cannot read {rel} for a remote run: {exc.strerror or exc}") from None
    return out


def decode(data: str) -> bytes:
    return base64.b64decode(data)


def materialise(files: Mapping[str, str], root: Path) -> None:
    for rel, data in files.items():
        target = (root / rel).resolve()
        if root.resolve() not in target.parents:
            raise ValueError(f"refusing a task file outside the task directory: {rel}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(data))


def collect(root: Path, directory: Path) -> dict[str, str]:
    if not directory.is_dir():
        return {}
    return {p.relative_to(root).as_posix(): base64.b64encode(p.read_bytes()).decode("ascii")
            for p in sorted(directory.rglob("*")) if p.is_file() and not p.name.startswith(".")}


# --------------------------------------------------------------------------------------------------
# tasks


def check_versions(task: Mapping[str, Any], worker: dict) -> dict | None:
    engine = (task.get("options") or {}).get("engine", "embedded")
    mine = versions(engine)
    diff = version_mismatch(mine, task["versions"])
    if diff:
        return {"id": task["id"], "worker": worker,
                "refused": f"worker {worker['name']} on {worker['host']} runs a different version: {diff}"}
    return None


def stamp(record: dict, worker: dict, task_id: str) -> dict:
    record["provenance"]["worker"] = {"name": worker["name"], "host": worker["host"], "task": task_id}
    return record


def run_cell_task(task: Mapping[str, Any], worker: dict) -> dict:
    """One golden cell (``"kind": "ascendc"``: its Ascend C reference kernel): ``{"id", "cell", "source",
    "options", "versions"}`` -> ``{"id", "worker", "record"}``.

    The run is :func:`asc_harness.batch.pipeline.evaluate_cell`, as for a local run; ``options`` carry the
    coordinator's ``provenance`` (harness commit).
    """
    refused = check_versions(task, worker)
    if refused:
        return refused
    from asc_harness.batch.pipeline import evaluate_cell

    record = evaluate_cell(task["cell"], task["source"], task["options"], kind=task.get("kind", "golden"))
    return {"id": task["id"], "worker": worker, "record": stamp(record, worker, task["id"])}
