"""v1 reductions: per repeat (``whole_reduce_max/min/sum``, ``repeat_reduce_sum``), per 32-byte block of a
repeat (``block_reduce_max/min/sum``), per adjacent pair (``pair_reduce_sum``) and over a whole operand
(``reduce_max/min/sum``). Sums add as a binary tree of adjacent pairs, rounding to the dtype at each level
(the docstrings' 二叉树); max / min indices are the lane of the first extreme (``whole_reduce_*``: within its
repeat) stored as the dtype's bits (uint16 for half, uint32 for float). Element math in
``sim/pipes/compute_reduce.py``. Each instruction costs a vector call plus the tree that folds a result's
lanes (``_reduce_cost``)."""
from __future__ import annotations

import math

import numpy as np

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core import dtype as dt
from ..core.errors import error
from .addressing import (REQUIRED, Form, aligned, bind, dtypes_in, issue, lanes_of, local, one_type, regions,
                         repeat_indices, resolve, vector_cost, whole)
from .enums import ReduceOrder

_FLOAT = ("float16", "float32")


def _grid(name, f, src, blk, rep):
    """Every lane of every repeat as src element indices (repeats x lanes) and which lanes are active."""
    a = resolve(name, f, [src], [(blk, rep)], src.itemsize)
    lanes = lanes_of(src.itemsize)
    grid = repeat_indices(np.ones(lanes, bool), a.rep_count, blk, rep, src.itemsize).reshape(a.rep_count, lanes)
    if a.form == "counter":
        valid = (np.arange(a.rep_count * lanes) < a.count).reshape(a.rep_count, lanes)
    else:
        valid = np.broadcast_to(a.active, grid.shape)
    return grid, np.ascontiguousarray(valid), a


def _byte_writes(dst, byte_idx):
    """Regions of the destination bytes ``byte_idx`` (results land at byte strides of their own)."""
    view = dst.reinterpret_cast(dt.uint8)
    return regions(view, np.asarray(byte_idx, np.int64).reshape(-1))


def _stride(name, what, v):
    v = whole(name, what, v)
    if v > 65535:
        raise error(ValueError, f"{name}: {what} = {v} is outside [0, 65535] (the instruction's field)",
                    f"keep {what} within the field")
    return v


def _issue(name, dst, src, grid, valid, a, out, extra=None):
    reads = regions(src, grid[valid])
    attrs = {"dst": dst, "src": src, "grid": grid, "valid": valid, "out": out, "repeats": a.repeats}
    attrs.update(extra or {})
    issue(PipeOp(name, "V", tuple(reads), tuple(_byte_writes(dst, out)), attrs, user_loc()))


def _checks(name, dst, src, valid=_FLOAT):
    local(name, dst, src)
    aligned(name, src)
    dtypes_in(name, valid, dst=dst, src=src)
    one_type(name, dst, src)


_WHOLE = (("mask", REQUIRED), ("repeat_time", REQUIRED), ("dst_rep_stride", REQUIRED),
          ("src_blk_stride", REQUIRED), ("src_rep_stride", REQUIRED))


def _whole_reduce(kind):
    name = f"whole_reduce_{kind}"
    usage = f"{name}(dst, src, mask, repeat_time, dst_rep_stride, src_blk_stride, src_rep_stride" + \
        (", order)" if kind != "sum" else ")")

    def op(dst, src, *args, **kwargs):
        # whole_reduce_max / min take no is_set_mask (upstream's signature), whole_reduce_sum takes one
        params = _WHOLE + ((("order", ReduceOrder.ORDER_VALUE_INDEX),) if kind != "sum" else (("is_set_mask", True),))
        p = bind(name, params, args, kwargs, usage)
        _checks(name, dst, src)
        aligned(name, dst, unit=2 * dst.itemsize if kind != "sum" else dst.itemsize)
        f = Form(None, p["mask"], p["repeat_time"], None, p.get("is_set_mask", True))
        grid, valid, a = _grid(name, f, src, p["src_blk_stride"], p["src_rep_stride"])
        drs = _stride(name, "dst_rep_stride", p["dst_rep_stride"])
        isz = dst.itemsize
        try:
            order = ReduceOrder(int(p.get("order", 2)))
        except (TypeError, ValueError):
            raise error(ValueError, f"{name}: order {p.get('order')!r} is not a ReduceOrder",
                        "pass asc.ReduceOrder.ORDER_VALUE_INDEX, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE or "
                        "ORDER_ONLY_INDEX") from None
        if kind == "sum":
            order = ReduceOrder.ORDER_ONLY_VALUE
        width = {ReduceOrder.ORDER_ONLY_VALUE: isz, ReduceOrder.ORDER_ONLY_INDEX: 4}.get(order, 2 * isz)
        starts = np.arange(a.rep_count) * drs * width
        out = (starts[:, None] + np.arange(width)[None, :])
        _issue(name, dst, src, grid, valid, a, out, {"kind": kind, "order": order.name,
                                                    "tree": lanes_of(src.itemsize)})
    op.__name__ = name
    op.__doc__ = f"``{usage}``: one result per repeat."
    return op


