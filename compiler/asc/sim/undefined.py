"""Undefined tile elements: where a tile's poison goes, and where it matters.

A load with ``pad_value=None`` leaves the part of its window outside the tensor undefined (poison on
this engine); so do ``empty`` / ``empty_like`` (the whole tile, until a value replaces it) and ``gather``
with ``num_indices`` (the rows past it). The tile then carries a shadow mask of its undefined elements (``Undef``) for as long as
it has any; a tile without undefined elements is a plain array (the common case pays nothing). The
executor asks each op's rule (``Impl.undefined``) what happens to the mask:

``"union"``   element-wise: a result element is undefined when an operand element it reads is
              (broadcasting as the op does);
``"select"``  ``where``: the condition's undefined elements, plus the selected source's;
``"map"``     pure data movement (reshape, transpose, broadcast, concat): the op is run on the masks;
``"rows"``    combines along the last axis (softmax, norms): a row mixing defined and undefined
              elements warns; a wholly undefined row stays undefined (the tail rows of a tile);
``"reduce"``  the same per reduced slice;
a callable    op-specific (stores, matmul, copy): ``rule(ex, op, masks, args, out) -> out``;
``None``      anything else that reads an undefined element warns at its line.

A warning names the op's line, the op that left the elements undefined (its ``source``), and the fix.
Undefined elements keep their mask through branches and loops (``scf.if`` / ``scf.for`` / ``scf.while``).
"""
from __future__ import annotations

import numpy as np

from ..ir.kernel_warnings import UninitializedReadWarning
from ..ir.types import TileType
from .lanes import gather, merge_plain


class Undef:
    """A tile value some of whose elements are undefined: ``mask`` (lanes or 1, *tile_shape) marks them;
    ``source`` is the op that left them so (a load, ``empty``, a ``gather``)."""
    __slots__ = ("data", "mask", "source")

    def __init__(self, data, mask, source):
        self.data = data
        self.mask = mask
        self.source = source

    @property
    def shape(self):
        return self.data.shape

    @property
    def ndim(self):
        return self.data.ndim

    @property
    def dtype(self):
        return self.data.dtype

    def __array__(self, dtype=None, copy=None):
        a = np.asarray(self.data)
        return a if dtype is None else a.astype(dtype)

    def gather(self, idx):
        return Undef(gather(self.data, idx), gather(self.mask, idx), self.source)


def poison(npd):
    """The value this engine leaves in undefined elements of numpy dtype ``npd``: NaN for floats, the
    integer minimum for integers, True for the masks an op is run on (``"map"``)."""
    npd = np.dtype(npd)
    if npd == np.bool_:
        return np.True_
    return np.asarray(np.nan if npd.kind == "f" or str(npd) == "bfloat16" else np.iinfo(npd).min).astype(npd)


def wrap(value, mask, source):
    """``value`` with the undefined elements ``mask``; the plain value when there are none."""
    if mask is None or not mask.any():
        return value
    return Undef(value, mask, source)


def fix_text(source):
    """Where the undefined elements come from (the op ``source``) and how to define them."""
    where = f" at {source.loc}" if source is not None and source.loc is not None else ""
    kind = source.name if source is not None else None
    if kind == "tile.empty":
        return (f"the tile created by empty{where} is uninitialised (empty / empty_like allocate without "
                "writing); create it with zeros / full instead, or use it only where nothing reads it (the "
                "unselected side of where)")
    if kind == "tile.copy":
        return (f"the copy{where} reads a window that runs past its source tile, and what lies past it is "
                "undefined; keep the window inside the source (e.g. a last K step of the remaining size), or "
                "load a source tile that covers the window, padded with copy_in(..., pad_value=0)")
    if kind == "tile.gather":
        return (f"the gather{where} leaves its rows past num_indices undefined; keep them out of results "
                "(store only the first num_indices rows with real_shape=..., or scatter with the same "
                "num_indices)")
    if kind == "tile.load" and source.attrs.get("has_pad"):   # (a load given no pad_value that read nothing)
        return (f"the load{where} reads nothing (its window starts at or past the end of the tensor), so its tile is "
                "only the default padding, which no data defined; check that load's offsets, or pass pad_value= to "
                "it if the padding is meant")
    return (f"the tile loaded{where} with pad_value=None has undefined elements (its window's tail outside the "
            "tensor); pass pad_value=..., or real_shape, to that load")


def warn_read(ex, op, source, n, what):
    ex.warn(op, f"{what} reads {n} undefined element(s): {fix_text(source)}", UninitializedReadWarning)


def _op_what(op):
    kind = op.attrs.get("kind") if op.attrs else None
    name = op.name.split(".", 1)[-1]
    return f"{name}({kind})" if isinstance(kind, str) else name


def _lane_shape(mask, rank):
    """``mask`` (lanes, *shape) reshaped to broadcast as a tile of rank ``rank``."""
    extra = rank - (mask.ndim - 1)
    return mask.reshape((mask.shape[0],) + (1,) * extra + mask.shape[1:]) if extra > 0 else mask


