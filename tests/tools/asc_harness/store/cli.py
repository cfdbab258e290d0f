"""Shared command-line plumbing: common options, path defaults, and error handling without tracebacks."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable, Sequence

from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import find_root
from asc_harness.store.registry import STATUS_HELP, check_patterns


class _Formatter(argparse.RawDescriptionHelpFormatter):
    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30, width=100)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no traceback
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def make_parser(prog: str, description: str, exit_codes: str, *, statuses: bool = True) -> argparse.ArgumentParser:
    epilog = (STATUS_HELP + "\n\n" if statuses else "") + "exit codes:\n" + exit_codes
    return _Parser(prog=prog, description=description, epilog=epilog, formatter_class=_Formatter)


def add_path_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", metavar="DIR", type=Path,
                        help="repository root (default: the directory of --capabilities, else the git work "
                             "tree containing the current directory)")
    parser.add_argument("--capabilities", metavar="PATH", type=Path,
                        help="capability registry (default: capabilities.yaml at the repository root)")
    parser.add_argument("--evidence-dir", metavar="PATH", type=Path,
                        help="evidence directory (default: evidence/ next to the capabilities file)")


def add_cells_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cells", metavar="PATTERN", action="append", default=[],
                        help="only these cells: op/dtype/platform with shell globs, e.g. 'abs/*' or "
                             "'*/float32/*' (repeatable, comma-separated allowed)")


def resolve_root(args: argparse.Namespace) -> Path:
    """The repository root: --root, else the directory of --capabilities, else the git work tree of the cwd."""
    explicit = getattr(args, "root", None)
    cap = getattr(args, "capabilities", None)
    if explicit is None and cap is not None:
        return Path(os.path.abspath(cap)).parent.resolve()
    return find_root(explicit)


def resolve_paths(args: argparse.Namespace, *, need_evidence_inside: bool = True) -> tuple[Path, Path, Path]:
    """(capabilities file, evidence dir, repository root) from the common options (see paths.find_root)."""
    root = resolve_root(args)
    cap = Path(os.path.abspath(args.capabilities)) if getattr(args, "capabilities", None) else root / "capabilities.yaml"
    if cap.resolve().parent != root:
        raise HarnessError(f"the capabilities file {cap} must be at the repository root {root} (its golden and "
                           "evidence paths are relative to that root)")
    if not cap.is_file():
        what = "is a directory, not a file" if cap.is_dir() else "not found"
        raise HarnessError(f"capabilities file {what}: {cap}" + (
            "" if getattr(args, "capabilities", None) else f" (repository root {root}; pass --root DIR)"))
    ev = Path(args.evidence_dir) if getattr(args, "evidence_dir", None) else root / "evidence"
    ev = Path(os.path.abspath(ev))
    if ev.exists() and not ev.is_dir():
        raise HarnessError(f"evidence path is not a directory: {ev}")
    if need_evidence_inside:
        try:
            ev.resolve().relative_to(root)
        except ValueError:
            raise HarnessError(f"the evidence directory {ev} must be inside the repository root {root} so that "
                               "evidence links stay repository-relative") from None
    return cap, ev, root


def cell_patterns(args: argparse.Namespace) -> list[str]:
    return check_patterns(getattr(args, "cells", None))


def run_main(body: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None, prog: str) -> int:
    """Call ``body(argv)``; user errors print one line and return their exit code."""
    try:
        return body(argv)
    except HarnessError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
