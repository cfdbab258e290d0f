"""Element math of v1 compare and select: bit masks packed little-endian (bit i of byte i // 8), and the
block's 128-bit compare register (written by ``compare`` without a destination and ``set_cmp_mask``)."""
from __future__ import annotations

import numpy as np

from .impls import elements as _elements, impl

_CMP = {"LT": np.less, "GT": np.greater, "EQ": np.equal, "LE": np.less_equal, "GE": np.greater_equal,
        "NE": np.not_equal}
CMP_REGISTER_BYTES = 16


def cmp_register(eng):
    reg = getattr(eng, "cmp_register", None)
    if reg is None:
        reg = eng.cmp_register = np.zeros(CMP_REGISTER_BYTES, np.uint8)
    return reg


def compare_bits(mode, x, y, positions, nbits):
    """The packed bits of ``x <mode> y`` at ``positions`` of an ``nbits`` grid (lanes not processed: 0)."""
    bits = np.zeros(-(-nbits // 8) * 8, bool)
    bits[positions] = _CMP[mode](x, y)
    return np.packbits(bits, bitorder="little")


def _values(eng, t, ix, count):
    arr, i = _elements(eng, t, ix, count)
    return arr[i]


@impl("compare", "compare_scalar")
def _compare(eng, op):
    a = op.attrs
    idx = a["idx"] or [None] * len(a["srcs"])
    xs = [_values(eng, t, ix, a["count"]) for t, ix in zip(a["srcs"], idx)]
    y = xs[1] if len(xs) > 1 else xs[0].dtype.type(a["scalar"])
    packed = compare_bits(a["mode"], xs[0], y, a["bits"], a["nbits"])
    if a["dst"] is None:
        reg = cmp_register(eng)
        reg[:] = 0
        reg[:packed.size] = packed[:CMP_REGISTER_BYTES]
        return
    d, base = eng.byte_view(a["dst"])
    d[base: base + packed.size] = packed


@impl("select")
def _select(eng, op):
    a = op.attrs
    idx = a["idx"] or [None] * (1 + len(a["srcs"]))
    d, di = _elements(eng, a["dst"], idx[0], a["count"])
    x = _values(eng, a["srcs"][0], idx[1], a["count"])
    y = _values(eng, a["srcs"][1], idx[2], a["count"]) if a["scalar"] is None else d.dtype.type(a["scalar"])
    bits = a["bits"]
    if a["sel_mask"] is None:
        packed = cmp_register(eng)
    else:
        m, base = eng.byte_view(a["sel_mask"])
        packed = m[base: base + int(bits.max()) // 8 + 1] if bits.size else m[base:base]
    take = np.unpackbits(packed, bitorder="little")[bits].astype(bool) if bits.size else np.zeros(0, bool)
    d[di] = np.where(take, x, y)


@impl("get_cmp_mask")
def _get_cmp_mask(eng, op):
    d, base = eng.byte_view(op.attrs["dst"])
    d[base: base + CMP_REGISTER_BYTES] = cmp_register(eng)


@impl("set_cmp_mask")
def _set_cmp_mask(eng, op):
    s, base = eng.byte_view(op.attrs["src"])
    cmp_register(eng)[:] = s[base: base + CMP_REGISTER_BYTES]
