"""The seed presentation's two comparisons (pyasc-slides-2025-12: "PyAsc vs Ascend C", measured with msprof
on Ascend910B1) with modelled figures: each operator as an asc2 kernel and as a v1 (Ascend C style)
kernel at the presentation's sizes, modelled microseconds (ticks / the platform's clock) side by side
with the presentation's measured microseconds for its PyAsc and its Ascend C implementation.

    add         20 cores, 3.2M .. 25.6M elements. asc2: the golden ``golden/kernels/add_f16.py`` kernel
                (block-strided tiles of its host tiling, 8192 elements here) on 20 blocks; v1: the Ascend C reference
                ``golden/ascendc/add_f16.py`` (TPipe / TQue double buffering) tiled for 20 cores. The
                presentation does not state the dtype; both run float16, the golden cell's.
    matmul_mix  20 groups (one cube and two vector cores each), 2560^2 .. 11520^2, fp16 -> fp32. v1:
                upstream's tutorial 03 (the presentation's PyAsc kernel) with the host tiling; asc2:
                ``matmul_tiles_kernel`` below on 20 cube cores (128 x 256 output tiles block-strided, K
                in steps of 64 accumulated in L0C; the golden matmul keeps all of K in L0, which these
                sizes exceed). Both run every size (``--asc2-matmul-sizes`` limits the asc2 ones); a
                launch takes from seconds (2560^2) to several minutes (11520^2) of simulation, the time
                of its numpy matrix products. Each result is checked on sampled rows (the inputs are
                small integers, so float32 sums are exact).

    .venv/bin/python bench/seed_comparison.py [--op add|matmul_mix|all] [--add-sizes M ...] [--matmul-sizes N ...]
                                              [--asc2-matmul-sizes N ...] [--add-cores]

    --add-cores also runs upstream's tutorial 02 add (the presentation's PyAsc add) in float16 and float32 on
    20 cores and on one, with the bandwidth each figure implies (docs/simulator.md explains why).

The race detector is off (``ASC_CHECKS=off``): the model is timed, not the checks.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

import numpy as np

import asc
import asc2

ROOT = Path(__file__).resolve().parents[1]
PLATFORM = "Ascend910B1"
CORES = 20
# (PyAsc us, Ascend C us) as measured in the presentation
ADD_MEASURED = {3_200_000: (579.840, 583.944), 6_400_000: (1217.420, 1217.640), 9_600_000: (1858.660, 1861.720),
                12_800_000: (2494.640, 2496.976), 16_000_000: (3134.080, 3141.200),
                19_200_000: (3778.240, 3771.120), 22_400_000: (4407.784, 4425.296),
                25_600_000: (5065.920, 5071.944)}
MATMUL_MEASURED = {2560: (334.25, 332.04), 3840: (1328.72, 1332.54), 5120: (2875.00, 2902.66),
                   6400: (6539.53, 6295.36), 7680: (7082.11, 6896.86), 8960: (20955.00, 19999.57),
                   10240: (20560.42, 20800.17), 11520: (48979.96, 48136.02)}


@asc2.jit
def matmul_tiles_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                        M: int, K: int, N: int, TM: asc.ConstExpr[int], TK: asc.ConstExpr[int],
                        TN: asc.ConstExpr[int]):
    a_gm = asc2.tensor(a_ptr, [M, K])
    b_gm = asc2.tensor(b_ptr, [K, N])
    c_gm = asc2.tensor(c_ptr, [M, N])
    n_tiles = N // TN
    for t in asc2.range(asc2.block_idx(), (M // TM) * n_tiles, asc2.block_num()):
        m_off = (t // n_tiles) * TM
        n_off = (t % n_tiles) * TN
        acc = asc2.zeros_acc([TM, TN], asc.float32)
        for kk in asc2.range(K // TK):
            a = asc2.load(a_gm, [TM, TK], offsets=[m_off, kk * TK], location=asc2.TileLocation.L0A)
            b = asc2.load(b_gm, [TK, TN], offsets=[kk * TK, n_off], location=asc2.TileLocation.L0B)
            asc2.matmul_acc(a, b, acc)
        asc2.store(acc, c_gm, offsets=[m_off, n_off])


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _us(rt, clock_mhz):
    return rt.last_launch_report()["ticks"] / clock_mhz


def _row(label, asc2_us, v1_us, measured, wall=None):
    pyasc, ascendc = measured
    a2 = "-" if asc2_us is None else f"{asc2_us:9.0f}"
    r2 = "-" if asc2_us is None else f"{asc2_us / pyasc:.2f}"
    tail = "" if wall is None else f"  (simulated in {wall:.0f} s)"
    print(f"{label:>12} {a2:>9} {v1_us:9.0f} {pyasc:12.1f} {ascendc:13.1f} {r2:>10} {v1_us / ascendc:.2f}{tail}",
          flush=True)


def _header(what):
    print(what)
    print(f"{'size':>12} {'asc2 us':>9} {'v1 us':>9} {'PyAsc meas.':>12} {'AscendC meas.':>13} "
          f"{'asc2/PyAsc':>10} v1/AscendC")


def bench_add(sizes, rt, config, clock):
    golden = _load("golden_add_f16", ROOT / "golden/kernels/add_f16.py")
    ref = _load("ascendc_add_f16", ROOT / "golden/ascendc/add_f16.py")
    _header(f"add float16 on {PLATFORM}, {CORES} cores (modelled us vs the presentation's measured us)")
    rng = np.random.default_rng(2026)
    for n in sizes:
        x = (rng.random(n, dtype=np.float32) * 10 - 5).astype(np.float16)
        y = (rng.random(n, dtype=np.float32) * 10 - 5).astype(np.float16)
        z = np.zeros_like(x)
        tile = golden.tile_size(n)
        tiles = -(-n // tile)
        golden.add_kernel[min(CORES, tiles)](x, y, z, n, tiles, tile)
        asc2_us = _us(rt, clock)
        assert np.array_equal(z, golden.reference(x, y)), "asc2 add: wrong result"
        z = np.zeros_like(x)
        cores, core_len, aligned_len, tile_len = ref.tiling(n, max_cores=CORES)
        ref.add_kernel[cores](x, y, z, core_len, aligned_len, n, tile_len)
        v1_us = _us(rt, clock)
        assert np.array_equal(z, ref.reference(x, y)), "v1 add: wrong result"
        _row(f"{n // 1000}k", asc2_us, v1_us, ADD_MEASURED.get(n, (float("nan"),) * 2))


def bench_add_cores(sizes, rt, config, clock):
    """What the presentation's add figures imply: upstream's tutorial 02 add (TPipe / TQue, the presentation's
    PyAsc add) in float16 and float32 on 20 cores and on one, modelled us and the GB/s of its 3 x n elements."""
    import torch

    tut = _tutorial("02_add_framework/add_framework.py")
    if tut is None:
        return
    mod = _load("add_framework", tut)
    print("add: upstream's tutorial 02 by dtype and cores (tiles of 8000 elements), modelled us and GB/s moved")
    print(f"{'size':>12} {'dtype':>8} {'cores':>5} {'model us':>9} {'GB/s':>7} {'PyAsc meas. us':>15} {'GB/s':>7}")
    for n in sizes:
        for dtype in (torch.float16, torch.float32):
            for cores in (CORES, 1):
                block = n // cores
                if block % 16000:
                    raise SystemExit(f"--add-cores: {n} elements do not split into 2 x 8000-element tiles a core")
                mod.USE_CORE_NUM, mod.TILE_NUM = cores, block // 16000
                x, y = torch.rand(n, dtype=dtype), torch.rand(n, dtype=dtype)
                assert torch.equal(mod.vadd_launch(x, y), x + y), "tutorial add: wrong result"
                us, moved = _us(rt, clock), 3 * n * x.element_size()
                meas = ADD_MEASURED.get(n, (float("nan"),))[0]
                print(f"{n // 1000:>11}k {str(dtype)[6:]:>8} {cores:>5} {us:9.0f} {moved / us / 1e3:7.1f} "
                      f"{meas:15.1f} {moved / meas / 1e3:7.1f}", flush=True)


def _tutorial(name):
    tut = next((d / "shared/upstream/pyasc-v1/tutorials" / name
                for d in (ROOT.parent, ROOT.parents[1]) if (d / "shared/upstream/pyasc-v1").is_dir()), None)
    if tut is None:
        print(f"{name}: upstream pyasc v1 sources (../shared/upstream/pyasc-v1) not found", file=sys.stderr)
    return tut


def _check_rows(c, a, b, what, rows=16):
    """Sampled rows of ``c`` against the float32 product of the same rows (exact for small-integer inputs)."""
    import torch

    idx = torch.from_numpy(np.random.default_rng(0).choice(a.shape[0], size=min(rows, a.shape[0]), replace=False))
    assert torch.equal(c[idx], a[idx].float() @ b.float()), f"{what}: wrong result"


def bench_matmul(sizes, asc2_sizes, rt, config, clock):
    import torch

    tut = _tutorial("03_matmul_mix/matmul_mix.py")
    if tut is None:
        return
    mod = _load("matmul_mix", tut)
    mod.USE_CORE_NUM = 2 * CORES
    _header(f"matmul_mix fp16 -> fp32 on {PLATFORM}, {CORES} groups (modelled us vs the presentation's measured us)")
    for s in sizes:
        a = torch.randint(-5, 5, (s, s)).to(torch.float16)
        b = torch.randint(-5, 5, (s, s)).to(torch.float16)
        t0 = time.perf_counter()
        c = mod.matmul_launch(a, b, mod.generate_tiling(s, s, s), "cpu")
        v1_us = _us(rt, clock)
        _check_rows(c, a, b, f"v1 matmul_mix {s}^2")
        asc2_us = None
        if s in asc2_sizes:
            if s % 256:
                raise SystemExit(f"the asc2 matmul tiles by 128 x 256: {s} is not a multiple of 256")
            c = torch.zeros((s, s))
            matmul_tiles_kernel[CORES](a, b, c, s, s, s, 128, 64, 256)
            asc2_us = _us(rt, clock)
            _check_rows(c, a, b, f"asc2 matmul {s}^2")
        _row(f"{s}^2", asc2_us, v1_us, MATMUL_MEASURED.get(s, (float("nan"),) * 2), time.perf_counter() - t0)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--op", choices=("add", "matmul_mix", "all"), default="all")
    p.add_argument("--add-cores", action="store_true",
                   help="also run upstream's tutorial 02 add in float16 / float32 on 20 cores and on one")
    p.add_argument("--add-sizes", type=int, nargs="+", default=sorted(ADD_MEASURED))
    p.add_argument("--matmul-sizes", type=int, nargs="+", default=sorted(MATMUL_MEASURED))
    p.add_argument("--asc2-matmul-sizes", type=int, nargs="*", default=sorted(MATMUL_MEASURED),
                   help="matmul sizes also run as the asc2 kernel")
    args = p.parse_args(argv)
    os.environ.setdefault("ASC_CHECKS", "off")
    import asc.runtime as rt
    import asc.runtime.config as config
    from asc.runtime.platforms import hardware

    config.set_platform(config.Backend.Model, config.Platform(PLATFORM))
    clock = hardware(config.Platform(PLATFORM)).clock_mhz
    if args.op in ("add", "all"):
        bench_add(args.add_sizes, rt, config, clock)
        if args.add_cores:
            bench_add_cores(args.add_sizes, rt, config, clock)
    if args.op in ("matmul_mix", "all"):
        bench_matmul(args.matmul_sizes, set(args.asc2_matmul_sizes), rt, config, clock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