whole_reduce_max, whole_reduce_min, whole_reduce_sum = (_whole_reduce(k) for k in ("max", "min", "sum"))


def _block_reduce(kind):
    name = f"block_reduce_{kind}"
    usage = f"{name}(dst, src, repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride)"

    def op(dst, src, *args, **kwargs):
        p = bind(name, (("repeat", REQUIRED), ("mask", REQUIRED), ("dst_rep_stride", REQUIRED),
                        ("src_blk_stride", REQUIRED), ("src_rep_stride", REQUIRED)), args, kwargs, usage)
        _checks(name, dst, src)
        f = Form(None, p["mask"], p["repeat"], None, True)
        grid, valid, a = _grid(name, f, src, p["src_blk_stride"], p["src_rep_stride"])
        drs = _stride(name, "dst_rep_stride", p["dst_rep_stride"])
        isz = dst.itemsize
        # 8 results per repeat, one per block; dst_rep_stride counts one repeat's results (8 elements)
        starts = np.arange(a.rep_count)[:, None] * drs * 8 + np.arange(8)[None, :]
        out = (starts * isz)[..., None] + np.arange(isz)
        live = valid.reshape(a.rep_count, 8, grid.shape[1] // 8).any(axis=2)
        _issue(name, dst, src, grid, valid, a, out[live], {"kind": kind, "blocks": live,
                                                           "tree": lanes_of(src.itemsize) // 8})
    op.__name__ = name
    op.__doc__ = f"``{usage}``: one result per 32-byte block."
    return op


block_reduce_max, block_reduce_min, block_reduce_sum = (_block_reduce(k) for k in ("max", "min", "sum"))


def pair_reduce_sum(dst, src, *args, **kwargs):
    """``pair_reduce_sum(dst, src, repeat_time, mask, dst_rep_stride, src_blk_stride, src_rep_stride)``:
    ``dst[k] = src[2k] + src[2k + 1]`` within each repeat (half a repeat of results per repeat)."""
    name = "pair_reduce_sum"
    p = bind(name, (("repeat_time", REQUIRED), ("mask", REQUIRED), ("dst_rep_stride", REQUIRED),
                    ("src_blk_stride", REQUIRED), ("src_rep_stride", REQUIRED), ("is_set_mask", True)),
             args, kwargs, f"{name}(dst, src, repeat_time, mask, dst_rep_stride, src_blk_stride, src_rep_stride)")
    _checks(name, dst, src)
    f = Form(None, p["mask"], p["repeat_time"], None, p["is_set_mask"])
    grid, valid, a = _grid(name, f, src, p["src_blk_stride"], p["src_rep_stride"])
    drs = _stride(name, "dst_rep_stride", p["dst_rep_stride"])
    half = grid.shape[1] // 2
    isz = dst.itemsize
    starts = np.arange(a.rep_count)[:, None] * drs * half + np.arange(half)[None, :]
    live = valid.reshape(a.rep_count, half, 2).any(axis=2)
    out = ((starts * isz)[..., None] + np.arange(isz))[live]
    _issue(name, dst, src, grid, valid, a, out, {"kind": "pair", "blocks": live, "tree": 2})


def repeat_reduce_sum(dst, src, *args, **kwargs):
    """``repeat_reduce_sum(dst, src, repeat_time, mask, dst_blk_stride, src_blk_stride, dst_rep_stride,
    src_rep_stride)``: the sum of each repeat's first ``mask`` lanes at ``dst[r * dst_rep_stride]``."""
    name = "repeat_reduce_sum"
    p = bind(name, (("repeat_time", REQUIRED), ("mask", REQUIRED), ("dst_blk_stride", REQUIRED),
                    ("src_blk_stride", REQUIRED), ("dst_rep_stride", REQUIRED), ("src_rep_stride", REQUIRED),
                    ("is_set_mask", True)), args, kwargs,
             f"{name}(dst, src, repeat_time, mask, dst_blk_stride, src_blk_stride, dst_rep_stride, src_rep_stride)")
    if isinstance(p["mask"], (list, tuple)):       # the call's form first, as upstream's materialisation fails
        raise error(TypeError, f"{name}: mask is the number of leading lanes (an int); {name} has no mask-list "
                    "form", "pass mask as an int, or use whole_reduce_sum for a bit mask")
    _checks(name, dst, src)
    f = Form(None, p["mask"], p["repeat_time"], None, p["is_set_mask"])
    grid, valid, a = _grid(name, f, src, p["src_blk_stride"], p["src_rep_stride"])
    drs = _stride(name, "dst_rep_stride", p["dst_rep_stride"])
    isz = dst.itemsize
    out = (np.arange(a.rep_count) * drs * isz)[:, None] + np.arange(isz)
    _issue(name, dst, src, grid, valid, a, out, {"kind": "sum", "order": "ORDER_ONLY_VALUE",
                                                "tree": lanes_of(src.itemsize)})


def _reduce(kind):
    name = f"reduce_{kind}"
    usage = f"{name}(dst, src, shared_tmp_buffer, count) or {name}(dst, src, shared_tmp_buffer, mask, " \
        "repeat_time, src_rep_stride)"

    def op(dst, src, shared_tmp_buffer, *args, **kwargs):
        cal = kwargs.pop("cal_index", False) if kind != "sum" else False
        a_ = list(args)
        if kind != "sum" and a_ and isinstance(a_[-1], bool):
            cal = a_.pop()
        if "count" in kwargs or (len(a_) == 1 and "mask" not in kwargs):
            p = bind(name, (("count", REQUIRED),), a_, kwargs, usage)
            n = whole(name, "count", p["count"])
            lanes = lanes_of(src.itemsize)
            rt = -(-n // lanes)
            grid = np.arange(rt * lanes).reshape(rt, lanes)
            valid = grid < n
            repeats = rt
            form = "count"
        else:
            p = bind(name, (("mask", REQUIRED), ("repeat_time", REQUIRED), ("src_rep_stride", REQUIRED)),
                     a_, kwargs, usage)
            f = Form(None, p["mask"], p["repeat_time"], None, True)
            grid, valid, a = _grid(name, f, src, 1, p["src_rep_stride"])
            rt, repeats = a.rep_count, a.repeats
            form = "mask"
        _checks(name, dst, src)
        local(name, shared_tmp_buffer)
        if kind != "sum" and cal and src.itemsize == 2 and valid.size > 65536:
            raise error(ValueError, f"{name}: a half index reaches {valid.size - 1}, past uint16's 65535",
                        "reduce at most 65536 half elements per call when asking for the index")
        isz = dst.itemsize
        width = 2 * isz if cal else isz
        out = np.arange(width)
        # the temporary buffer holds the per-repeat partial results
        tmp_n = min(shared_tmp_buffer.size, max(1, rt * 2 * isz // shared_tmp_buffer.itemsize))
        attrs = {"kind": kind, "order": "ORDER_VALUE_INDEX" if cal else "ORDER_ONLY_VALUE", "whole": True,
                 "form": form}
        reads = regions(src, grid[valid])
        writes = tuple(_byte_writes(dst, out)) + (shared_tmp_buffer.region(0, tmp_n),)
        # a second pass folds the per-repeat results, with a tree of its own
        attrs.update({"dst": dst, "src": src, "grid": grid, "valid": valid, "out": out,
                      "repeats": repeats * (2 if rt > 1 else 1), "tree": lanes_of(src.itemsize) ** (2 if rt > 1 else 1)})
        issue(PipeOp(name, "V", tuple(reads), writes, attrs, user_loc()))
    op.__name__ = name
    op.__doc__ = f"``{usage}``: one result over every element."
    return op


reduce_max, reduce_min, reduce_sum = (_reduce(k) for k in ("max", "min", "sum"))

def _reduce_cost(op, hw):
    """The vector call over the repeats (``vector_busy`` with the ``reduce`` weight) occupies the pipe; the tree
    that folds the last result's ``tree`` lanes, log2(lanes) dependent steps of the op latency, delays the
    result (a flag to another pipe fires after it) while the pipelined unit takes the next call."""
    return ("V", vector_cost("reduce")(op, hw)[1], hw.vector_op * math.log2(op.attrs["tree"]))


for _name in ("whole_reduce_max", "whole_reduce_min", "whole_reduce_sum", "block_reduce_max", "block_reduce_min",
              "block_reduce_sum", "pair_reduce_sum", "repeat_reduce_sum", "reduce_max", "reduce_min", "reduce_sum"):
    define("v1." + _name, cost=_reduce_cost)
