"""The cube path of a v1 block: what ``Matmul`` calls compute (numpy, fp32 accumulation of the operands'
values, as the cube's L0C does) and how they are scheduled on the cube pipes.

Schedule of one base block (base_m x base_n, K in base_k steps), the NORM template's pipeline:
  MTE2  GM -> L1   A in slices of step_k_a K steps (base_m x step_k_a * base_k), B in slices of step_k_b
                   (step_k_b * base_k x base_n), one DMA each (a strided window of the GM matrix: its rows
                   are the DMA's runs); a slot of L1 is reused only after MTE1 has moved the step
                   ``depth`` steps earlier out of it
  MTE1  L1 -> L0A / L0B, ping-pong: a step waits for the mmad of two steps earlier
  M     mmad base_m x base_n x base_k into L0C (fp32)
  FIX   L0C -> the destination, after the block's last mmad
Every base block loads its slices again (no reuse of L1 contents across base blocks is modelled)."""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import PipeOp
from ...ir.registry import PIPES
from ..ops import arith
from .impls import impl
from .cube_compute import offset_of, quantise, scale_of

MTE2, MTE1, M, FIX = (PIPES.index(p) for p in ("MTE2", "MTE1", "M", "FIX"))
_BLAS_MACS = 1 << 27      # products of at least this many multiply-adds go to BLAS
CUBE_PIPES = (MTE1, M, FIX)


