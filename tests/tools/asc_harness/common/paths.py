"""The repository root rule, and conversion between absolute and repository-relative paths.

Every tool finds the repository it works on the same way (:func:`find_root`): ``--root DIR`` when
given; else the directory of an explicit ``--capabilities FILE``; else the git work tree that
contains the current directory. Never the location of this package: one virtualenv may serve several
clones, and each run must read and write only the clone it was started in.
"""

from __future__ import annotations

import os
from pathlib import Path

from asc_harness.common.errors import HarnessError

PACKAGE_DIR = Path(__file__).resolve().parent.parent
SCHEMA_DIR = PACKAGE_DIR / "store" / "schema"


class NotInRepository(HarnessError):
    """No repository root could be determined (exit 2)."""


def git_work_tree(start: str | os.PathLike) -> Path | None:
    """The top of the git work tree containing ``start`` (a ``.git`` directory or worktree file), or None."""
    start = Path(os.path.abspath(start))
    for candidate in [start, *start.parents]:
        if (candidate / ".git").exists():
            return candidate
    return None


def find_root(explicit: str | os.PathLike | None = None, *, cwd: str | os.PathLike | None = None) -> Path:
    """The repository root: ``explicit`` (``--root``), else the git work tree containing ``cwd``.

    Raises :class:`NotInRepository` (exit 2) when neither applies.
    """
    if explicit is not None:
        root = Path(os.path.abspath(explicit))
        if not root.is_dir():
            raise NotInRepository(f"--root {explicit}: not a directory")
        return root.resolve()
    here = Path(cwd) if cwd is not None else Path.cwd()
    top = git_work_tree(here)
    if top is None:
        raise NotInRepository(f"not inside a harness repository: no git work tree contains {here}; "
                              "run from a clone or pass --root DIR")
    return top.resolve()


def default_root() -> Path:
    """The repository root of the current directory (see :func:`find_root`)."""
    return find_root()


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
