#!/usr/bin/env python3
"""Time ``nightly`` over every golden cell on the embedded engine, with ``-n auto`` and with ``-n 0``.

The repository is left untouched: capabilities.yaml and golden/ are copied into a temporary git
repository with an empty evidence/ directory, and each timed run starts from that clean state. The
wall time is measured end to end around the ``nightly`` process (start-up, every cell, sync, matrix,
and the dashboard unless ``--no-dashboard``).

    .venv/bin/python bench/nightly.py [--no-dashboard] [--quick] [--cells PATTERN] [--timeout S]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True)


def make_copy(base: Path) -> Path:
    repo = base / "repo"
    repo.mkdir()
    shutil.copy2(ROOT / "capabilities.yaml", repo / "capabilities.yaml")
    shutil.copytree(ROOT / "golden", repo / "golden", ignore=shutil.ignore_patterns("__pycache__"))
    (repo / "evidence").mkdir()
    (repo / "evidence" / ".gitkeep").write_text("")
    (repo / ".gitignore").write_text("/site/\n/.nightly/\n")
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "bench@example.invalid")
    git(repo, "config", "user.name", "bench")
    git(repo, "config", "commit.gpgsign", "false")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "bench copy")
    return repo


def reset(repo: Path) -> None:
    git(repo, "checkout", "-q", "--", "capabilities.yaml")
    for d in ("site", ".nightly"):
        shutil.rmtree(repo / d, ignore_errors=True)
    for d in (repo / "evidence").iterdir():
        if d.is_dir():
            shutil.rmtree(d)


def run(repo: Path, workers: str, extra: list[str]) -> tuple[float, int, dict]:
    argv = [sys.executable, "-m", "asc_harness.nightly", "--capabilities", str(repo / "capabilities.yaml"),
            "-n", workers, *extra]
    t0 = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=repo)
    wall = time.perf_counter() - t0
    state = json.loads((repo / ".nightly" / "state.json").read_text())
    if proc.returncode not in (0, 1):
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
    return wall, proc.returncode, state


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-dashboard", action="store_true", help="do not render the dashboard in the timed runs")
    ap.add_argument("--quick", action="store_true", help="skip full_only cases")
    ap.add_argument("--cells", action="append", default=[], metavar="PATTERN", help="only these cells")
    ap.add_argument("--timeout", type=float, default=None, metavar="S", help="per-cell budget passed to nightly")
    args = ap.parse_args()
    extra = (["--no-dashboard"] if args.no_dashboard else []) + (["--quick"] if args.quick else [])
    extra += [f"--cells={c}" for c in args.cells]
    if args.timeout:
        extra += ["--timeout", str(args.timeout)]
    with tempfile.TemporaryDirectory(prefix="asc-bench-nightly-") as tmp:
        repo = make_copy(Path(tmp))
        results = {}
        for workers in ("auto", "0"):
            reset(repo)
            wall, code, state = run(repo, workers, extra)
            counts: dict[str, int] = {}
            for r in state["results"].values():
                counts[r["status"]] = counts.get(r["status"], 0) + 1
            slowest = sorted(state["results"].values(), key=lambda r: -(r.get("wall_s") or 0))[:3]
            results[workers] = wall
            print(f"nightly -n {workers:<4}: {wall:6.1f} s wall, {len(state['results'])} cell(s) "
                  f"({', '.join(f'{n} {s}' for s, n in sorted(counts.items()))}), exit {code}; slowest: "
                  + ", ".join(f"{r['cell']} {r.get('wall_s') or 0:.1f} s" for r in slowest))
            for cid, r in state["results"].items():
                if r["status"] != "pass":
                    print(f"    {r['status']} {cid}: {r.get('category')}: {r.get('message')}")
        print(f"speed-up -n auto vs -n 0: {results['0'] / results['auto']:.2f}x "
              f"(goal: under 60 s end to end)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
