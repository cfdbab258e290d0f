"""Tile arithmetic: binary ops and comparisons, unary math, fused row ops, reductions, the cube."""
from __future__ import annotations

import numpy as np

from ..convert import as_compute, as_float32, product_operand
from ..fp_errors import ignored
from ..lanes import Shared, UnsetAccumulator, scalar_for_tile, windows_of
from ..undefined import matmul_undefined
from . import impl
from ..integer import int_div


_UFUNC = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "max": np.maximum, "min": np.minimum,
          "lshift": np.left_shift, "rshift": np.right_shift}


_CMP = {"eq": np.equal, "ne": np.not_equal, "gt": np.greater, "ge": np.greater_equal, "lt": np.less,
        "le": np.less_equal}


_SWAP = {"eq": "eq", "ne": "ne", "gt": "lt", "ge": "le", "lt": "gt", "le": "ge"}


def compute_dtype(np_dtype):
    """Narrow floats are computed in float32 and rounded once to the result type."""
    return np.float32 if np_dtype.itemsize < 4 and np_dtype.kind not in "iub" else np_dtype


def binary_values(kind, a, b, out_dtype):
    cd = compute_dtype(out_dtype)
    with ignored():
        if kind == "div":
            if out_dtype.kind in "iu":
                return int_div(a, b, "div").astype(out_dtype)
            r = np.true_divide(as_compute(a, cd), as_compute(b, cd))
        else:
            r = _UFUNC[kind](as_compute(a, cd), as_compute(b, cd))
        return r.astype(out_dtype, copy=False)      # overflow to inf is the result, not a warning


@impl("tile.binary", undefined="union")
def _exec_binary(ex, op, a, b):
    kind = op.attrs["kind"]
    return binary_values(kind, a, b, op.results[0].type.dtype.to_numpy())


_IN_PLACE = ("add", "sub", "mul", "max", "min")


def _as_windows(x, rows, cols):
    """A tile operand (lanes, *shape) as (lanes, rows, cols); a lane scalar (lanes, 1, ...) as (lanes, 1, 1)."""
    if x.ndim == 0:
        return x
    per_lane = 1
    for d in x.shape[1:]:
        per_lane *= d
    return x.reshape((x.shape[0], rows, cols) if per_lane == rows * cols else (x.shape[0], 1, 1))


class FreshBinary:
    """The not yet computed result of a ``tile.binary`` / ``tile.binary_scalar`` whose only use is the
    store right after it: the store may compute it straight into its destination window (one pass
    instead of a temporary and a copy) or, wherever it cannot, ``compute()`` it exactly as the op would."""
    __slots__ = ("kind", "a", "b", "dtype", "shape")

    def __init__(self, kind, a, b, dtype, shape):
        self.kind, self.a, self.b, self.dtype, self.shape = kind, a, b, dtype, shape

    @classmethod
    def of(cls, op, a, b):
        """The deferred result of ``op`` on ``a`` and ``b``, or None when it is computed in a wider type
        than its own (narrow floats) or is not a plain element-wise ufunc."""
        kind = op.attrs["kind"]
        dtype = op.results[0].type.dtype.to_numpy()
        if kind not in _IN_PLACE or compute_dtype(dtype) != dtype:
            return None
        if op.name == "tile.binary_scalar":
            if type(a) is not np.ndarray or a.dtype != dtype:
                return None
            # the scalar as _exec_binary_scalar hands it to binary_values, already in the compute dtype
            b = as_compute(scalar_for_tile(np.asarray(b), a.ndim - 1), dtype)
            if op.attrs["reverse"]:
                a, b = b, a
        elif type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype != dtype or b.dtype != dtype:
            return None
        lanes = max(a.shape[0] if a.ndim else 1, b.shape[0] if b.ndim else 1)
        return cls(kind, a, b, dtype, (lanes,) + tuple(op.results[0].type.shape))

    def compute(self):
        return binary_values(self.kind, self.a, self.b, self.dtype)

    def reshaped(self, lanes, rows, cols):
        """The same result seen as (lanes, rows, cols) windows, or None if it is not one value per lane."""
        if self.shape[0] != lanes:
            return None
        return FreshBinary(self.kind, _as_windows(self.a, rows, cols), _as_windows(self.b, rows, cols), self.dtype,
                           (lanes, rows, cols))

    def into(self, out):
        """Compute into ``out`` (a writeable view of the destination) when that gives the same values as
        computing then copying: the destination holds this dtype and shares no memory with an operand."""
        if out.dtype != self.dtype or out.shape != self.shape or \
                np.may_share_memory(out, self.a) or np.may_share_memory(out, self.b):
            return False
        with ignored():
            _UFUNC[self.kind](self.a, self.b, out=out)
        return True


