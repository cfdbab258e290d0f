#!/usr/bin/env python3
"""Ascend C reference: dtype conversion, float16 cell (float16 <-> float32), in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/cast_f16.py`` (same OP, DTYPE, TOLERANCE, CASES, inputs
and host reference), written as an Ascend C author writes a Cast operator: ``Cast`` with ``CAST_NONE`` where
the conversion is exact (a wider float type), ``CAST_RINT`` where it rounds (torch's round to nearest even),
and through float32 for the pairs the vector unit has no instruction for (bfloat16 <-> float16).

    host tiling  the elements split into units of UNIT elements (whole 32-byte blocks of either type);
                 each vector core (the platform's AIV count) takes a contiguous run of whole units (the
                 last core also the tail), walked in tiles of at most MAX_TILE elements, at least two
                 per core so the queues overlap the loads, the casts and the stores.
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN x, VECOUT y): copy_in / compute / copy_out
                 per tile, the queues ordering MTE2 -> V -> MTE3 and the buffers' reuse; the float32
                 step of a two-step cast in a VECCALC ``TBuf``.
    tail         ``DataCopyPad`` moves a tile of any length: the load zero-pads it to whole 32-byte
                 blocks, the store writes exactly its elements.
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "cast"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x128_f16_to_f32", "shape": [1, 128], "src": "float16", "dst": "float32"},
    {"id": "2500x24_f32_to_f16", "shape": [2500, 24], "src": "float32", "dst": "float16"},
    {"id": "32x4096_f32_to_f16", "shape": [32, 4096], "src": "float32", "dst": "float16"},
    {"id": "100003_f16_to_f32", "shape": [100003], "src": "float16", "dst": "float32"},
    {"id": "7000x1x128_f32_to_f16", "shape": [7000, 1, 128], "src": "float32", "dst": "float16", "full_only": True},
]

SEED = 2026
TORCH_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}
BUFFER_NUM = 2
MAX_TILE = 4096          # elements per tile: at most 16 KiB of float32
UNIT = 16                # elements: a whole number of 32-byte blocks of 2- and 4-byte types
MIN_CORE_LEN = 1024      # below this many elements per core another core costs more than it saves
WIDEN, NARROW, THROUGH_F32 = 0, 1, 2


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def cast_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, core_len: int, total_len: int, tile_len: int,
                route: int, x_size: int, y_size: int):
    start = asc.get_block_idx() * core_len
    length = total_len - start
    if length > core_len:
        length = core_len
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_x, BUFFER_NUM, tile_len * x_size)
    pipe.init_buffer(out_y, BUFFER_NUM, tile_len * y_size)
    wide = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(wide, tile_len * 4 if route == THROUGH_F32 else 32)
    tiles = (length + tile_len - 1) // tile_len
    for i in range(tiles):
        count = length - i * tile_len
        if count > tile_len:
            count = tile_len
        copy_in(x_gm, in_x, start + i * tile_len, count, x_size)
        compute(x_gm, y_gm, in_x, out_y, wide, count, route)
        copy_out(y_gm, out_y, start + i * tile_len, count, y_size)


@asc.jit
def copy_in(x_gm: asc.GlobalTensor, in_x: asc.TQue, offset: int, count: int, itemsize: int):
    t = in_x.alloc_tensor(x_gm.dtype)
    per_block = 32 // itemsize
    pad = (count + per_block - 1) // per_block * per_block - count
    asc.data_copy_pad(t, x_gm[offset:], asc.DataCopyExtParams(1, count * itemsize, 0, 0, 0),
                      asc.DataCopyPadExtParams(x_gm.dtype, True, 0, pad, 0))
    in_x.enque(t)


@asc.jit
def compute(x_gm: asc.GlobalTensor, y_gm: asc.GlobalTensor, in_x: asc.TQue, out_y: asc.TQue, wide: asc.TBuf,
            count: int, route: int):
    x_local = in_x.deque(x_gm.dtype)
    y_local = out_y.alloc_tensor(y_gm.dtype)
    if route == WIDEN:
        asc.cast(y_local, x_local, asc.RoundMode.CAST_NONE, count)
    elif route == NARROW:
        asc.cast(y_local, x_local, asc.RoundMode.CAST_RINT, count)
    else:
        x32 = wide.get(asc.float32)
        asc.cast(x32, x_local, asc.RoundMode.CAST_NONE, count)
        asc.cast(y_local, x32, asc.RoundMode.CAST_RINT, count)
    out_y.enque(y_local)
    in_x.free_tensor(x_local)


@asc.jit
def copy_out(y_gm: asc.GlobalTensor, out_y: asc.TQue, offset: int, count: int, itemsize: int):
    y_local = out_y.deque(y_gm.dtype)
    asc.data_copy_pad(y_gm[offset:], y_local, asc.DataCopyExtParams(1, count * itemsize, 0, 0, 0))
    out_y.free_tensor(y_local)


def route_of(src, dst):
    """How src converts to dst: exactly to float32, rounding from float32, or through float32."""
    if dst == torch.float32:
        return WIDEN
    return NARROW if src == torch.float32 else THROUGH_F32


def tiling(total_len, max_cores=None):
    """(cores, core_len, tile_len): whole units per core (the last core also takes the tail), two tiles per
    core at least, on the platform's vector cores (at most ``max_cores``)."""
    units = -(-total_len // UNIT)
    cores = min(max_cores or platform_cores(AIV_CORES), -(-total_len // MIN_CORE_LEN))
    core_len = -(-units // cores) * UNIT
    cores = -(-total_len // core_len)
    tile_len = min(MAX_TILE, -(-core_len // (2 * UNIT)) * UNIT)
    return cores, core_len, tile_len


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    x = torch.randn(case["shape"], generator=gen, dtype=torch.float32) * 2
    # the destination dtype travels as an empty tensor of that dtype (inputs are tensors and numbers)
    return (x.to(TORCH_DTYPES[case["src"]]), torch.empty(0, dtype=TORCH_DTYPES[case["dst"]]))


def launch(x, like):
    x = x.contiguous()
    out = torch.zeros(x.shape, dtype=like.dtype)
    cores, core_len, tile_len = tiling(x.numel())
    cast_kernel[cores](x, out, core_len, x.numel(), tile_len, route_of(x.dtype, like.dtype), x.element_size(),
                       out.element_size())
    return out


def reference(x, like):
    return x.to(like.dtype)


def _f64(value):
    return torch.as_tensor(value).to(torch.float64).numpy()


def run_kernel(backend, platform):
    config.set_platform(backend, platform)
    for case in CASES:
        inputs = make_inputs(case)
        expected = reference(*inputs)
        outputs = launch(*inputs)
        if not isinstance(outputs, tuple):
            outputs, expected = (outputs,), (expected,)
        for k, (out, ref) in enumerate(zip(outputs, expected)):
            np.testing.assert_allclose(_f64(out), _f64(ref), atol=case.get("atol", TOLERANCE["atol"]),
                                       rtol=case.get("rtol", TOLERANCE["rtol"]),
                                       err_msg=f"{OP} {DTYPE} case {case['id']} output {k}")
        logging.info("[PASS] %s", case["id"])


def test_cast_float16(backend, platform):
    run_kernel(backend, platform)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", type=str, default="Model", help="backend: a config.Backend member (Model or NPU)")
    parser.add_argument("-v", type=str, default="Ascend950PR_9599", help="platform: a config.Platform value")
    args = parser.parse_args()
    supported_backends = list(config.Backend.__members__)
    if args.r not in supported_backends:
        raise ValueError(f"Unsupported Backend! Supported: {supported_backends}")
    supported_platforms = [p.value for p in config.Platform]
    if args.v not in supported_platforms:
        raise ValueError(f"Unsupported Platform! Supported: {supported_platforms}")
    run_kernel(config.Backend[args.r], config.Platform(args.v))
