"""Tile creation, casts, shape ops and selection."""
from __future__ import annotations

import numpy as np

from ..lanes import UnsetAccumulator, scalar_for_tile
from ..undefined import Undef, poison
from . import impl


@impl("tile.const")
def _exec_const(ex, op):
    t = op.results[0].type
    return np.full((1,) + t.shape, op.attrs["value"], dtype=t.dtype.to_numpy())


@impl("tile.splat")
def _exec_splat(ex, op, s):
    t = op.results[0].type
    s = np.asarray(s).astype(t.dtype.to_numpy())
    lanes = 1 if s.ndim == 0 else s.shape[0]
    return np.broadcast_to(scalar_for_tile(s, len(t.shape)), (lanes,) + t.shape)


def cast_array(a, target: np.dtype):
    """Convert values as the hardware's Cast does: float->int rounds to nearest even and saturates."""
    if a.dtype == target:
        return a
    if a.dtype.kind == "f" or str(a.dtype) == "bfloat16":
        if target.kind in "iu":
            info = np.iinfo(target)
            with np.errstate(invalid="ignore"):
                r = np.rint(a.astype(np.float64))  # float64: the int32 limits are exact there
                r = np.nan_to_num(r, nan=0.0, posinf=info.max, neginf=info.min)
                return np.clip(r, info.min, info.max).astype(target)
    if a.dtype.kind in "iub" and (target.kind == "f" or str(target) == "bfloat16") and a.dtype.kind != "b":
        return a.astype(np.float32).astype(target) if str(target) == "bfloat16" else a.astype(target)
    with np.errstate(over="ignore"):                # float narrowing overflows to inf, as the hardware does
        return a.astype(target)


@impl("tile.cast", undefined="union")
def _exec_cast(ex, op, a):
    mode = op.attrs.get("round_mode")
    target = op.results[0].type.dtype.to_numpy()
    return cast_array(a, target) if mode is None else cast_rounded(a, target, mode)


def _round_half_away(v):
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


_INT_ROUND = {"Rint": np.rint, "Floor": np.floor, "Ceil": np.ceil, "Trunc": np.trunc, "NoRound": np.trunc,
              "Round": _round_half_away}


def cast_rounded(a, target: np.dtype, mode: str):
    """A conversion with an explicit rounding (``asc.language.tile.round_mode`` states the modes)."""
    x = a.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        if target.kind in "iu":
            if mode == "Odd":
                t = np.trunc(x)
                r = np.where((t != x) & (np.fmod(t, 2) == 0), t + np.sign(x), t)
            else:
                r = _INT_ROUND[mode](x)
            info = np.iinfo(target)
            r = np.nan_to_num(r, nan=0.0, posinf=info.max, neginf=info.min)
            return np.clip(r, info.min, info.max).astype(target)
        near = x.astype(target)                 # to nearest, ties to even
        back = near.astype(np.float64)
        inf = np.asarray(np.inf, dtype=target)
        up, down = np.nextafter(near, inf), np.nextafter(near, -inf)
        toward_zero = np.where(np.abs(back) > np.abs(x), np.where(x > 0, down, up), near)
        if mode == "Rint":
            return near
        if mode == "Floor":
            return np.where(back > x, down, near)
        if mode == "Ceil":
            return np.where(back < x, up, near)
        if mode in ("Trunc", "NoRound"):
            return toward_zero
        away = np.where(x > 0, np.nextafter(toward_zero, inf), np.nextafter(toward_zero, -inf))
        if mode == "Round":
            lo, hi = toward_zero.astype(np.float64), away.astype(np.float64)
            tie = (np.abs(x - lo) == np.abs(hi - x)) & (lo != x)
            return np.where(tie, away, near)
        # Odd: toward zero, then the odd neighbour when inexact
        bits = toward_zero.view(np.uint16 if target.itemsize == 2 else np.uint32 if target.itemsize == 4
                                else np.uint8)
        inexact = (toward_zero.astype(np.float64) != x) & np.isfinite(x)
        return np.where(inexact & ((bits & 1) == 0), away, toward_zero)


@impl("tile.zeros_acc")
def _exec_zeros_acc(ex, op, bias=None):
    t = op.results[0].type
    if bias is not None:  # the bias row (promoted to float32) initialises every row
        b = np.asarray(bias).astype(np.float32)
        return np.broadcast_to(b.reshape(b.shape[0], 1, -1), (b.shape[0],) + t.shape).astype(t.dtype.to_numpy())
    return UnsetAccumulator(np.zeros((1,) + t.shape, dtype=t.dtype.to_numpy()))


@impl("tile.concat", undefined="map")
def _exec_concat(ex, op, *tiles):
    lanes = max(t.shape[0] for t in tiles)
    return np.concatenate([np.broadcast_to(t, (lanes,) + t.shape[1:]) for t in tiles], axis=1)


@impl("tile.broadcast", undefined="map")
def _exec_broadcast(ex, op, a):
    shape = op.results[0].type.shape
    src = a.reshape((a.shape[0],) + (1,) * (len(shape) - (a.ndim - 1)) + a.shape[1:])
    return np.broadcast_to(src, (a.shape[0],) + shape)


@impl("tile.cube_transpose", undefined="map")
@impl("tile.transpose", undefined="map")
def _exec_transpose(ex, op, a):
    perm = op.attrs.get("perm")
    if perm is None:  # 2-D: the two dimensions swapped
        return np.ascontiguousarray(np.swapaxes(a, 1, 2))
    return np.ascontiguousarray(np.transpose(a, (0,) + tuple(p + 1 for p in perm)))


@impl("tile.reshape", undefined="map")
def _exec_reshape(ex, op, a):
    return a.reshape((a.shape[0],) + op.results[0].type.shape)


def mask_lanes(mode, args, shape, dtype):
    """Boolean array over a tile's elements: which lanes the mask enables."""
    n = int(np.prod(shape))
    flat = np.arange(n)
    if mode == "count":
        count = np.asarray(args[0])
        return (flat.reshape((1,) * (count.ndim) + (n,)) < count.reshape(count.shape + (1,))).reshape(
            count.shape + tuple(shape)) if count.ndim else (flat < int(count)).reshape(shape)
    hi, lo = (int(np.asarray(a).reshape(-1)[0]) for a in args[:2])
    per_repeat = 256 // dtype.itemsize
    lane = flat % per_repeat
    bits = np.where(lane < 64, (lo >> np.minimum(lane, 63)) & 1, (hi >> np.clip(lane - 64, 0, 63)) & 1)
    return (bits == 1).reshape(shape)


@impl("tile.select", undefined="select")
def _exec_select(ex, op, m, a, b):
    return np.where(m, a, b)


@impl("mask.region")
def _exec_mask(ex, op, *args):
    return ex.run_masked_region(op, args)


@impl("tile.empty")
def _exec_empty(ex, op):
    """Uninitialised storage: poison, as every on-chip buffer before it is written, and every element
    undefined (``sim.undefined``: a use that reaches a result warns at its line, naming this one)."""
    t = op.results[0].type
    npd = t.dtype.to_numpy()
    return Undef(np.full((1,) + t.shape, poison(npd), dtype=npd), np.ones((1,) + t.shape, bool), op)


@impl("block.sub_idx")
def _exec_sub_block_idx(ex, op):
    return np.asarray(0, dtype=np.int32)  # one vector unit per block (asc.language.tile.subblock_ops)


@impl("block.sub_num")
def _exec_sub_block_num(ex, op):
    return np.asarray(1, dtype=np.int32)
