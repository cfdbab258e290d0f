#!/usr/bin/env python3
"""Evidence growth under the retention window: N committing nightlies in a throwaway clone.

Clones this repository (its committed HEAD) into a temporary directory and runs ``nightly --commit
--no-dashboard`` there N times (default 10) with this environment's interpreter; the clone is the
nightly's repository (``--root``), so this checkout is never touched. After each nightly it prints the
files and bytes in the clone's ``evidence/`` (working tree, apparent size) and the size of that
nightly's commit: files added / removed, the bytes of the blobs it adds, and the commit packed as git
sends it (its new objects only). The goal: the tree stops growing once the window is full.

    .venv/bin/python bench/evidence_growth.py [--nightlies N] [--keep-records K] [--quick] [--workers W]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def git(cwd: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(cwd), *args], input=data, check=True, capture_output=True).stdout


def tree_size(evidence: Path) -> tuple[int, int]:
    files = [p for p in evidence.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def commit_size(clone: Path) -> dict:
    status = git(clone, "diff-tree", "-r", "--no-renames", "--no-commit-id", "HEAD~1", "HEAD").decode().splitlines()
    added = [line.split()[3] for line in status if line.split()[4].startswith(("A", "M"))]
    removed = sum(1 for line in status if line.split()[4].startswith("D"))
    sizes = git(clone, "cat-file", "--batch-check=%(objectsize)", data="\n".join(added).encode() + b"\n").split()
    objects = git(clone, "rev-list", "--objects", "HEAD~1..HEAD")
    pack = git(clone, "pack-objects", "--stdout", "-q", data=b"\n".join(line.split()[0] for line in objects.splitlines()))
    return {"added": len(added), "removed": removed, "blob_bytes": sum(int(s) for s in sizes), "pack_bytes": len(pack)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nightlies", type=int, default=10)
    ap.add_argument("--keep-records", type=int, default=None, help="passed to nightly (default: its own)")
    ap.add_argument("--quick", action="store_true", help="nightly --quick (same number of records, faster)")
    ap.add_argument("--workers", default="auto")
    args = ap.parse_args()
    nightly = Path(sys.executable).with_name("nightly")
    with tempfile.TemporaryDirectory(prefix="asc-evidence-growth-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", "--no-local", str(REPO), str(clone)], check=True)
        git(clone, "config", "user.email", "bench@example.invalid")
        git(clone, "config", "user.name", "bench")
        git(clone, "config", "commit.gpgsign", "false")
        files, size = tree_size(clone / "evidence")
        print(f"load {os.getloadavg()[0]:.1f}; clone of {git(REPO, 'rev-parse', '--short', 'HEAD').decode().strip()}: "
              f"evidence/ {files} files, {size / 1e6:.2f} MB", flush=True)
        print(f"{'nightly':>7} {'files':>6} {'MB':>7} | commit: {'added':>5} {'removed':>7} {'blob MB':>8} "
              f"{'pack MB':>8} | {'wall s':>6}", flush=True)
        for n in range(1, args.nightlies + 1):
            argv = [str(nightly), "--root", str(clone), "--commit", "--no-dashboard", "-n", args.workers]
            argv += ["--quick"] if args.quick else []
            argv += ["--keep-records", str(args.keep_records)] if args.keep_records is not None else []
            start = time.monotonic()
            proc = subprocess.run(argv, capture_output=True, text=True, cwd=clone)
            wall = time.monotonic() - start
            if proc.returncode not in (0, 1):
                print(proc.stdout[-3000:] + proc.stderr[-3000:], file=sys.stderr)
                return 1
            files, size = tree_size(clone / "evidence")
            c = commit_size(clone)
            print(f"{n:>7} {files:>6} {size / 1e6:>7.2f} | commit: {c['added']:>5} {c['removed']:>7} "
                  f"{c['blob_bytes'] / 1e6:>8.3f} {c['pack_bytes'] / 1e6:>8.3f} | {wall:>6.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
