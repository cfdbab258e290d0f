"""Snapshots of a repository's git-tracked files and evidence directory, taken around a sandboxed run in
the process-tree confinement (which cannot stop writes): what the run changed, and putting back the
tracked files it changed or deleted."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from asc_harness.store.evidence import RECORD_NAME_RE

_SNAPSHOT_LIMIT_BYTES = 16 << 20       # larger files are fingerprinted by size and mtime only


def _tracked_files(repo: Path) -> list[str]:
    try:
        out = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, timeout=60,
                             check=True).stdout
        return [p for p in out.decode("utf-8", errors="surrogateescape").split("\0") if p]
    except (OSError, subprocess.SubprocessError):
        return []


@dataclass
class _Entry:
    size: int
    mtime_ns: int
    digest: str | None
    data: bytes | None
    mode: int


def _entry(path: Path) -> _Entry | None:
    try:
        st = path.stat()
    except OSError:
        return None
    data = None
    if st.st_size <= _SNAPSHOT_LIMIT_BYTES and path.is_file():
        try:
            data = path.read_bytes()
        except OSError:
            data = None
    digest = hashlib.sha256(data).hexdigest() if data is not None else None
    return _Entry(st.st_size, st.st_mtime_ns, digest, data, st.st_mode & 0o7777)


def snapshot(repo: str | os.PathLike, evidence_dir: str | os.PathLike | None = None) -> dict[str, _Entry | None]:
    """{repo-relative path: entry} for git-tracked files and the evidence directory (content kept)."""
    repo = Path(repo).resolve()
    tracked = set(_tracked_files(repo))
    names = set(tracked)
    ev = Path(evidence_dir).resolve() if evidence_dir else repo / "evidence"
    if ev.is_dir():
        for p in ev.rglob("*"):
            if p.is_file():
                try:
                    names.add(p.relative_to(repo).as_posix())
                except ValueError:
                    names.add(str(p))
    snap = {name: _entry(repo / name) for name in sorted(names)}
    snap[".tracked"] = tracked  # type: ignore[assignment]
    return snap


def _same(b: _Entry | None, a: _Entry | None) -> bool:
    if b is None or a is None:
        return b is a
    if b.size != a.size:
        return False
    if b.digest is not None and a.digest is not None:
        return b.digest == a.digest
    return b.mtime_ns == a.mtime_ns


def diff_snapshots(before: dict, after: dict) -> list[str]:
    changes = []
    for name in sorted((set(before) | set(after)) - {".tracked"}):
        b, a = before.get(name), after.get(name)
        if _same(b, a):
            continue
        base = name.rsplit("/", 1)[-1]
        if b is None and (RECORD_NAME_RE.match(base) or base.startswith(".tmp-")):
            continue  # a new record from a concurrent harness writer (records are append-only)
        kind = "added" if b is None else "deleted" if a is None else "modified"
        changes.append(f"{name} ({kind})")
    return changes


def restore(repo: Path, before: dict, changes: list[str]) -> tuple[list[str], list[str]]:
    """Put back every changed or deleted tracked file whose content the snapshot holds.

    Returns (restored changes, changes left as they are)."""
    tracked = before.get(".tracked") or set()
    restored, left = [], []
    for change in changes:
        name, _, kind = change.rpartition(" (")
        entry = before.get(name)
        if name in tracked and entry is not None and entry.data is not None:
            target = repo / name
            try:
                if target.is_symlink() or target.is_dir():
                    shutil.rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
                target.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(prefix=".restore-", dir=target.parent)
                with os.fdopen(fd, "wb") as fh:
                    fh.write(entry.data)
                os.chmod(tmp, entry.mode)
                os.replace(tmp, target)
                restored.append(f"{name} ({kind.rstrip(')')}, restored)")
                continue
            except OSError:
                pass
        left.append(change)
    return restored, left