def stored_binaries(fn):
    """``{binary op id: (store op, distance)}`` for every ``tile.binary`` / ``tile.binary_scalar`` whose
    result's only use is a ``tile.store`` later in the same block with only scalar ops between them (the
    store's offsets): the store may then compute the result into its destination. Found once per traced
    function."""
    memo = fn.__dict__.get("_stored_binaries")
    if memo is not None:
        return memo
    uses = {}
    for op in fn.walk():
        for v in op.operands:
            uses[v.id] = uses.get(v.id, 0) + 1
    memo = {}
    _pair_stores(fn.body.ops, uses, memo)
    for op in fn.walk():
        for region in op.regions:
            _pair_stores(region.ops, uses, memo)
    fn.__dict__["_stored_binaries"] = memo
    return memo


def _pair_stores(ops, uses, memo):
    for i, b in enumerate(ops):
        if b.name not in ("tile.binary", "tile.binary_scalar") or uses.get(b.results[0].id) != 1:
            continue
        for d, s in enumerate(ops[i + 1:], 1):
            if s.name == "tile.store" and s.operands[0] is b.results[0] and not s.attrs.get("has_real"):
                memo[b.id] = (s, d)
            if not s.name.startswith("scalar.") or s.regions:
                break   # anything else between them (a store, a loop) keeps the op where it is


@impl("tile.binary_scalar", undefined="union")
def _exec_binary_scalar(ex, op, a, s):
    kind = op.attrs["kind"]
    rdt = op.results[0].type.dtype.to_numpy()
    s = scalar_for_tile(np.asarray(s), a.ndim - 1)
    if kind in ("lshift", "rshift"):
        return _UFUNC[kind](a, s.astype(a.dtype)).astype(rdt)
    if op.attrs["reverse"]:
        a, s = s, a
    return binary_values(kind, np.asarray(a), np.asarray(s), rdt)


@impl("tile.cmp", undefined="union")
def _exec_cmp(ex, op, a, b):
    return _CMP[op.attrs["mode"]](a, b)


@impl("tile.cmp_scalar", undefined="union")
def _exec_cmp_scalar(ex, op, a, s):
    mode = op.attrs["mode"]
    if op.attrs["reverse"]:
        mode = _SWAP[mode]
    return _CMP[mode](a, scalar_for_tile(np.asarray(s), a.ndim - 1).astype(a.dtype))


def _lane_index(windows, index, lanes):
    if index is not None:
        return index
    return np.zeros(lanes, np.intp) if windows.shape[0] == 1 else np.arange(lanes)


