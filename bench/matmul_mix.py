"""Modelled time of upstream's tutorial 03 (matmul_mix, fp16 -> fp32, MIX) at the seed presentation's sizes on
20 cube cores (40 vector cores), next to the figures measured on the device (pyasc-slides-2025-12: 334, 1329,
2875 us for 2560^2, 3840^2, 5120^2; Ascend C about the same).

    .venv/bin/python bench/matmul_mix.py [--sizes 2560 3840 5120] [--platform Ascend910B1]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

import torch

MEASURED_US = {2560: 334.0, 3840: 1329.0, 5120: 2875.0}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[2560, 3840, 5120])
    p.add_argument("--platform", default="Ascend910B1")
    p.add_argument("--groups", type=int, default=20, help="cube cores (groups of one cube and two vector cores)")
    args = p.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    tut = next((d / "shared/upstream/pyasc-v1/tutorials/03_matmul_mix/matmul_mix.py"
                for d in (root.parent, root.parents[1]) if (d / "shared/upstream/pyasc-v1").is_dir()), None)
    if tut is None:
        print("bench: upstream pyasc v1 sources (../shared/upstream/pyasc-v1) not found", file=sys.stderr)
        return 2
    os.environ.setdefault("ASC_CHECKS", "off")      # time the model, not the race detector
    import asc.runtime as asc_rt
    import asc.runtime.config as config
    spec = importlib.util.spec_from_file_location("matmul_mix", tut)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.USE_CORE_NUM = 2 * args.groups
    config.set_platform(config.Backend.Model, config.Platform(args.platform))
    from asc.runtime.platforms import hardware
    clock = hardware(config.Platform(args.platform)).clock_mhz
    print(f"matmul_mix fp16 -> fp32 on {args.platform}, {args.groups} groups ({2 * args.groups} vector cores)")
    print(f"{'size':>6} {'base (m,n,k)':>14} {'model us':>9} {'measured us':>12} {'model/measured':>15} "
          f"{'busiest pipe':>13} {'wall s':>7}")
    for s in args.sizes:
        a = torch.randint(-5, 5, (s, s)).to(torch.float16)
        b = torch.randint(-5, 5, (s, s)).to(torch.float16)
        tiling = mod.generate_tiling(s, s, s)
        t0 = time.perf_counter()
        mod.matmul_launch(a, b, tiling, "cpu")
        wall = time.perf_counter() - t0
        rep = asc_rt.last_launch_report()
        us = rep["ticks"] / clock
        meas = MEASURED_US.get(s)
        busiest = max(rep["pipes"], key=rep["pipes"].get)
        ratio = f"{us / meas:.2f}" if meas else "-"
        print(f"{s:>6} {str((tiling.base_m, tiling.base_n, tiling.base_k)):>14} {us:>9.0f} "
              f"{meas if meas else '-':>12} {ratio:>15} {busiest:>13} {wall:>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
