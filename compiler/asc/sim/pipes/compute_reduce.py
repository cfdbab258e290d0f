"""Element math of the v1 reductions: sums as a binary tree of adjacent pairs rounded to the dtype at every
level, max / min with the first extreme's index; results written as bytes at the positions the
instruction's builder (``language/v1/reduce.py``) laid out."""
from __future__ import annotations

import numpy as np

from ..ops import arith
from .impls import impl


HALF_MAX = 65504.0
# The instructions whose half-precision pairwise sums stop at +-65504 instead of overflowing (their docstrings:
# "[60000, 60000, -30000, 100]: 60000 + 60000 gives 65504, then 65504 - 29900 = 35604").
SATURATING = frozenset(("whole_reduce_sum", "repeat_reduce_sum", "block_reduce_sum"))


def tree_sum(v, dtype, saturate=False):
    """Adjacent pairs summed level by level along the last axis (padded with zeros to a power of two), each
    level computed wide and rounded to ``dtype``; with ``saturate`` a sum of two finite halves past the
    largest half is that largest half (of its sign)."""
    dtype = np.dtype(dtype)
    wide = arith.compute_dtype(dtype)
    k = v.shape[-1]
    size = 1 << max(0, (k - 1).bit_length())
    if size != k:
        v = np.concatenate([v, np.zeros(v.shape[:-1] + (size - k,), v.dtype)], axis=-1)
    v = v.astype(dtype)
    with np.errstate(all="ignore"):
        while v.shape[-1] > 1:
            a, b = v[..., 0::2].astype(wide), v[..., 1::2].astype(wide)
            s = a + b
            if saturate:
                s = np.where(np.isfinite(a) & np.isfinite(b), np.clip(s, -HALF_MAX, HALF_MAX), s)
            v = s.astype(dtype)
    return v[..., 0]


def _extreme(kind, vals, valid):
    fill = -np.inf if kind == "max" else np.inf
    filled = np.where(valid, vals.astype(np.float64), fill)
    idx = (np.argmax if kind == "max" else np.argmin)(filled, axis=-1)
    return np.take_along_axis(vals, idx[..., None], -1)[..., 0], idx


def _index_bytes(idx, dtype, order):
    it = np.uint32 if order == "ORDER_ONLY_INDEX" or dtype.itemsize == 4 else np.uint16
    return idx.astype(it).view(np.uint8).reshape(idx.size, -1)


def _result_bytes(value, idx, dtype, order):
    v = np.asarray(value, dtype).reshape(-1).view(np.uint8).reshape(-1, dtype.itemsize)
    if order == "ORDER_ONLY_VALUE":
        return v
    i = _index_bytes(np.asarray(idx).reshape(-1), dtype, order)
    if order == "ORDER_ONLY_INDEX":
        return i
    return np.concatenate([v, i] if order == "ORDER_VALUE_INDEX" else [i, v], axis=1)


@impl("whole_reduce_max", "whole_reduce_min", "whole_reduce_sum", "repeat_reduce_sum", "block_reduce_max",
      "block_reduce_min", "block_reduce_sum", "pair_reduce_sum", "reduce_max", "reduce_min", "reduce_sum", pure=True)
def _reduce(eng, op):
    a = op.attrs
    grid, valid = a["grid"], a["valid"]
    if not valid.any():                      # no repeat ran (repeat_time 0, count 0): dst keeps its values
        return
    x, base = eng.view(a["src"])
    vals = x[base + np.where(valid, grid, 0)]
    dtype = x.dtype
    kind = a["kind"]
    sat = dtype == np.float16 and op.name in SATURATING
    zero = np.where(valid, vals, dtype.type(0))
    if a.get("whole"):                       # reduce_*: one result over every repeat
        if kind == "sum":
            per = tree_sum(zero, dtype)
            if a["form"] == "count":         # the count form adds the repeats' results in order
                acc = per[0]
                for p in per[1:]:
                    acc = dtype.type(np.dtype(arith.compute_dtype(dtype)).type(acc) + p)
                res, idx = acc, np.zeros(1, np.int64)
            else:
                res, idx = tree_sum(per, dtype), np.zeros(1, np.int64)
        else:
            flat_v, flat_ok = vals.reshape(-1), valid.reshape(-1)
            res, k = _extreme(kind, flat_v, flat_ok)
            idx = np.asarray(grid.reshape(-1)[k])
        out = _result_bytes(res, idx, dtype, a["order"])
    elif op.name.startswith("block_reduce") or kind == "pair":
        groups = 8 if kind != "pair" else vals.shape[1] // 2
        v = vals.reshape(vals.shape[0], groups, -1)
        ok = valid.reshape(v.shape)
        if kind in ("sum", "pair"):
            res = tree_sum(np.where(ok, v, dtype.type(0)), dtype, sat)
        else:
            res, _ = _extreme(kind, v, ok)
        out = np.asarray(res, dtype)[a["blocks"]].view(np.uint8).reshape(-1, dtype.itemsize)
    elif kind == "sum":
        out = _result_bytes(tree_sum(zero, dtype, sat), None, dtype, "ORDER_ONLY_VALUE")
    else:
        res, idx = _extreme(kind, vals, valid)
        out = _result_bytes(res, idx, dtype, a["order"])
    d, dbase = eng.byte_view(a["dst"])
    d[dbase + np.asarray(a["out"]).reshape(-1)] = out.reshape(-1)
