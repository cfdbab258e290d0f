"""Share of simulation time spent in the tick model's schedule, on bench/sim_speed.py's kernels.

    python bench/schedule_cost.py

Times each launch of sim_speed's kernels and, within it, the per-block schedule (plus the launch-level
waves); prints the schedule's share per kernel (goal: <= 10 %) for relaunches (sim_speed's measure:
the schedule of an unchanged loop record is reused) and with every schedule built from scratch (a first
launch). Measured in one run.
"""
from __future__ import annotations

import statistics
import time

import numpy as np
import torch

import asc
import asc.runtime.config as config
import asc.runtime.launcher as launcher
import sim_speed as sp

SPENT = [0.0]
COLD = [False]   # drop the per-kernel memo of schedules: every launch schedules from scratch


def _timed(fn):
    def wrapper(*args, **kwargs):
        if COLD[0] and fn.__name__ == "block_schedules":
            args[0].__dict__.pop("_schedule_memo", None)
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            SPENT[0] += time.perf_counter() - t0
    return wrapper


launcher.block_schedules = _timed(launcher.block_schedules)
launcher.launch_ticks = _timed(launcher.launch_ticks)


def share(fn, repeat=15):
    fn()
    total, sched = [], []
    for _ in range(repeat):
        SPENT[0] = 0.0
        t0 = time.perf_counter()
        fn()
        total.append(time.perf_counter() - t0)
        sched.append(SPENT[0])
    return statistics.median(total), statistics.median(sched)


def main():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    rng = np.random.default_rng(2026)
    n, tile = 1 << 20, 1024
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    out = np.empty_like(x)
    tpb = asc.ceildiv(asc.ceildiv(n, tile), sp.CORES)
    xs = rng.random((256, 1024), dtype=np.float32)
    outs = np.empty_like(xs)
    g = rng.random(1024, dtype=np.float32) + 0.5
    m = 512
    a = torch.rand((m, m), dtype=torch.float16)
    b = torch.rand((m, m), dtype=torch.float16)
    c = torch.zeros((m, m), dtype=torch.float32)
    rows = [
        ("add f32 [1048576], tile 1024", lambda: sp.add_kernel[sp.CORES](x, y, out, n, tile, tpb)),
        ("add, plain asc2.range loop", lambda: sp.add_kernel_sequential_loop[sp.CORES](x, y, out, n, tile, tpb)),
        ("softmax f32 [256, 1024]", lambda: sp.softmax_kernel[sp.CORES](xs, outs, 256, 1024)),
        ("rms_norm f32 [256, 1024]", lambda: sp.rms_norm_kernel[sp.CORES](xs, g, outs, 256, 1024, 1e-5)),
        ("matmul f16 512^3, 64 blocks", lambda: sp.matmul_kernel[64](a, b, c, a.shape, b.shape, c.shape, 64, 1, 64, 1)),
        ("K-tiled matmul", lambda: sp.ktiled_matmul_kernel[64](a, b, c, m, m, m, 64, 128, 64, False)),
        ("K-tiled matmul, L1-staged", lambda: sp.ktiled_matmul_kernel[64](a, b, c, m, m, m, 64, 128, 64, True)),
    ]
    print(f"{'kernel':34s} {'launch ms':>10s} {'schedule ms':>12s} {'share':>7s} {'uncached':>9s}")
    shares, cold = [], []
    for name, fn in rows:
        COLD[0] = False
        total, sched = share(fn)
        COLD[0] = True
        total_c, sched_c = share(fn)
        shares.append(sched / total)
        cold.append(sched_c / total_c)
        print(f"{name:34s} {total * 1e3:10.3f} {sched * 1e3:12.3f} {sched / total * 100:6.1f}% "
              f"{sched_c / total_c * 100:8.1f}%")
    print(f"relaunch (schedules reused): largest share {max(shares) * 100:.1f}%, median "
          f"{statistics.median(shares) * 100:.1f}%; scheduled from scratch: largest {max(cold) * 100:.1f}%, "
          f"median {statistics.median(cold) * 100:.1f}%")


if __name__ == "__main__":
    main()