def hf32(a, toward_zero=True):
    """float32 values rounded to HF32 (1 sign, 8 exponent, 11 mantissa bits) toward zero: what the cube
    does to float32 operands in HF32 mode as pyasc-dev lowers ``hf32=True`` (``SetHF32Mode(true)`` with
    ``SetHF32TransMode(true)``, whose documented rounding is toward zero); ``toward_zero=False`` is the trans
    mode's other setting, to nearest even (a carry past the largest finite value gives infinity). NaN and
    infinities pass through."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    bits = a.view(np.uint32)
    finite = (bits & 0x7F800000) != 0x7F800000
    if not toward_zero:
        bits = bits.astype(np.uint64)
        bits = np.where(finite, bits + 0x7FF + ((bits >> 12) & 1), bits).astype(np.uint32)
    return np.where(finite, bits & np.uint32(0xFFFFF000), bits).astype(np.uint32).view(np.float32)


def _hf32_windows(v):
    w, index = windows_of(v)
    w = hf32(w)
    return w if index is None else Shared(w, index)


def _mm(a, b, use_hf32=False):
    if use_hf32:
        a, b = _hf32_windows(a), _hf32_windows(b)
    return _mm_f32(a, b)


def _read_windows(windows, index):
    """Only the windows some lane reads, and the lanes' indices into them: a load's windows may cover its
    whole source matrix (every K step of a tile loop), of which one step's lanes read a few."""
    if windows.shape[0] <= index.shape[0]:
        return windows, index
    used, inverse = np.unique(index, return_inverse=True)
    return windows[used], inverse.reshape(index.shape)


def _mm_f32(a, b):
    """Lane-wise ``a @ b`` with float32 products and accumulation.

    Operands whose lanes share windows (``lanes.Shared``: e.g. every block of a column loading the
    same B tile) are converted once per distinct window, and when the distinct (A, B) pairs are about
    as many as the lanes, all pairs come from one GEMM of the stacked windows.
    """
    wa, ia = windows_of(a)
    wb, ib = windows_of(b)
    if ia is None and ib is None:
        return np.matmul(product_operand(wa), product_operand(wb))
    lanes = (ia if ia is not None else ib).shape[0]
    ia, ib = _lane_index(wa, ia, lanes), _lane_index(wb, ib, lanes)
    (wa, ia), (wb, ib) = _read_windows(wa, ia), _read_windows(wb, ib)
    (ua, m, k), (ub, _, n) = wa.shape, wb.shape
    if ua * ub <= 2 * lanes:
        # Stacked before converting: windows that tile the source matrix stack as views of it.
        stacked_a = product_operand(wa.reshape(ua * m, k))
        stacked_b = product_operand(wb.transpose(1, 0, 2).reshape(k, ub * n))
        every_pair = (stacked_a @ stacked_b).reshape(ua, m, ub, n)
        return every_pair[ia, :, ib, :]
    return np.matmul(product_operand(wa)[ia], product_operand(wb)[ib])


@impl("tile.matmul", shared_operands=True, undefined=matmul_undefined)
def _exec_matmul(ex, op, a, b, bias=None):
    out = _mm(a, b, op.attrs.get("hf32", False))
    if bias is None:
        return out
    if type(bias) is Shared:
        bias = bias.materialise()
    b = np.asarray(bias).astype(np.float32)  # the bias row, promoted to float32, added to every row
    return out + b.reshape(b.shape[0], 1, -1)


@impl("tile.matmul_acc", shared_operands=True, undefined=matmul_undefined)
def _exec_matmul_acc(ex, op, a, b, acc):
    use_hf32 = op.attrs.get("hf32", False)
    if type(acc) is UnsetAccumulator:
        return _mm(a, b, use_hf32)  # the first accumulation initialises the accumulator
    if type(acc) is Shared:
        acc = acc.materialise()
    return acc + _mm(a, b, use_hf32)


def _erf(x):
    import torch
    return torch.special.erf(torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))).numpy()


UNARY_FUNCS = {
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "floor": np.floor, "ceil": np.ceil,
    "abs": np.abs, "erf": _erf, "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x),
    "relu": lambda x: np.maximum(x, 0), "neg": np.negative,
}


@impl("tile.unary", undefined="union")
def _exec_unary(ex, op, a):
    rdt = op.results[0].type.dtype.to_numpy()
    with ignored():
        r = UNARY_FUNCS[op.attrs["kind"]](as_compute(a, compute_dtype(rdt)))
    return np.asarray(r).astype(rdt, copy=False)


