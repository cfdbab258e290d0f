"""What the cube core's own instructions compute (``language/v1/cube.py`` builds them): fractal moves, the
ND -> NZ copy, mmad over the ZZ / ZN / NZ layouts, and the fixpipe's NZ -> ND conversion with its
quantisation.

Numerics as the cube: fp16 / bf16 (and fp32) products are exact, summed in float64 and added to L0C in
float32, rounded once per mmad; int8 products sum into int32 (wrapping as the 32-bit register does).
The fixpipe's quantisation scale is the device's 19-bit field of ``deq_scalar`` (bits 13-31 of the float32
pattern; the low 13 mantissa bits are dropped), its int8 offset the signed 9-bit field at bits 37-45; scaled
values round half to even and saturate to the output type; ReLU clamps the scaled value before the offset."""
from __future__ import annotations

import numpy as np

from ..ops.arith import hf32
from .impls import impl

FRACTAL = 512


@impl("load_data", "load_data_with_transpose")
def _load_data(eng, op):
    a = op.attrs
    da, db = eng.byte_view(a["dst"])
    sa, sb = eng.byte_view(a["src"])
    for s, d in a["moves"]:
        frac = sa[sb + s: sb + s + FRACTAL]
        if a["transpose"]:      # a 16 x 16 fractal of 2-byte elements
            frac = frac.view(np.uint16).reshape(16, 16).T.copy().view(np.uint8).reshape(-1)
        da[db + d: db + d + FRACTAL] = frac


