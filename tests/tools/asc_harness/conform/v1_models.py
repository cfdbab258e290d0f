"""numpy models of the v1 reduction, compare, cast, gather and sort instructions, each written from the
instruction's docstring (DOC_HANDLES in upstream's asc/language/basic/utils.py). Where a docstring is silent
the choice is named here (and in docs/conformance.md):

- sums add adjacent pairs level by level (the docstrings' binary tree), lanes outside the mask as 0, every
  level rounded to the element type; the half sums of whole_reduce_sum / repeat_reduce_sum /
  block_reduce_sum stop at +-65504 (the docstrings state +65504; -65504 is taken as its mirror);
- max / min take the first extreme (lowest lane); whole_reduce_* index the lane within the repeat; the
  level-2 reduce_max / reduce_min index the element's offset in src (silent: the position in the input);
- a block (block_reduce_*) or pair (pair_reduce_sum, as its docstring states) with no active lane keeps dst,
  and so does a reduction of no element (repeat_time 0);
- compare packs bit r * lanes + l for lane l of repeat r (little-endian), lanes outside the mask give 0 bits
  (silent), the destination's strides are not used (silent);
- gather consumes one offset per lane position (r * lanes + l), as the count form does for element i;
- sort32 records are 8 bytes: the score (half: then 2 zero bytes), then the uint32 index; ties keep the
  earlier element first (stated).
"""

from __future__ import annotations

import numpy as np

NP = {"float16": np.float16, "float32": np.float32, "int16": np.int16, "int32": np.int32, "int8": np.int8,
      "uint8": np.uint8, "int64": np.int64, "uint16": np.uint16, "uint32": np.uint32}
HALF_MAX = 65504.0


def lanes(dtype: str) -> int:
    return 256 // np.dtype(NP[dtype]).itemsize


def active(mask, n: int) -> np.ndarray:
    """The lanes of one repeat a mask (an int: the first lanes; a list of 64-bit words: bit i lane i) selects."""
    if isinstance(mask, list):
        words = [int(w) for w in mask] + [0, 0]
        bits = np.unpackbits(np.array(words[:2], dtype=np.uint64).view(np.uint8), bitorder="little")
        return bits[:n].astype(bool)
    return np.arange(n) < int(mask)


def mask_of(spec: dict):
    """The mask a call works with: its own, or (the register form: ``is_set_mask=False`` after
    ``set_vector_mask``) the register's first ``len`` lanes or its [low, high] words."""
    if spec["form"] != "register":
        return spec["mask"]
    reg = spec["register"]
    return int(reg["len"]) if "len" in reg else [int(reg["low"]), int(reg["high"])]


def counted(spec: dict):
    """The element count of a call in Counter mode (``set_mask_count()`` and the mask as the count, or
    ``set_vector_mask(len, mode=COUNTER)`` and ``is_set_mask=False``), else None."""
    if spec["form"] == "counter":
        return int(spec["mask"][0] if isinstance(spec["mask"], list) else spec["mask"])
    if spec["form"] == "register" and spec["register"].get("mode") == "COUNTER":
        return int(spec["register"]["len"])
    return None