@impl("tile.softmax", undefined="rows")
def _exec_softmax(ex, op, a):
    rdt = op.results[0].type.dtype.to_numpy()
    x = as_float32(a)                               # no copy when already float32 (a may be a view: not written)
    with ignored():
        e = x - x.max(axis=-1, keepdims=True)      # a new array: exp and the division work in place on it
        np.exp(e, out=e)
        e /= e.sum(axis=-1, keepdims=True)
    return e.astype(rdt, copy=False)


def _row_weights(w, x):
    """A per-column weight (lanes, cols) of a norm over x (lanes, rows, cols), aligned to x's rank."""
    w = np.asarray(w)
    return w.reshape(w.shape[:1] + (1,) * (x.ndim - w.ndim) + w.shape[1:])


@impl("tile.rms_norm", undefined="rows")
def _exec_rms_norm(ex, op, x, gamma, eps):
    rdt = op.results[0].type.dtype.to_numpy()
    x32 = as_float32(x)
    eps = scalar_for_tile(np.asarray(eps, dtype=np.float32), x.ndim - 1)
    with ignored():
        ms = np.mean(x32 * x32, axis=-1, keepdims=True)
        r = x32 / np.sqrt(ms + eps) * as_float32(_row_weights(gamma, x))
    return r.astype(rdt, copy=False)


# The ufuncs' reductions np.sum / np.max / np.min / np.prod call (without their Python wrapper's cost).
_NP = {"sum": np.add.reduce, "max": np.maximum.reduce, "min": np.minimum.reduce, "prod": np.multiply.reduce}


_REDUCE_ACC = {}   # tile dtype -> accumulation dtype (float32 for the narrow floats) or None


def _reduce_acc(dt):
    acc = _REDUCE_ACC.get(dt, False)
    if acc is False:
        acc = _REDUCE_ACC[dt] = np.float32 if (dt.kind == "f" and dt.itemsize < 4) or str(dt) == "bfloat16" else None
    return acc


def _reduce_values(kind, a, axes, rdt, keepdims=False):
    acc = _reduce_acc(a.dtype)
    x = a.astype(acc) if acc is not None else a
    with ignored():
        if kind in ("sum", "prod"):
            r = _NP[kind](x, axis=axes, dtype=x.dtype, keepdims=keepdims)
        else:
            r = _NP[kind](x, axis=axes, keepdims=keepdims)
    return np.asarray(r).astype(rdt, copy=False)


@impl("tile.reduce_all", undefined="reduce")
def _exec_reduce_all(ex, op, a):
    return _reduce_values(op.attrs["kind"], a, tuple(range(1, a.ndim)), op.results[0].type.dtype.to_numpy())


@impl("tile.reduce", undefined="reduce")
def _exec_reduce(ex, op, a):
    rtype = op.results[0].type
    axes = tuple(d + 1 for d in op.attrs["dims"])
    r = _reduce_values(op.attrs["kind"], a, axes, rtype.dtype.to_numpy(), keepdims=op.attrs["keep_dims"])
    return r.reshape((r.shape[0],) + rtype.shape)


@impl("tile.layer_norm", undefined="rows")
def _exec_layer_norm(ex, op, x, gamma, beta, eps):
    """float32 statistics over the last axis (asc.language.tile.norm_ops states the formula)."""
    rdt = op.results[0].type.dtype.to_numpy()
    stats_shape = op.results[1].type.shape
    x32 = x.astype(np.float32)
    eps = scalar_for_tile(np.asarray(eps, dtype=np.float32), x.ndim - 1)
    with ignored():
        mean = np.mean(x32, axis=-1, keepdims=True, dtype=np.float32)
        d = x32 - mean
        var = np.mean(d * d, axis=-1, keepdims=True, dtype=np.float32)
        rstd = (np.float32(1.0) / np.sqrt(var + eps)).astype(np.float32)
        out = (d * rstd * _row_weights(gamma, x).astype(np.float32)
               + _row_weights(beta, x).astype(np.float32)).astype(rdt)
    lanes = x.shape[0]
    third = rstd if op.attrs["output_rstd"] else var
    return out, mean.reshape((lanes,) + stats_shape), third.astype(np.float32).reshape((lanes,) + stats_shape)
