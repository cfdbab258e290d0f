"""What each v1 instruction computes (numpy, in the instruction's dtype: fp16 rounds after every op)."""
from __future__ import annotations

import numpy as np

from ...ir.registry import PIPES
from ..convert import as_compute
from ..ops import arith
from .impls import elements as _elements, impl, operands


# The element math is the tile ops' (``sim.ops.arith``): narrow floats computed in float32 and rounded once
# to the instruction's dtype (as the device rounds after every instruction), integer division truncating.
_BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "max": np.maximum,
           "min": np.minimum}
_UNARY = {"exp": "exp", "sqrt": "sqrt", "abs": "abs", "relu": "relu", "ln": "log", "rsqrt": "rsqrt",
          "reciprocal": None}


@impl(*_BINARY)
def _binary(eng, op):
    d, di, (x, y) = operands(eng, op)
    d[di] = binary_values(op.name, x, y, d.dtype)


# The element math of the elementwise instructions, on one block's operands or (replay) every block's at once.
def binary_values(name, x, y, dtype):
    return arith.binary_values(name, x, y, np.dtype(dtype))


def unary_values(name, x, dtype):
    dtype = np.dtype(dtype)
    with np.errstate(all="ignore"):
        v = as_compute(x, arith.compute_dtype(dtype))
        kind = _UNARY[name]
        r = v.dtype.type(1) / v if kind is None else arith.UNARY_FUNCS[kind](v)
        return np.asarray(r).astype(dtype, copy=False)


def scalar_values(name, v, scalar, old, dtype):
    """``adds muls maxs mins leaky_relu axpy`` of ``v`` and ``scalar`` (``old``: axpy's destination values)."""
    s = v.dtype.type(scalar)
    with np.errstate(all="ignore"):
        if name == "adds":
            r = v + s
        elif name == "muls":
            r = v * s
        elif name == "maxs":
            r = np.maximum(v, s)
        elif name == "mins":
            r = np.minimum(v, s)
        elif name == "leaky_relu":
            r = np.where(v >= 0, v, v * s)
        else:   # axpy: dst = src * s + dst
            r = (v * s).astype(dtype) + old
        return np.asarray(r).astype(dtype, copy=False)


@impl(*_UNARY)
def _unary(eng, op):
    d, di, (x,) = operands(eng, op)
    d[di] = unary_values(op.name, x, d.dtype)


@impl("adds", "muls", "leaky_relu", "maxs", "mins", "axpy")
def _scalar(eng, op):
    d, di, (x,) = operands(eng, op)
    d[di] = scalar_values(op.name, x, op.attrs["scalar"], d[di] if op.name == "axpy" else None, d.dtype)


@impl("duplicate")
def _duplicate(eng, op):
    a = op.attrs
    d, di = _elements(eng, a["dst"], (a["idx"] or [None])[0], a["count"])
    d[di] = d.dtype.type(a["scalar"])


@impl("get_value")
def _get_value(eng, op):
    arr, base = eng.view(op.attrs["src"])
    v = arr[base + op.attrs["index"]]
    return v.item()


@impl("set_value")
def _set_value(eng, op):
    arr, base = eng.view(op.attrs["dst"])
    arr[base + op.attrs["index"]] = arr.dtype.type(op.attrs["value"])


@impl("bilinear_interpolation")
def _bilinear(eng, op):
    a = op.attrs
    dst, (src0, off, src1) = a["dst"], a["srcs"]
    d, db = eng.view(dst)
    s0, s0b = eng.view(src0)
    o, ob = eng.view(off)
    s1, s1b = eng.view(src1)
    per = 32 // dst.itemsize
    lanes = np.nonzero(a["active"])[0]
    blk, e = lanes // per, lanes % per
    hr = a["h_repeat"]
    for v in range(a["v_repeat"]):
        acc = None
        for h in range(hr):
            it = v * hr + h
            starts = o[ob + it * 8: ob + it * 8 + 8].astype(np.int64) // src0.itemsize
            vals = s0[s0b + starts[blk] + e]
            w = s1[s1b + it * 8 + blk] if a["repeat_mode"] else s1[s1b + it]
            prod = (vals * w).astype(d.dtype)
            acc = prod if acc is None else (acc + prod).astype(d.dtype)
        d[db + v * a["v_r_offset"] + blk * a["dst_blk_stride"] * per + e] = acc


@impl("softmax")
def _softmax(eng, op):
    a = op.attrs
    m, n, per = a["m"], a["n"], a["per"]
    x, xb = eng.view(a["src"])
    rows = x[xb: xb + m * n].reshape(m, n)
    t = rows.dtype
    mx = rows.max(axis=1, keepdims=True)
    ex = np.exp((rows - mx).astype(t)).astype(t)
    sm = ex.sum(axis=1, keepdims=True, dtype=np.float32).astype(t)
    d, db = eng.view(a["dst"])
    d[db: db + m * n] = (ex / sm).astype(t).reshape(-1)
    for name, val in (("sum", sm), ("max", mx)):
        arr, base = eng.view(a[name])
        arr[base: base + m * per] = np.repeat(val.reshape(-1), per).astype(arr.dtype)


@impl("quant")
def _quant(eng, op):
    a = op.attrs
    n = a["count"]
    x, xb = eng.view(a["src"])
    h = x[xb: xb + n].astype(np.float16)
    r = (h * np.float16(a["scale"])).astype(np.float16) + np.float16(a["offset"])
    d, db = eng.view(a["dst"])
    d[db: db + n] = np.clip(np.rint(r.astype(np.float16)), -128, 127).astype(np.int8)


@impl("dump_tensor")
def _dump_tensor(eng, op):
    """DumpTensor / LocalTensor.print / to_file, as the CPU debug build: the values when the scalar unit reads them."""
    a = op.attrs
    t, n = a["src"], a["count"]
    arr, base = eng.view(t)
    values = np.array(arr[base: base + n])
    if a["mode"] == "file":
        values.tofile(a["file"])
        return 0
    if a["mode"] == "dump":
        head = f"DumpTensor: desc={a['desc']}, addr={t.addr}, data_type={t.dtype}, position={t.position}"
        if a.get("shape"):
            values = values.reshape(a["shape"]) if int(np.prod(a["shape"])) == n else values
        print(head, values, sep="\n")
        return None
    per_line = max(1, 32 // values.dtype.itemsize)      # Print: one 32-byte data block per line
    for i in range(0, n, per_line):
        print(" ".join(str(v) for v in values[i: i + per_line]))
    return None


@impl("get_system_cycle")
def _get_system_cycle(eng, op):
    """The 50 MHz system counter at the scalar unit's current tick."""
    return int(eng.timing.free[PIPES.index("S")] * 50.0 / eng.hw.clock_mhz)