def repeats(spec: dict, n: int) -> int:
    """Repeats a mask-form call runs: ``repeat_times``, or in Counter mode as many as its count needs
    (``repeat_times`` ignored, as set_mask_count's docstring states: the unit infers them)."""
    c = counted(spec)
    return int(spec["repeat_times"]) if c is None else -(-c // n)


def lanes_on(spec: dict, n: int) -> np.ndarray:
    """(repeats, n) lanes each repeat works on: the mask's in every repeat, or in Counter mode the first
    ``count`` element positions (the last repeat partial)."""
    c = counted(spec)
    if c is None:
        reps = int(spec["repeat_times"])
        return np.broadcast_to(active(mask_of(spec), n), (reps, n))
    return (np.arange(repeats(spec, n) * n) < c).reshape(-1, n)


def grid(n_lanes: int, per_blk: int, reps: int, blk: int, rep: int) -> np.ndarray:
    """(reps, lanes) element indices of an operand: lane l of repeat r at block l // per_blk."""
    r, ln = np.arange(reps)[:, None], np.arange(n_lanes)[None, :]
    return (r * rep + (ln // per_blk) * blk) * per_blk + ln % per_blk


# -- reductions ------------------------------------------------------------------------------------------
def tree_sum(v: np.ndarray, dt, saturate: bool) -> np.ndarray:
    """Sum along the last axis as the docstrings' binary tree (zero-padded to a power of two)."""
    k = v.shape[-1]
    size = 1 << max(0, (k - 1).bit_length())
    v = np.concatenate([v, np.zeros(v.shape[:-1] + (size - k,))], axis=-1).astype(dt)
    with np.errstate(all="ignore"):
        while v.shape[-1] > 1:
            a, b = v[..., 0::2].astype(np.float32), v[..., 1::2].astype(np.float32)
            s = a + b
            if saturate:
                s = np.where(np.isfinite(a) & np.isfinite(b), np.clip(s, -HALF_MAX, HALF_MAX), s)
            v = s.astype(dt)
    return v[..., 0]


def _first_extreme(kind: str, vals: np.ndarray, ok: np.ndarray):
    filled = np.where(ok, vals.astype(np.float64), -np.inf if kind == "max" else np.inf)
    i = (np.argmax if kind == "max" else np.argmin)(filled, axis=-1)
    return np.take_along_axis(vals, i[..., None], -1)[..., 0], i


def _put(zb: np.ndarray, at: int, data: bytes) -> None:
    zb[at:at + len(data)] = np.frombuffer(data, np.uint8)


def reduce_ref(spec: dict, x: np.ndarray, z0: np.ndarray) -> np.ndarray:
    """dst after one reduction (bytes of z); ``x`` the source."""
    op, dt = spec["op"], NP[spec["dtype"]]
    isz, n = np.dtype(dt).itemsize, lanes(spec["dtype"])
    zb = np.array(z0).view(np.uint8).copy()
    if op.startswith("reduce_"):
        return _level2(spec, x, zb)
    ok = lanes_on(spec, n)
    reps = ok.shape[0]
    g = grid(n, 32 // isz, reps, spec["src_blk"], spec["src_rep"])
    vals = x[g] if reps else np.zeros((0, n), dt)
    kind = op.rsplit("_", 1)[1]
    sat = dt == np.float16
    drs = spec["dst_rep"]
    for r in range(reps):
        v, o = vals[r], ok[r]
        if op.startswith("block_reduce"):
            for b in range(8):
                sl = slice(b * n // 8, (b + 1) * n // 8)
                if not o[sl].any():
                    continue
                res = (tree_sum(np.where(o[sl], v[sl], 0), dt, sat) if kind == "sum"
                       else _first_extreme(kind, v[sl], o[sl])[0])
                _put(zb, (r * drs * 8 + b) * isz, dt(res).tobytes())
        elif op == "pair_reduce_sum":
            for k in range(n // 2):
                pair = slice(2 * k, 2 * k + 2)
                if o[pair].any():
                    res = tree_sum(np.where(o[pair], v[pair], 0), dt, False)
                    _put(zb, (r * drs * (n // 2) + k) * isz, dt(res).tobytes())
        elif kind == "sum":
            _put(zb, r * drs * isz, dt(tree_sum(np.where(o, v, 0), dt, sat)).tobytes())
        else:
            val, i = _first_extreme(kind, v, o)
            order = spec.get("order", "ORDER_VALUE_INDEX")
            vb = dt(val).tobytes()
            ib = (np.uint16(i) if isz == 2 else np.uint32(i)).tobytes()
            data, unit = {"ORDER_VALUE_INDEX": (vb + ib, 2 * isz), "ORDER_INDEX_VALUE": (ib + vb, 2 * isz),
                          "ORDER_ONLY_VALUE": (vb, isz), "ORDER_ONLY_INDEX": (np.uint32(i).tobytes(), 4)}[order]
            _put(zb, r * drs * unit, data)
    return zb


def _level2(spec: dict, x: np.ndarray, zb: np.ndarray) -> np.ndarray:
    """reduce_sum / reduce_max / reduce_min: the count form's first ``count`` elements in repeats of one
    256-byte repeat each (sums: a tree within each repeat, the repeats' sums added in order); the mask form's
    repeats (sums: a tree within each repeat and a tree over the repeats)."""
    op, dt = spec["op"], NP[spec["dtype"]]
    n = lanes(spec["dtype"])
    if spec["form"] == "count":
        cnt = int(spec["count"])
        reps = -(-cnt // n)
        g = np.arange(reps * n).reshape(reps, n)
        ok = g < cnt
    else:
        ok = lanes_on(spec, n)
        g = grid(n, 32 // np.dtype(dt).itemsize, ok.shape[0], 1, spec["src_rep"])
    if not ok.any():            # nothing reduced (repeat_time 0): dst keeps its values
        return zb
    vals = x[np.where(ok, g, 0)]
    if op == "reduce_sum":
        per = tree_sum(np.where(ok, vals, 0), dt, False)
        if spec["form"] == "count":
            acc = per[0] if per.size else dt(0)
            with np.errstate(all="ignore"):
                for p in per[1:]:
                    acc = dt(np.float32(acc) + np.float32(p))
        else:
            acc = tree_sum(per[None, :], dt, False) if per.size else dt(0)
        _put(zb, 0, dt(acc).tobytes())
        return zb
    val, k = _first_extreme(op[7:], vals.reshape(-1), ok.reshape(-1))
    data = dt(val).tobytes()
    if spec.get("cal_index"):
        i = int(g.reshape(-1)[k])
        data += (np.uint16(i) if np.dtype(dt).itemsize == 2 else np.uint32(i)).tobytes()
    _put(zb, 0, data)
    return zb


# -- compare ---------------------------------------------------------------------------------------------
CMP = {"LT": np.less, "GT": np.greater, "EQ": np.equal, "LE": np.less_equal, "GE": np.greater_equal,
       "NE": np.not_equal}


def compare_ref(spec: dict, x: np.ndarray, y: np.ndarray, z0: np.ndarray) -> np.ndarray:
    dt = NP[spec["dtype"]]
    n, per_blk = lanes(spec["dtype"]), 32 // np.dtype(dt).itemsize
    rhs = (lambda ix: y[ix]) if spec["op"] == "compare" else (lambda ix: dt(spec["scalar"]))
    if spec["form"] == "count":
        cnt = int(spec["count"])
        bits = CMP[spec["cmp"]](x[:cnt], rhs(np.arange(cnt)))
    else:
        ok = lanes_on(spec, n)
        reps = ok.shape[0]
        (b0, r0), (b1, r1) = spec["strides"][1], spec["strides"][-1]
        g0, g1 = grid(n, per_blk, reps, b0, r0), grid(n, per_blk, reps, b1, r1)
        bits = np.where(ok, CMP[spec["cmp"]](x[g0], rhs(g1)), False).reshape(-1)
    zb = np.array(z0).view(np.uint8).copy()
    packed = np.packbits(np.concatenate([bits, np.zeros(-bits.size % 8, bool)]), bitorder="little")
    zb[:packed.size] = packed
    return zb


def select_ref(spec: dict, x: np.ndarray, y, sel: np.ndarray, z0: np.ndarray) -> np.ndarray:
    """dst[i] = src0[i] where the selecting bit is 1, else src1[i] (mode 1: the scalar). Mode 0 reads the same
    first ``lanes`` bits in every repeat (its docstring: a limited number of valid bits), modes 1 and 2 one bit
    per element position (r * lanes + l)."""
    dt = NP[spec["dtype"]]
    n, per_blk = lanes(spec["dtype"]), 32 // np.dtype(dt).itemsize
    bits = np.unpackbits(np.asarray(sel, np.uint8), bitorder="little").astype(bool)
    z = np.array(z0, dt).copy()
    other = (lambda ix: dt(spec["scalar"])) if spec["sel_mode"] == 1 else (lambda ix: y[ix])
    if spec["form"] == "count":
        i = np.arange(int(spec["count"]))
        pos = i % n if spec["sel_mode"] == 0 else i
        z[i] = np.where(bits[pos], x[i], other(i))
        return z
    ok = lanes_on(spec, n)
    gd, g0, g1 = (grid(n, per_blk, ok.shape[0], b, r) for b, r in spec["strides"])
    for r, on in enumerate(ok):
        lane = np.nonzero(on)[0]
        pos = lane if spec["sel_mode"] == 0 else r * n + lane
        z[gd[r][on]] = np.where(bits[pos], x[g0[r][on]], other(g1[r][on]))
    return z


# -- cast ------------------------------------------------------------------------------------------------
def _to_float(v64: np.ndarray, dt, mode: str) -> np.ndarray:
    """float64 values to a float type with a rounding mode (NONE / RINT: to nearest even)."""
    with np.errstate(over="ignore"):
        near = v64.astype(dt)
    if mode in ("CAST_NONE", "CAST_RINT"):
        return near
    with np.errstate(all="ignore"):
        back = near.astype(np.float64)
        down = np.where(back > v64, np.nextafter(near, dt(-np.inf)), near)
        up = np.where(back < v64, np.nextafter(near, dt(np.inf)), near)
        exact = back == v64
        if mode == "CAST_FLOOR":
            return down
        if mode == "CAST_CEIL":
            return up
        if mode == "CAST_TRUNC":
            return np.where(v64 < 0, up, down)
        if mode == "CAST_ROUND":        # nearest, ties away from zero
            dlo, dhi = v64 - down.astype(np.float64), up.astype(np.float64) - v64
            tie_away = np.where(v64 < 0, down, up)
            return np.where(exact, near, np.where(dlo == dhi, tie_away, near))
        # CAST_ODD: the neighbour whose last mantissa bit is 1 when inexact
        bits = down.view(np.uint16 if dt == np.float16 else np.uint32)
        return np.where(exact, near, np.where(bits & 1, down, up))


ROUND_TO_INTEGER = {"CAST_NONE": np.rint, "CAST_RINT": np.rint, "CAST_FLOOR": np.floor, "CAST_CEIL": np.ceil,
                    "CAST_TRUNC": np.trunc, "CAST_ROUND": lambda a: np.copysign(np.floor(np.abs(a) + 0.5), a),
                    "CAST_ODD": np.rint}     # to odd is float -> half only (a device rule); never compared


def _to_int(v64: np.ndarray, dt, mode: str) -> np.ndarray:
    info = np.iinfo(dt)
    r = np.nan_to_num(ROUND_TO_INTEGER[mode](v64), nan=0.0, posinf=float(info.max), neginf=float(info.min))
    return np.clip(r, info.min, info.max).astype(dt)


def convert(v: np.ndarray, src: str, dst: str, mode: str) -> np.ndarray:
    sd, dd = NP[src], NP[dst]
    if np.issubdtype(sd, np.integer) and np.issubdtype(dd, np.integer):
        info = np.iinfo(dd)
        return np.clip(v.astype(np.int64), info.min, info.max).astype(dd)
    v64 = v.astype(np.float64)
    if src == dst == "float32":         # float32 to float32: to an integer value (IEEE: -0.3 gives -0.0)
        with np.errstate(all="ignore"):
            return ROUND_TO_INTEGER[mode](v64).astype(np.float32)
    if np.issubdtype(dd, np.integer):
        return _to_int(v64, dd, mode)
    return _to_float(v64, dd, mode)


def cast_ref(spec: dict, x: np.ndarray, z0: np.ndarray) -> np.ndarray:
    src, dst, mode = spec["dtype"], spec["dst_dtype"], spec["round"]
    z = np.array(z0, NP[dst]).copy()
    if spec["form"] == "count":
        cnt = int(spec["count"])
        z[:cnt] = convert(x[:cnt], src, dst, mode)
        return z
    wide = max(np.dtype(NP[src]).itemsize, np.dtype(NP[dst]).itemsize)
    ok = lanes_on(spec, 256 // wide)
    n, reps = 256 // wide, ok.shape[0]
    (db, dr), (sb, sr) = spec["strides"]
    dg = grid(n, 32 // np.dtype(NP[dst]).itemsize, reps, db, dr)
    sg = grid(n, 32 // np.dtype(NP[src]).itemsize, reps, sb, sr)
    for r, on in enumerate(ok):
        z[dg[r][on]] = convert(x[sg[r][on]], src, dst, mode)
    return z


# -- gather ----------------------------------------------------------------------------------------------
def gather_ref(spec: dict, x: np.ndarray, off: np.ndarray, z0: np.ndarray) -> np.ndarray:
    dt = NP[spec["dtype"]]
    isz = np.dtype(dt).itemsize
    z = np.array(z0, dt).copy()
    src_of = (lambda o: x[(int(spec["base"]) + o.astype(np.int64)) // isz])
    if spec["form"] == "count":
        cnt = int(spec["count"])
        z[:cnt] = src_of(off[:cnt])
        return z
    n = lanes(spec["dtype"])
    for r, on in enumerate(lanes_on(spec, n)):
        lane = np.nonzero(on)[0]
        z[r * spec["dst_rep"] * (32 // isz) + lane] = src_of(off[r * n + lane])
    return z


PATTERNS = {1: (0, 2), 2: (1, 2), 3: (0, 4), 4: (1, 4), 5: (2, 4), 6: (3, 4), 7: (0, 1)}


def gather_mask_ref(spec: dict, x: np.ndarray, pattern: np.ndarray, z0: np.ndarray):
    """(dst, kept): each repeat's 256 bytes of src0 (its block stride, repeat stride), the elements whose
    pattern bit is 1 packed into dst in order, across repeats."""
    dt = NP[spec["dtype"]]
    n = lanes(spec["dtype"])
    reps = int(spec["repeat_times"])
    g = grid(n, 32 // np.dtype(dt).itemsize, reps, spec["src_blk"], spec["src_rep"])
    if "pattern" in spec:
        first, step = PATTERNS[spec["pattern"]]
        pick = (np.arange(n) % step) == first
        picks = [pick] * reps
    else:
        bits = np.unpackbits(np.asarray(pattern).view(np.uint8), bitorder="little").astype(bool)
        picks = [bits[:n]] * reps           # src1_repeat_stride 0: every repeat reads the pattern's start
    kept = np.concatenate([x[g[r]][picks[r]] for r in range(reps)]) if reps else np.zeros(0, dt)
    z = np.array(z0, dt).copy()
    z[:kept.size] = kept
    return z, kept.size


# -- sort32 ----------------------------------------------------------------------------------------------
def sort32_ref(spec: dict, scores: np.ndarray, index: np.ndarray, z0: np.ndarray) -> np.ndarray:
    dt = NP[spec["dtype"]]
    zb = np.array(z0).view(np.uint8).copy()
    for r in range(int(spec["repeat_times"])):
        s, ix = scores[32 * r: 32 * r + 32], index[32 * r: 32 * r + 32]
        order = sorted(range(32), key=lambda k: (-float(s[k]), k))
        for j, k in enumerate(order):
            rec = np.zeros(8, np.uint8)
            sb = np.frombuffer(dt(s[k]).tobytes(), np.uint8)
            rec[:sb.size] = sb
            rec[4:] = np.frombuffer(np.uint32(ix[k]).tobytes(), np.uint8)
            zb[(32 * r + j) * 8: (32 * r + j + 1) * 8] = rec
    return zb


def mrg_sort_ref(spec: dict, x: np.ndarray, z0: np.ndarray) -> np.ndarray:
    """The lists' 8-byte records (list j at record 16 * j of x) merged highest score first; equal scores: the
    earlier list first (silent; within a list its order); with suspension the merge stops at the record that
    empties a list."""
    dt = NP[spec["dtype"]]
    isz = np.dtype(dt).itemsize
    rec = np.asarray(x).view(np.uint8).reshape(-1, 8)
    valid = spec.get("valid", (1 << len(spec["counts"])) - 1)
    named = [j for j in range(len(spec["counts"])) if valid >> j & 1]      # the lists valid_bit names
    total = sum(spec["counts"][j] for j in named)
    zb = np.array(z0).view(np.uint8).copy()
    for r in range(int(spec.get("repeat_times", 1))):     # each repeat: src and dst the lists' total further
        lists = [rec[16 * j + r * total: 16 * j + r * total + spec["counts"][j]] for j in named]
        keys = [lst[:, :isz].copy().view(dt).reshape(-1).astype(np.float64) for lst in lists]
        heads, out = [0] * len(lists), []
        while True:
            live = [j for j in range(len(lists)) if heads[j] < len(lists[j])]
            if not live or (spec["suspend"] and len(live) < len(lists)):
                break
            j = max(live, key=lambda k: (keys[k][heads[k]], -k))
            out.append(lists[j][heads[j]])
            heads[j] += 1
        if out:
            zb[8 * r * total: 8 * (r * total + len(out))] = np.concatenate(out)
    return zb
