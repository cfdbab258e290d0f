"""Which path each first launch of upstream's v1 tutorials and kernel tests takes, and their wall time.

    python bench/v1_paths.py

Runs each upstream v1 tutorial and kernel test unmodified (../shared/upstream/pyasc-v1 beside the
repository) on Ascend950PR_9599 with ``ASC_REPLAY=off`` (every launch a first launch of its structure) and
prints, per test, its wall time and how its launches ran (``sim/pipes/tracer.py``'s ``STATS``): "lanes" (the
body traced once, blocks 1.. as lanes; "lanes in N classes of blocks": traced once per class), "per block:
<why>" (traced, blocks 1.. run the stream in full) or "untraced: <why> at <file>:<line>" (the body run per
block). The last line counts the launches that fell back.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import time
from collections import Counter
from pathlib import Path

import asc.runtime.config as config
from asc.sim.pipes import tracer

RUNS = [("tutorials/01_add/add.py", "vadd_custom"), ("tutorials/02_add_framework/add_framework.py", "vadd_custom"),
        ("tutorials/03_matmul_mix/matmul_mix.py", "matmul_mix_custom"),
        ("tutorials/04_matmul_cube_only/matmul_cube_only.py", "matmul_cube_only_custom"),
        ("tutorials/05_matmul_leakyrelu/matmul_leakyrelu.py", "matmul_leakyrelu_custom"),
        ("test/kernels/test_vadd.py", "test_vadd"), ("test/kernels/test_bilinear_interpolation.py", "test_vbilinear"),
        ("test/kernels/test_matmul.py", "test_matmul"), ("test/kernels/test_matmul_torch.py", "test_matmul"),
        ("test/kernels/insert_sync/test_vadd.py", "test_vadd"),
        ("test/kernels/insert_sync/test_vadd_scalar.py", "test_vadd_scalar"),
        ("test/kernels/insert_sync/test_softmax.py", "test_softmax"),
        ("test/kernels/insert_sync/test_quant.py", "test_quant"),
        ("test/kernels/insert_sync/test_quant_dynamic.py", "test_quant_dynamic"),
        ("test/kernels/insert_sync/test_matmul.py", "test_matmul")]


def upstream():
    for base in Path(__file__).resolve().parents[1:4]:
        d = base / "shared" / "upstream" / "pyasc-v1"
        if d.is_dir():
            return d
    return None


def main():
    root = upstream()
    if root is None:
        print("upstream's v1 sources (../shared/upstream/pyasc-v1) are not beside the repository")
        return
    os.environ["ASC_REPLAY"] = "off"
    platform = config.Platform.Ascend950PR_9599
    original = config.set_platform     # the upstream tests select only the backend: pin the platform
    config.set_platform = lambda backend, soc=None, *a, **k: original(backend, soc or platform, *a, **k)
    total, wall = Counter(), 0.0
    for path, entry in RUNS:
        spec = importlib.util.spec_from_file_location("upstream_" + Path(path).stem, root / path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        tracer.STATS.clear()
        t0 = time.perf_counter()
        fn = getattr(mod, entry)
        fn(config.Backend.Model, platform) if path.startswith("tutorials") else fn(config.Backend.Model)
        dt = time.perf_counter() - t0
        wall += dt
        total.update(tracer.STATS)
        print(f"{path:52s} {dt * 1e3:8.1f} ms  {dict(tracer.STATS)}")
    lanes = sum(v for k, v in total.items() if k.startswith("lanes"))
    print(f"all: {wall:.2f} s; launches: {sum(total.values())}, as lanes {lanes}, "
          f"fell back {sum(total.values()) - lanes}")


if __name__ == "__main__":
    main()