def _matrix(eng, t, rows, cols, ld, trans, nz_rows=0, r0=0, c0=0, hf32=False):
    """The rows x cols operand at ``t`` (stored transposed, cols x rows, when ``trans``), its window starting at
    row ``r0`` and column ``c0`` of the stored matrix; ``nz_rows``: the stored matrix is NZ with that many
    (16-padded) rows (column blocks of 32 bytes), else row-major with row stride ``ld``."""
    arr, base = eng.view(t)
    r, c = (cols, rows) if trans else (rows, cols)
    i, j = np.arange(r)[:, None] + r0, np.arange(c)[None, :] + c0
    if nz_rows:
        w = 32 // t.itemsize
        idx = base + (j // w) * nz_rows * w + i * w + j % w
    else:
        idx = base + i * ld + j
    x = arr[idx]
    if hf32 and x.dtype.kind == "f" and x.dtype.itemsize == 4:   # hf32: "toward_zero" or "nearest_even"
        x = arith.hf32(x, toward_zero=hf32 == "toward_zero")
    x = x.astype(np.float64)
    return x.T if trans else x


def tile(eng, a, m0, m1, n0, n1):
    """C[m0:m1, n0:n1] of the attrs' tile (fp64 here, stored as the destination's dtype)."""
    tk = a["tk"]
    nz_a, nz_b, _ = a.get("nz", (0, 0, 0))
    hf = a.get("hf32", False)
    if a["trans_a"]:
        A = _matrix(eng, a["a"], m1 - m0, tk, a["lda"], True, nz_a, 0, m0, hf)
    else:
        A = _matrix(eng, a["a"], m1 - m0, tk, a["lda"], False, nz_a, m0, 0, hf)
    if a["trans_b"]:
        B = _matrix(eng, a["b"], tk, n1 - n0, a["ldb"], True, nz_b, n0, 0, hf)
    else:
        B = _matrix(eng, a["b"], tk, n1 - n0, a["ldb"], False, nz_b, 0, n0, hf)
    # einsum's loop for small tiles (BLAS threads stall on a busy machine over many small calls); BLAS for
    # large ones, where its blocking is an order of magnitude faster (float64 either way, whose rounding
    # lies far below the destination's)
    c = A @ B if A.shape[0] * A.shape[1] * B.shape[1] >= _BLAS_MACS else np.einsum("ik,kn->in", A, B)
    if a["bias"] is not None:
        barr, bbase = eng.view(a["bias"])
        c = c + barr[bbase + n0: bbase + n1].astype(np.float64)[None, :]
    return c


def deliver(eng, a, c, n0, out):
    """The tile's values as the destination type ``out``: quantised as the fixpipe does when the Matmul's
    types need it (``a["quant"]``: (mode name or None, the scalar word or the vector tensor))."""
    mode, q = a.get("quant", (None, None))
    if mode is None:
        with np.errstate(all="ignore"):
            return c.astype(out)
    if q[0] == "vector":
        warr, wb = eng.view(q[1])
        words = warr[wb + n0: wb + n0 + c.shape[1]].astype(np.uint64)
        scale, offset = scale_of(words)[None, :], offset_of(words)[None, :]
    else:
        scale, offset = scale_of(q[1]), offset_of(q[1])
    x = c.astype(np.int64).astype(np.int32) if mode in ("DEQF16", "VDEQF16", "REQ8", "VREQ8") else c.astype(np.float32)
    return quantise(x, mode, scale, offset, False, np.dtype(out))


def _store(eng, dst, c, ldc, atomic, nz_rows=0, r0=0, c0=0):
    arr, base = eng.view(dst)
    rows, cols = c.shape
    i, j = np.arange(rows)[:, None] + r0, np.arange(cols)[None, :] + c0
    idx = base + ((j // 16) * nz_rows * 16 + i * 16 + j % 16 if nz_rows else i * ldc + j)
    with np.errstate(all="ignore"):
        arr[idx] = (arr[idx] + c if atomic else c).astype(arr.dtype)


@impl("iterate_all")
def _iterate_all(eng, op):
    a = op.attrs
    c = deliver(eng, a, tile(eng, a, 0, a["tm"], 0, a["tn"]), 0, a["dst"].np_dtype)
    _store(eng, a["dst"], c, a["ldc"], a["atomic"], a.get("nz", (0, 0, 0))[2])
    if a.get("collect") is not None:
        a["collect"].batch_values.append(c.copy())


@impl("matmul_block")
def _matmul_block(eng, op):
    a = op.attrs
    mi, nj = a["block"]
    bm, bn, _ = a["base"]
    m0, n0 = mi * bm, nj * bn
    a["mm"].block_values = (tile(eng, a, m0, min(a["tm"], m0 + bm), n0, min(a["tn"], n0 + bn)), a, n0)


@impl("get_tensor_c")
def _get_tensor_c(eng, op):
    a = op.attrs
    c, block_attrs, n0 = a["mm"].block_values
    c = deliver(eng, block_attrs, c, n0, a["dst"].np_dtype)
    if a["sequential"]:
        bm, bn = int(a["mm"].tiling.base_m), int(a["mm"].tiling.base_n)
        full = np.zeros((bm, bn), dtype=c.dtype)
        full[: c.shape[0], : c.shape[1]] = c
        c = full
    _store(eng, a["dst"], c, a["ldc"], a["atomic"])


@impl("get_batch_tensor_c")
def _get_batch_tensor_c(eng, op):
    arr, base = eng.view(op.attrs["dst"])
    at = base
    for v in op.attrs["values"]:
        arr[at: at + v.size] = v.reshape(-1).astype(arr.dtype)
        at += v.size


def _step(name, pipe, **attrs):
    return PipeOp(name, pipe, attrs=attrs)


def _window(rows, cols, ld, sz):
    """(runs, bytes per run) of a DMA of a rows x cols window of a row-major matrix with row stride ``ld``."""
    return (1, rows * cols * sz) if cols == ld or rows == 1 else (rows, cols * sz)


def schedule(eng, op, after):
    """End time of a cube op: the pipeline of its base blocks (``iterate_all``, ``matmul_block``), or the
    delivery of a computed block (``get_tensor_c``, after the block's FIX)."""
    tm = eng.timing
    a = op.attrs
    if op.name == "get_tensor_c":
        return tm.op(op, FIX, max(after, a["ready"]), None)
    bm, bn, bk = a["base"]
    sz = a["in_bytes"]
    depth = max(2, a["depth"])
    end = after
    cube_mte2 = getattr(tm, "cube_mte2", 0.0)
    ska, skb = a.get("step_k", (1, 1))
    for rows, cols in a["blocks"]:
        l1_free, l0_free = [after] * depth, [after, after]
        m_end = after
        a_ready = b_ready = after
        steps = -(-a["tk"] // bk)
        for s in range(steps):
            k = min(bk, a["tk"] - s * bk)
            # the template loads step_k_a (step_k_b) K steps of A (B) into L1 with one DMA
            dmas = []
            if s % ska == 0:
                ka = min(ska * bk, a["tk"] - s * bk)
                dmas.append(("a", _window(ka, rows, a["lda"], sz) if a["trans_a"] else
                             _window(rows, ka, a["lda"], sz)))
            if s % skb == 0:
                kb = min(skb * bk, a["tk"] - s * bk)
                dmas.append(("b", _window(cols, kb, a["ldb"], sz) if a["trans_b"] else
                             _window(kb, cols, a["ldb"], sz)))
            if dmas:
                ld = _step("cube_load_l1", "MTE2", dmas=tuple(d for _, d in dmas))
                t2 = tm.op(ld, MTE2, l1_free[s % depth], None)
                cube_mte2 += tm.busy_of(ld)
                for which, _ in dmas:
                    if which == "a":
                        a_ready = t2
                    else:
                        b_ready = t2
            nbytes = (rows * k + k * cols) * sz
            t1 = tm.op(_step("cube_load_l0", "MTE1", bytes=nbytes), MTE1, max(a_ready, b_ready, l0_free[s % 2]),
                       None)
            l1_free[s % depth] = t1
            m_end = tm.op(_step("cube_mmad", "M", mkn=(rows, k, cols), in_bytes=sz), M, t1, None)
            l0_free[s % 2] = m_end
        if op.name == "iterate_all":
            end = tm.op(_step("cube_fixpipe", "FIX", bytes=rows * cols * a["dst"].itemsize), FIX, m_end, None)
        else:
            end = m_end
    tm.cube_mte2 = cube_mte2
    return end


SCHEDULES = {"iterate_all": schedule, "matmul_block": schedule, "get_tensor_c": schedule}
