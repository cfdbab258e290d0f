"""Ticks of v1 kernels on both platforms: upstream's tutorials 01 (flags) and 02 (queues) at their shipped
size, and the two comparisons the tick model must rank (tests/compiler/test_v1_ticks.py's kernels,
8 blocks of 16 tiles of 2048 f32): double buffering with flags vs the same kernel with full barriers, and
a two-deep queue vs a one-deep one.

    python bench/v1_ticks.py
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

import asc.runtime as rt
import asc.runtime.config as config

HERE = Path(__file__).resolve()


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _tutorial(name, rel):
    for base in HERE.parents[1:4]:
        f = base / "shared" / "upstream" / "pyasc-v1" / "tutorials" / rel
        if f.is_file():
            return _load(name, f)
    return None


def ticks(launch):
    launch()
    return rt.last_launch_report()["ticks"]


def main():
    kernels = _load("v1_tick_kernels", HERE.parents[1] / "tests" / "compiler" / "test_v1_ticks.py")
    t1 = _tutorial("tutorial_01_add", "01_add/add.py")
    t2 = _tutorial("tutorial_02_add_framework", "02_add_framework/add_framework.py")
    rng = np.random.default_rng(0)
    print(f"{'kernel':58s} {'Ascend910B1':>12s} {'Ascend950PR_9599':>17s}")
    rows = {}
    for platform in (config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599):
        config.set_platform(config.Backend.Model, platform)
        if t1 is not None:
            n = 8 * 2048
            x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
            z = np.zeros_like(x)
            rows.setdefault("tutorial 01 add [16384] f32, 8 blocks (flags, as shipped)", []).append(
                ticks(lambda: t1.vadd_kernel[8](x, y, z, n // 8)))
            rows.setdefault("tutorial 02 add [16384] f32, 8 blocks (queues, as shipped)", []).append(
                ticks(lambda: t2.vadd_kernel[8](x, y, z, n // 8, n // 8 // 16)))
        x, y = kernels._inputs()
        z = np.zeros_like(x)
        for barriers, label in ((False, "flags"), (True, "full barriers")):
            rows.setdefault(f"double-buffered add [65536] f32, {label}", []).append(
                ticks(lambda: kernels.double_buffered[8](x, y, z, x.size // 8, barriers)))
        for depth in (2, 1):
            rows.setdefault(f"queued add [65536] f32, queue depth {depth}", []).append(
                ticks(lambda: kernels.queued[8](x, y, z, x.size // 8, depth)))
    for name, (a, b) in rows.items():
        print(f"{name:58s} {a:12d} {b:17d}")


if __name__ == "__main__":
    main()