def propagate(ex, op, opdef, args, masks, source, out):
    """The result of ``op`` (``out``, computed on the plain values) with its undefined elements, warning
    where the op reads undefined elements in a way that spreads them into defined results."""
    rule = opdef.undefined
    if callable(rule):
        return rule(ex, op, masks, args, out, source)
    if rule == "union" or rule == "select":
        if isinstance(out, tuple):
            return out
        rank = np.ndim(out) - 1
        if rule == "select":
            c, a, b = (_lane_shape(m, rank) if m is not None else None for m in masks[:3])
            cond = np.asarray(args[0]).astype(bool)
            m = np.zeros((1,) * (rank + 1), bool)
            if a is not None:
                m = m | (cond & a)
            if b is not None:
                m = m | (~cond & b)
            if c is not None:
                m = m | c
        else:
            m = None
            for mk in masks:
                if mk is not None:
                    mk = _lane_shape(mk, rank)
                    m = mk if m is None else (m | mk)
        return wrap(out, np.broadcast_to(m, np.broadcast_shapes(m.shape, (m.shape[0],) + np.shape(out)[1:])), source)
    if rule == "map":
        margs = [m if m is not None else (np.zeros((1,) + o.type.shape, bool) if isinstance(o.type, TileType) else a)
                 for m, a, o in zip(masks, args, op.operands)]
        m = np.asarray(opdef.execute(ex, op, *margs)).astype(bool)
        if type(out) is Undef:   # the op leaves elements of its own undefined (an August copy past its source)
            m, out = m | out.mask, out.data
        return wrap(out, m, source)
    if rule in ("rows", "reduce"):
        m = masks[0]
        if m is None or any(mk is not None for mk in masks[1:]):   # an undefined gamma / beta: every row
            warn_read(ex, op, source, sum(int(np.count_nonzero(mk)) for mk in masks if mk is not None), _op_what(op))
            return out
        if rule == "rows":
            axes = (m.ndim - 1,)
        else:
            axes = tuple(d + 1 for d in op.attrs["dims"]) if op.name == "tile.reduce" else tuple(range(1, m.ndim))
        full = m.all(axis=axes, keepdims=True)
        mixed = m & ~full
        if mixed.any():
            warn_read(ex, op, source, int(np.count_nonzero(mixed)), _op_what(op))
            return out
        if rule == "rows":
            main = out[0] if isinstance(out, tuple) else out
            res = wrap(main, np.broadcast_to(full, m.shape), source)
            if isinstance(out, tuple):
                return (res,) + tuple(wrap(o, full.reshape((full.shape[0],) + np.shape(o)[1:]), source)
                                      for o in out[1:])
            return res
        if op.name == "tile.reduce_all":   # a scalar: one value per lane, all of whose elements are undefined
            warn_read(ex, op, source, int(np.count_nonzero(m)), _op_what(op))
            return out
        return wrap(out, full.reshape((full.shape[0],) + np.shape(out)[1:]), source)
    n = sum(int(np.count_nonzero(mk)) for mk in masks if mk is not None)
    warn_read(ex, op, source, n, _op_what(op))
    return out



def matmul_undefined(ex, op, masks, args, out, source):
    """C = A @ B (+ bias / + the accumulator): a wholly undefined row of A leaves that row of C undefined,
    a wholly undefined column of B that column; an undefined element anywhere else mixes into defined
    results and warns."""
    ma, mb = masks[0], masks[1]
    mixed = 0
    res = None
    if ma is not None:
        rows = ma.all(axis=-1)
        mixed += int(np.count_nonzero(ma & ~rows[..., None]))
        res = rows[..., None]
    if mb is not None:
        cols = mb.all(axis=-2)
        mixed += int(np.count_nonzero(mb & ~cols[..., None, :]))
        res = cols[..., None, :] if res is None else (res | cols[..., None, :])
    if mixed:
        warn_read(ex, op, source, mixed, _op_what(op))
        return out
    for extra in masks[2:]:   # bias (columns) / accumulator: element-wise
        if extra is not None:
            extra = _lane_shape(extra, np.ndim(out) - 1)
            res = extra if res is None else (res | extra)
    if res is None:
        return out
    return wrap(out, np.broadcast_to(res, np.broadcast_shapes(res.shape, (res.shape[0],) + np.shape(out)[1:])),
                source)


def lanes_of(value, idx):
    """Lanes ``idx`` of a value carried through a loop (undefined elements kept)."""
    return gather(value if type(value) is Undef else np.asarray(value), idx)


def merge_lanes(full, idx, part, lanes):
    """A lane subset's values merged back into the lane-wide value (``lanes.merge_plain``), where either
    may have undefined elements: the data and the masks are merged alike."""
    if type(full) is not Undef and type(part) is not Undef:
        return merge_plain(full, idx, part, lanes)
    source = (full if type(full) is Undef else part).source
    data = merge_plain(full.data if type(full) is Undef else full, idx, np.asarray(part), lanes)
    tail = data.shape[1:]
    mask = np.zeros((lanes,) + tail, bool) if type(full) is not Undef else \
        np.array(np.broadcast_to(full.mask, (lanes,) + tail))
    mask[idx] = np.broadcast_to(part.mask, (len(idx),) + tail) if type(part) is Undef else False
    return wrap(data, mask, source)
