"""Reading evidence records: one record (validated), every record under the evidence directory or of one
cell, oldest first, with unreadable or invalid files reported rather than skipped; and the up-front
check that stops a tool on corrupt evidence. Writing is :mod:`asc_harness.store.evidence`."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from asc_harness.common.paths import to_repo_path
from asc_harness.store.evidence import RECORD_NAME_RE, EvidenceError, cell_dir, validate_record


@dataclass
class LoadedRecord:
    path: Path
    link: str               # path relative to the repository root, as stored in capabilities.yaml
    kind: str
    stamp: str              # the UTC timestamp from the file name (sortable)
    data: dict | None       # None when the file could not be read or does not validate
    error: str | None = None

    @property
    def valid(self) -> bool:
        return self.data is not None and self.error is None


def load_record(path: str | os.PathLike) -> dict:
    """Read one record; raises EvidenceError if it is unreadable, not JSON or invalid."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EvidenceError(f"evidence record not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EvidenceError(f"cannot read evidence record {path}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EvidenceError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    issues = validate_record(data)
    if issues:
        raise EvidenceError(f"{path}: invalid evidence record: " + "; ".join(str(i) for i in issues[:5]))
    return data


def _load(path: Path, root: Path) -> LoadedRecord:
    m = RECORD_NAME_RE.match(path.name)
    kind = m.group("kind") if m else "unknown"
    stamp = m.group("stamp") if m else ""
    link = to_repo_path(path, root) or str(path)
    try:
        data = load_record(path)
    except EvidenceError as exc:
        return LoadedRecord(path, link, kind, stamp, None, str(exc))
    if m is None:
        return LoadedRecord(path, link, kind, stamp, data,
                            f"{path}: file name is not <kind>-<YYYYmmddTHHMMSSffffff>Z-<4 hex>.json")
    if data["kind"] != kind:
        return LoadedRecord(path, link, kind, stamp, data,
                            f"{path}: record kind {data['kind']!r} does not match its file name")
    return LoadedRecord(path, link, kind, stamp, data)


def iter_records(evidence_dir: str | os.PathLike, *, root: str | os.PathLike,
                 cell: str | None = None, kinds: Iterable[str] | None = None) -> Iterator[LoadedRecord]:
    """Records under ``evidence_dir`` (optionally one cell / some kinds), oldest first.

    Unreadable or invalid files are yielded too, with ``data`` None and ``error`` set, so callers can
    report them; files that are not ``*.json`` and temporary files are ignored.
    """
    evidence_dir = Path(evidence_dir)
    root = Path(root).resolve()
    kinds = set(kinds) if kinds else None
    if cell is not None:
        dirs = [cell_dir(evidence_dir, cell)]
        paths = [p for d in dirs if d.is_dir() for p in d.iterdir()]
    else:
        paths = list(evidence_dir.glob("*/*/*/*.json")) if evidence_dir.is_dir() else []
    loaded = []
    for p in paths:
        if p.suffix != ".json" or p.name.startswith(".") or not p.is_file():
            continue
        rec = _load(p, root)
        if kinds is not None and rec.kind not in kinds:
            continue
        try:
            stored_under = "/".join(p.relative_to(evidence_dir).parts[:3])
        except ValueError:
            stored_under = cell
        if rec.data is not None and rec.error is None and rec.data.get("cell") != stored_under:
            rec.error = f"{p}: record is for cell {rec.data.get('cell')!r} but is stored under {stored_under!r}"
        loaded.append(rec)
    loaded.sort(key=lambda r: (r.stamp, r.path.name))
    yield from loaded


def require_valid_evidence(evidence_dir: str | os.PathLike, *, root: str | os.PathLike) -> None:
    """Raise EvidenceError (exit 2) naming the corrupt records under ``evidence_dir``, if there are any.

    Tools that write evidence or derive statuses call this before they start, so that a corrupt record
    stops them up front instead of after every cell ran."""
    bad = [r for r in iter_records(evidence_dir, root=root) if not r.valid]
    if bad:
        more = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
        raise EvidenceError(f"corrupt evidence ({len(bad)} record(s)); fix or remove them, check_capabilities "
                            "lists them all: " + "; ".join(str(r.error) for r in bad[:3]) + more)


def records_for_cell(evidence_dir: str | os.PathLike, cell: str, *, root: str | os.PathLike) -> list[LoadedRecord]:
    return list(iter_records(evidence_dir, root=root, cell=cell))
