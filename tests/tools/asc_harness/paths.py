"""Locating the repository, and converting between absolute and repository-relative paths."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
SCHEMA_DIR = PACKAGE_DIR / "schema"


def _git_root(start: Path) -> Path | None:
    for candidate in [start, *start.parents]:
        if (candidate / ".git").exists():
            return candidate
    return None


def default_root() -> Path:
    """The repository root: found from this package's location, else from the current directory."""
    pkg_root = PACKAGE_DIR.parents[2]  # <root>/tests/tools/asc_harness
    if (pkg_root / "capabilities.yaml").exists() or (pkg_root / ".git").exists():
        return pkg_root
    cwd = Path.cwd().resolve()
    return _git_root(cwd) or cwd


def default_capabilities() -> Path:
    return default_root() / "capabilities.yaml"


def default_evidence_dir() -> Path:
    return default_root() / "evidence"


def to_repo_path(path: str | os.PathLike, root: str | os.PathLike) -> str | None:
    """``path`` relative to ``root`` with forward slashes, or None when it lies outside ``root``."""
    p = Path(os.path.abspath(path))
    r = Path(os.path.abspath(root))
    try:
        rel = p.relative_to(r)
    except ValueError:
        return None
    return rel.as_posix()


def from_repo_path(rel: str, root: str | os.PathLike) -> Path:
    return Path(root) / Path(*rel.split("/"))
