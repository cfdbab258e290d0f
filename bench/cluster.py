#!/usr/bin/env python3
"""Scale-out on a local Dask cluster: nightly wall time and simulated generative throughput.

1. ``nightly --scheduler local:W`` over every golden cell, for W in 1, 2, 4: wall time end to end.
2. ``generate --scheduler local:W`` with a stand-in agent that sleeps a fixed time and writes a known
   asc2 kernel, ``--attempts N`` (default 504) on one cell, for W in 1, 2, 4, 8: attempts per
   second over the attempt phase (as the coordinator reports it: from the first submission to the
   last record, so cluster start-up, sync and matrix are excluded; the total wall time is shown
   too), and the ratio to W times the one-worker throughput (1.00 is linear; the goal is >= 0.80).
   Every attempt is evaluated as in a real run (static check and kernel run, sandboxed); the
   stand-in mostly sleeps, so more workers than cores fit.

3. ``--part attempt``: what one attempt costs on this machine, without Dask: N attempts of the
   stand-in (no sleep) evaluated in this process, wall time and CPU time per attempt (this process
   and its children; measured under the process-tree confinement, where the kernel process is a
   child of this one; bubblewrap's own start-up is measured beside it).

Each row notes the machine's 1-minute load average at its start and end (the machine may be shared).
The repository is left untouched: capabilities.yaml and golden/ are copied into a temporary git
repository with an empty evidence/ directory, reset before each run.

    .venv/bin/python bench/cluster.py [--part nightly|generate|both|attempt] [--attempts N] [--sleep S]
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("bench_nightly", HERE / "nightly.py")
bench_nightly = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_nightly)

CELL = "abs/float16/Ascend950PR_9599"
CELL_GOLDEN = "golden/kernels/abs_f16.py"
KNOWN_KERNEL = '''\
import numpy as np
import asc
import asc2

TILE = 128


@asc2.jit
def abs_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, n: int):
    x = asc2.tensor(x_ptr, [n])
    y = asc2.tensor(y_ptr, [n])
    for t in range(asc2.block_idx(), asc.ceildiv(n, TILE), asc2.block_num()):
        i = t * TILE
        asc2.store(asc2.abs(asc2.load(x, [TILE], offsets=[i])), y, offsets=[i])


def launch(x):
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.zeros_like(flat)
    abs_kernel[4](flat, out, flat.size)
    return out.reshape(x.shape)
'''


def stand_in_agent(sleep_s: float) -> str:
    """An agent command (no file of its own, so it runs wherever a worker is): sleep, write the kernel."""
    b64 = base64.b64encode(KNOWN_KERNEL.encode()).decode()
    return f"sh -c {shlex.quote(f'sleep {sleep_s:g} && echo {b64} | base64 -d > kernel.py')}"


def nightly_part(repo: Path, workers: list[int]) -> None:
    print("nightly over every golden cell (embedded engine, dashboard skipped)")
    print("| workers | wall s | cells | statuses | load |")
    print("|---:|---:|---:|---|---|")
    for w in workers:
        bench_nightly.reset(repo)
        argv = [sys.executable, "-m", "asc_harness.nightly", "--capabilities", str(repo / "capabilities.yaml"),
                "--scheduler", f"local:{w}", "--no-dashboard"]
        load0 = os.getloadavg()[0]
        t0 = time.perf_counter()
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=repo)
        wall = time.perf_counter() - t0
        load = f"{load0:.1f} -> {os.getloadavg()[0]:.1f}"
        if proc.returncode not in (0, 1):
            sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-3000:])
        state = json.loads((repo / ".nightly" / "state.json").read_text())
        counts: dict[str, int] = {}
        for r in state["results"].values():
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        print(f"| {w} | {wall:.1f} | {len(state['results'])} | "
              f"{', '.join(f'{n} {s}' for s, n in sorted(counts.items()))} | {load} |", flush=True)


def generate_part(repo: Path, workers: list[int], attempts: int, sleep_s: float) -> None:
    print(f"\nsimulated generative run: {attempts} attempts of a stand-in agent sleeping {sleep_s:g} s, "
          f"cell {CELL}")
    print("| workers | wall s | attempt phase s | attempts/s | vs linear | passed | load |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    base = None
    for w in workers:
        bench_nightly.reset(repo)
        argv = [sys.executable, "-m", "asc_harness.generate", "--capabilities", str(repo / "capabilities.yaml"),
                "--cells", CELL, "--attempts", str(attempts), "--agent-command", stand_in_agent(sleep_s),
                "--timeout", "120", "--kernel-timeout", "120", "--scheduler", f"local:{w}", "--no-dashboard"]
        load0 = os.getloadavg()[0]
        t0 = time.perf_counter()
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=repo)
        wall = time.perf_counter() - t0
        load = f"{load0:.1f} -> {os.getloadavg()[0]:.1f}"
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-3000:])
        recs = list((repo / "evidence").glob("*/*/*/generative-*.json"))
        passed = sum(json.loads(p.read_text())["status"] == "pass" for p in recs)
        # the attempt phase as the coordinator timed it (cluster start-up, sync and matrix excluded)
        m = re.search(r"^cluster: (\d+) attempts in ([\d.]+) s on (\d+) worker", proc.stdout, re.M)
        phase = float(m.group(2)) if m else wall
        rate = len(recs) / phase
        base = base or rate / w
        print(f"| {w} | {wall:.1f} | {phase:.1f} | {rate:.3f} | {rate / (base * w):.2f} | {passed}/{len(recs)} | {load} |",
              flush=True)


def attempt_part(repo: Path, attempts: int) -> None:
    """Per-attempt cost of the evaluation path (agent sandbox, static check and kernel run), in this process."""
    import resource
    import shlex

    from asc_harness.batch import gen_attempt
    from asc_harness.batch import generate
    from asc_harness.run import sandbox
    from asc_harness.store.registry import load_valid_registry
    from asc_harness.store.validation import to_plain

    cell = to_plain(load_valid_registry(repo / "capabilities.yaml").cell(CELL))
    args = generate._parser().parse_args(["--agent-command", "unused", "--timeout", "120", "--kernel-timeout", "120"])
    ctx = gen_attempt.Context(args, repo, repo / "evidence", shlex.split(stand_in_agent(0)), {})
    contract = gen_attempt.describe_inputs(repo / CELL_GOLDEN, cell["platform"], repo, repo / "evidence")
    print(f"\none attempt of the stand-in (no sleep), cell {CELL}, {attempts} attempts per row")
    print("| confinement | wall s / attempt | CPU s / attempt (harness + children) | passed | load |")
    print("|---|---:|---:|---:|---|")
    for kind in (sandbox.PROCESS_TREE, sandbox.BUBBLEWRAP):
        os.environ["ASC_SANDBOX"] = kind
        sandbox._CONFINEMENT = None
        sandbox.confinement()
        gen_attempt.attempt_record(ctx, cell, 1, contract)  # warm: bytecode, caches
        load0 = os.getloadavg()[0]
        r0, c0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        passed = sum(gen_attempt.attempt_record(ctx, cell, i + 1, contract)[0]["status"] == "pass"
                     for i in range(attempts))
        wall = (time.perf_counter() - t0) / attempts
        r1, c1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = sum(b.ru_utime - a.ru_utime + b.ru_stime - a.ru_stime for a, b in ((r0, r1), (c0, c1))) / attempts
        # bubblewrap's sandboxed processes are not this process's waited-for children: their CPU is not counted
        shown = f"{cpu:.3f}" if kind == sandbox.PROCESS_TREE else f"({cpu:.3f}, kernel process not counted)"
        print(f"| {kind} | {wall:.3f} | {shown} | {passed}/{attempts} | {load0:.1f} -> {os.getloadavg()[0]:.1f} |",
              flush=True)
    conf = sandbox.confinement()
    if conf.bwrap:
        t0 = time.perf_counter()
        for _ in range(20):
            subprocess.run([conf.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
                            "--unshare-pid", "--die-with-parent", "--unshare-net", "--", "true"], check=True)
        print(f"bubblewrap start-up alone (`bwrap ... true`): {(time.perf_counter() - t0) / 20 * 1000:.1f} ms wall")
    os.environ.pop("ASC_SANDBOX", None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=("nightly", "generate", "both", "attempt"), default="both")
    ap.add_argument("--attempts", type=int, default=None,
                    help="attempts per generative run (default 504; 20 for --part attempt)")
    ap.add_argument("--sleep", type=float, default=2.0, help="seconds the stand-in agent sleeps (default 2)")
    ap.add_argument("--workers", default="1,2,4,8", help="generative worker counts (default 1,2,4,8)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="asc-bench-cluster-") as tmp:
        repo = bench_nightly.make_copy(Path(tmp))
        if args.part in ("nightly", "both"):
            nightly_part(repo, [1, 2, 4])
        if args.part in ("generate", "both"):
            generate_part(repo, [int(w) for w in args.workers.split(",")], args.attempts or 504, args.sleep)
        if args.part == "attempt":
            attempt_part(repo, args.attempts or 20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