@impl("data_copy_nd2nz")
def _nd2nz(eng, op):
    a = op.attrs
    nd, rows, cols, s_mat, s_ld, c0_stride, n_stride, d_mat = a["p"]
    c0 = a["c0"]
    src, sbase = eng.view(a["src"])
    dst, dbase = eng.view(a["dst"])
    blocks = -(-cols // c0)
    for i in range(nd):
        x = src[sbase + i * s_mat + np.arange(rows)[:, None] * s_ld + np.arange(cols)[None, :]]
        padded = np.zeros((rows, blocks * c0), dtype=dst.dtype)
        padded[:, :cols] = x
        idx = (dbase + i * d_mat + np.arange(blocks)[None, :, None] * c0_stride * c0
               + np.arange(rows)[:, None, None] * n_stride * c0 + np.arange(c0)[None, None, :])
        dst[idx] = padded.reshape(rows, blocks, c0)


def zz_matrix(arr, base, rows, cols, c0):
    """The rows x cols matrix stored ZZ at ``arr[base:]`` (L0A): fractals 16 x c0 row-major over the blocks."""
    kb = -(-cols // c0)
    i, j = np.arange(rows)[:, None], np.arange(cols)[None, :]
    return arr[base + ((i // 16) * kb + j // c0) * 16 * c0 + (i % 16) * c0 + j % c0]


def zn_matrix(arr, base, rows, cols, c0):
    """The rows (k) x cols (n) matrix stored ZN at ``arr[base:]`` (L0B): fractals over (k-block, n-block),
    each holding 16 columns of c0 k-values."""
    nb = -(-cols // 16)
    i, j = np.arange(rows)[:, None], np.arange(cols)[None, :]
    return arr[base + ((i // c0) * nb + j // 16) * 16 * c0 + (j % 16) * c0 + i % c0]


def nz_index(base, rows, cols, rows_padded, c0=16):
    i, j = np.arange(rows)[:, None], np.arange(cols)[None, :]
    return base + (j // c0) * rows_padded * c0 + i * c0 + j % c0


@impl("mmad")
def _mmad(eng, op):
    a = op.attrs
    m, n, k = a["mnk"]
    if not (m and n and k):
        return
    fm, filt, dst = a["fm"], a["filter"], a["dst"]
    c0 = 32 // fm.itemsize
    A = zz_matrix(*eng.view(fm), m, k, c0)
    B = zn_matrix(*eng.view(filt), k, n, c0)
    carr, cbase = eng.view(dst)
    idx = nz_index(cbase, m, n, -(-m // 16) * 16)
    if carr.dtype.kind == "i":
        prod = np.einsum("ik,kn->in", A.astype(np.int64), B.astype(np.int64))
        if a["acc"]:
            prod = prod + carr[idx]
        carr[idx] = ((prod + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int32)
        return
    if a.get("hf32") and A.dtype == np.float32:      # HF32 mode: the operands rounded as the trans mode says
        A, B = (hf32(x, toward_zero=a["hf32"] == "toward_zero") for x in (A, B))
    # einsum's own loop, not BLAS: as fast at these sizes, and free of thread start-up on a busy machine
    prod = np.einsum("ik,kn->in", A.astype(np.float64), B.astype(np.float64))
    with np.errstate(all="ignore"):
        if a["acc"]:
            prod = carr[idx].astype(np.float64) + prod
        carr[idx] = prod.astype(np.float32)


def scale_of(bits):
    """The 19-bit scale the fixpipe takes from a quantisation word (float32 bits 13-31)."""
    return np.asarray(np.asarray(bits, dtype=np.uint64) & np.uint64(0xFFFFE000)).astype(np.uint32).view(np.float32)


def offset_of(bits):
    """The signed 9-bit offset at bits 37-45 of a quantisation word (int8 output modes)."""
    v = (np.asarray(bits, dtype=np.uint64) >> np.uint64(37)) & np.uint64(0x1FF)
    v = v.astype(np.int64)
    return np.where(v >= 256, v - 512, v)


def quantise(x, name, scale, offset, relu, out):
    """Values ``x`` (float32 / int32 from L0C) through the fixpipe's ``name`` mode (``QuantModes``' names) into
    dtype ``out``."""
    with np.errstate(all="ignore"):
        if name == "NoQuant":
            v = np.maximum(x, 0) if relu else x
            return v.astype(out)
        if name in ("F322F16", "F322BF16"):
            v = np.maximum(x, 0) if relu else x
            return v.astype(np.float32).astype(out)
        v = x.astype(np.float32) * scale            # the deq / quant multiply, in float32
        if relu:
            v = np.maximum(v, 0)
        if name.endswith("DEQF16"):
            return v.astype(np.float16)
        info = np.iinfo(out)
        r = np.rint(v.astype(np.float64) + offset)
        return np.clip(r, info.min, info.max).astype(out)


@impl("fixpipe")
def _fixpipe(eng, op):
    a = op.attrs
    src, dst = a["src"], a["dst"]
    sarr, sbase = eng.view(src)
    darr, dbase = eng.view(dst)
    m, n = a["m"], a["n"]
    s_stride, d_stride, s_nd, d_nd = a["strides"]
    q = a["quant"]
    if a["work"] is not None and q.name.startswith("V"):
        warr, wbase = eng.view(a["work"])
        words = warr[wbase: wbase + n].astype(np.uint64)
        scale, offset = scale_of(words)[None, :], offset_of(words)[None, :]
    else:
        scale, offset = scale_of(a["scalar"]), offset_of(a["scalar"])
    for i in range(a["nd"]):
        base = sbase + i * s_nd * 1024 // src.itemsize
        x = sarr[nz_index(base, m, n, s_stride)]
        y = quantise(x, q.name, scale, offset, a["relu"], darr.dtype)
        if a["nz"]:
            blk = 16      # an NZ column block of the output: 16 columns
            jj = np.arange(n)[None, :]
            idx = dbase + i * d_nd + (jj // blk) * d_stride * 32 // dst.itemsize + np.arange(m)[:, None] * blk + jj % blk
        else:
            idx = dbase + i * d_nd + np.arange(m)[:, None] * d_stride + np.arange(n)[None, :]
        darr[idx] = y


@impl("init_const_value")
def _init_const(eng, op):
    a = op.attrs
    arr, base = eng.view(a["dst"])
    per = arr.dtype.itemsize
    for off, run in a["runs"]:
        arr[base + off // per: base + (off + run) // per] = arr.dtype.type(a["value"])


@impl("load_data_3d")
def _load_3d(eng, op):
    g = op.attrs["geo"]
    c0, ho, wo = g["c0"], g["ho"], g["wo"]
    src, sb = eng.view(op.attrs["src"])
    fmap = src[sb: sb + g["c1"] * g["h"] * g["w"] * c0].reshape(g["c1"], g["h"], g["w"], c0)
    m = g["m0"] + np.arange(g["me"])[:, None]
    k = g["k0"] + np.arange(g["ke"])[None, :]
    oh, ow = m // wo, m % wo
    c1, rest = k // (g["fh"] * g["fw"] * c0), k % (g["fh"] * g["fw"] * c0)
    kh, kw, cc = rest // (g["fw"] * c0), (rest // c0) % g["fw"], rest % c0
    r = oh * g["stride"][0] - g["pads"][2] + kh * g["dil"][0]
    c = ow * g["stride"][1] - g["pads"][0] + kw * g["dil"][1]
    inside = (m < ho * wo) & (r >= 0) & (r < g["h"]) & (c >= 0) & (c < g["w"])
    vals = np.where(inside, fmap[c1, np.clip(r, 0, g["h"] - 1), np.clip(c, 0, g["w"] - 1), cc],
                    fmap.dtype.type(g["pad_value"]))
    dst, db = eng.view(op.attrs["dst"])
    i, j = np.arange(g["me"])[:, None], np.arange(g["ke"])[None, :]
    dst[db + ((i // 16) * (g["ke"] // c0) + j // c0) * 16 * c0 + (i % 16) * c0 + j % c0] = vals


@impl("data_copy_nz2nd")
def _nz2nd(eng, op):
    nd, rows, cols, s_mat, s_n, d_ld, d_mat = op.attrs["p"]
    c0 = op.attrs["c0"]
    src, sb = eng.view(op.attrs["src"])
    dst, db = eng.view(op.attrs["dst"])
    per_row = 32 // src.itemsize          # a 32-byte row of a column block holds c0 elements
    r, c = np.arange(rows)[:, None], np.arange(cols)[None, :]
    for i in range(nd):
        x = src[sb + i * s_mat + (c // c0) * s_n * per_row + r * c0 + c % c0]
        dst[db + i * d_mat + r * d_ld + c] = x


@impl("load_data_with_sparse")
def _load_sparse(eng, op):
    a = op.attrs
    da, db = eng.byte_view(a["dst"])
    sa, sb = eng.byte_view(a["src"])
    ia, ib = eng.byte_view(a["idx"])
    side = eng.__dict__.setdefault("sparse_index", {})
    for s, d in a["moves"]:
        da[db + d: db + d + FRACTAL] = sa[sb + s: sb + s + FRACTAL]
        packed = ia[ib + s // 4: ib + s // 4 + 128]
        side[a["dst"].addr + d] = ((packed[:, None] >> np.arange(0, 8, 2)[None, :]) & 3).reshape(-1).astype(np.int64)


def _sparse_b(eng, filt, k, n):
    """The full k x n B of a densified (k / 2 x n, ZN) B2 and the indices its loads brought."""
    side = getattr(eng, "sparse_index", {})
    arr, base = eng.view(filt)
    kd, c0 = k // 2, 32
    nb = -(-n // 16)
    i, j = np.arange(kd)[:, None], np.arange(n)[None, :]
    off = ((i // c0) * nb + j // 16) * 16 * c0 + (j % 16) * c0 + i % c0
    dense = arr[base + off].astype(np.int64)
    frac = filt.addr + (off // FRACTAL) * FRACTAL
    idx = np.zeros(off.shape, dtype=np.int64)
    for f in np.unique(frac):
        got = side.get(int(f))
        if got is None:
            raise KeyError(int(f))
        sel = frac == f
        idx[sel] = got[(off[sel] % FRACTAL)]
    pos = 4 * (i // 2) + np.where(i % 2 == 0, idx, idx + 1)
    full = np.zeros((k, n), dtype=np.int64)
    np.add.at(full, (np.minimum(pos, k - 1), np.broadcast_to(j, pos.shape)), dense)
    return full


@impl("mmad_with_sparse")
def _mmad_sparse(eng, op):
    a = op.attrs
    m, n, k = a["mnk"]
    if not (m and n and k):
        return
    A = zz_matrix(*eng.view(a["fm"]), m, k, 32).astype(np.int64)
    B = _sparse_b(eng, a["filter"], k, n)
    carr, cbase = eng.view(a["dst"])
    idx = nz_index(cbase, m, n, -(-m // 16) * 16)
    prod = np.einsum("ik,kn->in", A, B)
    if a["acc"]:
        prod = prod + carr[idx]
    carr[idx] = ((prod + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int32)
