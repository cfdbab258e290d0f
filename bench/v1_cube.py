"""A hand-written raw-cube matmul (ND -> NZ into L1, load_data into L0A / L0B, mmad, fixpipe; L1 and L0
double-buffered with flags that wait only for a slot's previous user: tests/compiler/v1_cube_kernels.py's
``cube_matmul_db``) against ``asc.adv.Matmul`` (``iterate_all``, one cube core, the same 128 x 128 x 64
base blocks) at three sizes on both platforms: the results must be equal, and the ticks are printed side by
side.

    python bench/v1_cube.py
"""
from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import numpy as np

import asc
import asc.lib.host as host
import asc.runtime as rt
import asc.runtime.config as config

HERE = Path(__file__).resolve()
SIZES = [(256, 256, 256), (512, 512, 512), (1024, 512, 768)]
BASE = (128, 128, 64)


def _kernels():
    spec = importlib.util.spec_from_file_location("v1_cube_kernels",
                                                  HERE.parents[1] / "tests" / "compiler" / "v1_cube_kernels.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@asc.jit(matmul_cube_only=True)
def adv_matmul(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
               ws: asc.GlobalAddress):
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, ag.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bg.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, cg.dtype))
    asc.adv.register_matmul(asc.TPipe(), ws, mm, tiling)
    mm.set_tensor_a(ag)
    mm.set_tensor_b(bg)
    mm.iterate_all(cg)
    mm.end()


def one_core_tiling(m, n, k):
    t = host.MatmulApiTiling(host.get_ascendc_platform())
    t.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16)
    t.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16)
    t.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    t.set_shape(m, n, k)
    t.set_org_shape(m, n, k)
    t.set_fix_split(*BASE)
    tiling = asc.adv.TCubeTiling()
    t.get_tiling(tiling)
    return tiling


def main():
    kernels = _kernels()
    print(f"{'platform':18} {'M x N x K':>16} {'raw cube ticks':>15} {'adv.Matmul ticks':>17} {'raw/adv':>8} equal")
    for platform in (config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599):
        config.set_platform(config.Backend.Model, platform)
        for m, n, k in SIZES:
            rng = np.random.default_rng(m + n + k)
            a = rng.standard_normal((m, k)).astype(np.float16)
            b = rng.standard_normal((k, n)).astype(np.float16)
            c_raw = np.zeros((m, n), np.float32)
            c_adv = np.zeros((m, n), np.float32)
            t0 = time.perf_counter()
            kernels.cube_matmul_db[1](a, b, c_raw, m, n, k, *BASE)
            raw = rt.last_launch_report()["ticks"]
            t1 = time.perf_counter()
            adv_matmul[1](a, b, c_adv, one_core_tiling(m, n, k), np.zeros(1024, np.uint8))
            adv = rt.last_launch_report()["ticks"]
            exact = (a.astype(np.float64) @ b).astype(np.float32)
            # adv.Matmul sums each tile once in fp64; the raw kernel rounds to fp32 after every K step
            equal = np.allclose(c_raw, c_adv, rtol=1e-5, atol=1e-4) and np.allclose(c_raw, exact, rtol=1e-5,
                                                                                      atol=1e-4)
            print(f"{platform.value:18} {f'{m} x {n} x {k}':>16} {raw:>15.0f} {adv:>17.0f} {raw / adv:>8.2f} "
                  f"{equal}  ({t1 - t0:.1f} s raw run)")


if __name__ == "__main__":
    main()
