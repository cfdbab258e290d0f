"""The v1 call forms of the elementwise vector instructions as data: a form *spec* (op, dtype, form, mask,
repeats, strides and how the call spells its arguments) renders to a kernel file both engines run, and
numpy computes what the kernel must leave in its destination.

A spec is a plain dict (it is written into each corpus file as ``SPEC``):

  op, dtype         the instruction and the element type of every operand
  form              count | mask_int | mask_list | counter (Counter mode: ``set_mask_count`` then the mask
                    form, whose mask is the number of elements; ``repeat_times`` is ignored) | register (the
                    mask register set by ``set_vector_mask`` first, the call with ``is_set_mask=False``; Counter
                    mode when ``register["mode"]`` is COUNTER)
  register          {"len": n} or {"high": h, "low": l}, and "mode": NORMAL | COUNTER | None (left out)
  count             the count form's element count
  mask              an int (the first lanes) or a list of 64-bit words (bit i selects lane i)
  repeat_times      repeats of the mask forms
  strides           [[block stride, repeat stride], ...] per operand, destination first (32-byte blocks)
  scalar            the scalar operand of the scalar, axpy and duplicate families
  call              the call's arguments after the operands: [[keyword or None, role], ...]; roles are
                    count, mask, repeat_times, params, is_set_mask, dst_blk, dst_rep. The keyword is the
                    spelling the call uses (``repeat_time=`` and ``params=`` are spellings upstream's own
                    examples use), None passes the value by position
  is_set_mask       the value of an ``is_set_mask`` argument (when the call has one)

The reference model is the vector unit's addressing as Ascend C documents it: a repeat is 256 bytes (8 blocks
of 32 bytes) of the widest operand; lane l of repeat r of an operand with element size s sits at element
``(r * repeat_stride + (l // (32 / s)) * block_stride) * (32 / s) + l % (32 / s)``; inactive lanes keep their
values; half precision computes in float32 and rounds once.
"""

from __future__ import annotations

import math

import numpy as np

FAMILIES = {
    "binary": ("add", "sub", "mul", "div", "max", "min", "add_relu", "sub_relu", "bitwise_and", "bitwise_or",
               "fused_mul_add", "mul_add_dst", "fused_mul_add_relu"),
    "unary": ("exp", "ln", "abs", "reciprocal", "sqrt", "rsqrt", "relu", "bitwise_not"),
    "scalar": ("adds", "muls", "maxs", "mins", "leaky_relu", "shift_left", "shift_right"),
    "axpy": ("axpy",),
    "duplicate": ("duplicate",),
    "copy": ("copy",),
}
FAMILY_OF = {op: fam for fam, ops in FAMILIES.items() for op in ops}
PARAMS_CLASS = {"binary": "BinaryRepeatParams", "unary": "UnaryRepeatParams", "scalar": "UnaryRepeatParams",
                "axpy": "UnaryRepeatParams", "copy": "CopyRepeatParams"}
OPERANDS = {"binary": 3, "unary": 2, "scalar": 2, "axpy": 2, "duplicate": 1, "copy": 2}
NP_DTYPES = {"float16": np.float16, "float32": np.float32, "int16": np.int16, "int32": np.int32,
             "uint16": np.uint16}
FULL = (1 << 64) - 1
UB_BYTES = 192 * 1024      # Ascend910B1's UB: the three operands must fit it


def itemsize(dtype: str) -> int:
    return np.dtype(NP_DTYPES[dtype]).itemsize


def whole_repeats(ops: dict) -> dict:
    """Operands ``{name: (numpy dtype name, elements)}``, each count rounded up to whole 256-byte repeats (one
    at least): the UB tensors of the other families' kernels."""
    out = {}
    for name, (dt, n) in ops.items():
        unit = 256 // np.dtype(dt).itemsize
        out[name] = (dt, max(unit, -(-max(n, 1) // unit) * unit))
    return out


def fits_ub(ops: dict) -> bool:
    """Whether operands ``{name: (numpy dtype name, elements)}`` fit UB with 1 KiB to spare."""
    return sum(n * np.dtype(dt).itemsize for dt, n in ops.values()) <= UB_BYTES - 1024


def lanes(dtype: str) -> int:
    return 256 // itemsize(dtype)


def counted(spec: dict) -> int | None:
    """The element count of a Counter-mode call, else None. ``copy`` is the exception its docstring states: in
    Counter mode its mask is the number of elements of each repeat and ``repeat_time`` counts."""
    if spec["op"] == "copy":
        return None
    if spec["form"] == "counter":
        return int(spec["mask"][0] if isinstance(spec["mask"], list) else spec["mask"])
    if spec["form"] == "register" and spec["register"].get("mode") == "COUNTER":
        return int(spec["register"]["len"])
    return None


def active_lanes(spec: dict) -> np.ndarray:
    """The lanes of one repeat the mask selects (Normal mode)."""
    n = lanes(spec["dtype"])
    m = spec["mask"]
    if spec["form"] == "register":
        reg = spec["register"]
        m = int(reg["len"]) if "len" in reg else [int(reg["low"]), int(reg["high"])]
    elif spec["form"] == "counter":     # copy: the first ``mask`` elements of each repeat
        m = int(m[0] if isinstance(m, list) else m)
    if spec["form"] == "register" and spec["register"].get("mode") == "COUNTER":
        m = int(spec["register"]["len"])
    if isinstance(m, list):
        words = [int(w) for w in m] + [0, 0]
        bits = np.unpackbits(np.array(words[:2], dtype=np.uint64).view(np.uint8), bitorder="little")
        return bits[:n].astype(bool)
    return np.arange(n) < int(m)


def indices(spec: dict) -> list[np.ndarray]:
    """Element indices, per operand (destination first), in the order the instruction processes them."""
    k = OPERANDS[FAMILY_OF[spec["op"]]]
    if spec["form"] == "count":
        return [np.arange(int(spec["count"]))] * k
    per_blk = 32 // itemsize(spec["dtype"])
    n = counted(spec)
    if n is not None:
        active, reps = np.ones(lanes(spec["dtype"]), bool), math.ceil(n / lanes(spec["dtype"]))
    else:
        active, reps, n = active_lanes(spec), int(spec["repeat_times"]), None
    lane = np.nonzero(active)[0]
    out = []
    for blk_stride, rep_stride in spec["strides"][:k]:
        r = np.arange(reps)[:, None]
        idx = ((r * rep_stride + (lane // per_blk)[None, :] * blk_stride) * per_blk + (lane % per_blk)[None, :])
        idx = idx.reshape(-1)
        out.append(idx[:n] if n is not None else idx)
    return out


def extent(spec: dict) -> int:
    """Elements each operand's tensor holds: the furthest index reached, rounded up to a whole repeat."""
    reach = max((int(ix.max()) + 1 for ix in indices(spec) if ix.size), default=1)
    per_rep = lanes(spec["dtype"])
    return max(per_rep, -(-reach // per_rep) * per_rep)


def fits(spec: dict) -> bool:
    """Whether the kernel's three UB tensors fit UB (the fuzzer keeps to kernels that do)."""
    return 3 * extent(spec) * itemsize(spec["dtype"]) <= UB_BYTES


READS_DST = ("fused_mul_add", "mul_add_dst", "fused_mul_add_relu", "axpy")


def defined(spec: dict) -> bool:
    """False when an instruction that reads its destination revisits, in a later repeat, elements an earlier
    repeat wrote: whether that repeat sees the new values depends on the vector pipeline, which Ascend C
    leaves undocumented (the fuzzer keeps away from such calls)."""
    if spec["op"] not in READS_DST or spec["form"] == "count":
        return True
    d = indices(spec)[0]
    step = _per_repeat(spec)
    seen: set = set()
    for lo in range(0, d.size, step):
        part = set(d[lo:lo + step].tolist())
        if part & seen:
            return False
        seen |= part
    return True


def inputs(spec: dict, seed: int = 0) -> dict[str, np.ndarray]:
    """x (src0 / src), y (src1), z (the destination's starting contents), each of ``extent(spec)`` elements."""
    rng = np.random.default_rng(seed)
    dt, n, op = NP_DTYPES[spec["dtype"]], extent(spec), spec["op"]
    if np.issubdtype(dt, np.integer):
        hi = 8 if op.startswith("shift") else 100
        make = (lambda: rng.integers(-hi if np.issubdtype(dt, np.signedinteger) else 0, hi, n).astype(dt))
    elif op in ("ln", "sqrt", "rsqrt", "reciprocal"):
        make = (lambda: (rng.random(n) * 3 + 0.25).astype(dt))
    else:
        make = (lambda: (rng.random(n) * 4 - 2).astype(dt))
    return {"x": make(), "y": make() if op != "div" else (rng.random(n) * 3 + 0.5).astype(dt), "z": make()}


def _math(op: str, a, b, d, s, dt):
    """One instruction's element math in float64 (integers: exact) before rounding to ``dt``."""
    if op in ("bitwise_and", "bitwise_or", "bitwise_not", "shift_left", "shift_right"):
        a, b = a.astype(dt), (b.astype(dt) if b is not None else None)
        return {"bitwise_and": lambda: a & b, "bitwise_or": lambda: a | b, "bitwise_not": lambda: ~a,
                "shift_left": lambda: (a.astype(np.int64) << int(s)).astype(dt),
                "shift_right": lambda: a >> int(s)}[op]()
    f = {
        "add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b, "div": lambda: a / b,
        "max": lambda: np.maximum(a, b), "min": lambda: np.minimum(a, b),
        "add_relu": lambda: np.maximum(a + b, 0), "sub_relu": lambda: np.maximum(a - b, 0),
        "fused_mul_add": lambda: a * d + b, "mul_add_dst": lambda: a * b + d,
        "fused_mul_add_relu": lambda: np.maximum(a * d + b, 0),
        "exp": lambda: np.exp(a), "ln": lambda: np.log(a), "abs": lambda: np.abs(a),
        "reciprocal": lambda: 1 / a, "sqrt": lambda: np.sqrt(a), "rsqrt": lambda: 1 / np.sqrt(a),
        "relu": lambda: np.maximum(a, 0),
        "adds": lambda: a + s, "muls": lambda: a * s, "maxs": lambda: np.maximum(a, s),
        "mins": lambda: np.minimum(a, s), "leaky_relu": lambda: np.where(a >= 0, a, a * s),
        "axpy": lambda: d + a * s, "duplicate": lambda: np.full(d.shape, s), "copy": lambda: a,
    }[op]
    return f()


def _per_repeat(spec: dict) -> int:
    """Elements one repeat processes (the count form: all of them at once)."""
    if spec["form"] == "count":
        return max(1, int(spec["count"]))
    if counted(spec) is not None:
        return lanes(spec["dtype"])
    return max(1, int(active_lanes(spec).sum()))


def reference(spec: dict, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """What the kernel leaves in z: ``arrays`` holds the inputs (x, y, and z0, z's starting contents). Repeats
    run one after another: a repeat whose destination overlaps an earlier one's sees (and overwrites) it."""
    dt = NP_DTYPES[spec["dtype"]]
    z = np.array(arrays["z0"], dtype=dt)
    idx = indices(spec)
    fam = FAMILY_OF[spec["op"]]
    wide = np.float32 if dt in (np.float16, np.float32) else np.int64
    x, y = np.asarray(arrays["x"], dt), np.asarray(arrays["y"], dt)
    s = spec.get("scalar")
    if fam in ("scalar", "axpy", "duplicate") and dt in (np.float16, np.float32):
        s = wide(dt(s))
    elif s is not None:
        s = int(s)          # pyasc materialises a float constant for an integer tensor toward zero
    step = _per_repeat(spec)
    for lo in range(0, idx[0].size, step):
        part = [ix[lo:lo + step] for ix in idx]
        a = x[part[1]].astype(wide) if len(part) > 1 else None
        b = y[part[2]].astype(wide) if len(part) > 2 else None
        d = z[part[0]].astype(wide)
        with np.errstate(all="ignore"):
            v = np.asarray(_math(spec["op"], a, b, d, s, dt))
        if np.issubdtype(dt, np.integer):
            v = v.astype(np.int64)
        z[part[0]] = v.astype(dt)
    return {"z": z}


def tolerance(spec: dict) -> dict:
    transcendental = spec["op"] in ("exp", "ln", "sqrt", "rsqrt", "reciprocal", "div")
    if spec["dtype"] == "float16":
        return {"atol": 1e-3, "rtol": 1e-3}
    return {"atol": 1e-6, "rtol": 2e-6 if transcendental else 1e-6}


# -- rendering ---------------------------------------------------------------------------------------------
def _params(spec: dict) -> str:
    fam = FAMILY_OF[spec["op"]]
    k = OPERANDS[fam]
    st = spec["strides"][:k]
    blk = ", ".join(str(b) for b, _ in st)
    rep = ", ".join(str(r) for _, r in st)
    return f"asc.{PARAMS_CLASS[fam]}({blk}, {rep})"


def mask_text(mask) -> str:
    """A mask as the call spells it: an int, or its 64-bit words (hex past 255)."""
    if isinstance(mask, list):
        return "[" + ", ".join(hex(int(w)) if int(w) > 255 else str(int(w)) for w in mask) + "]"
    return str(int(mask))


def call_text(spec: dict) -> list[str]:
    """The kernel lines of the call (and, in Counter mode, the mode switches around it)."""
    op, fam = spec["op"], FAMILY_OF[spec["op"]]
    operands = {"binary": "dst, src0, src1", "unary": "dst, src0", "scalar": f"dst, src0, {spec.get('scalar')!r}",
                "axpy": f"dst, src0, {spec.get('scalar')!r}", "duplicate": f"dst, {spec.get('scalar')!r}",
                "copy": "dst, src0"}[fam]
    values = {"count": str(spec.get("count")), "mask": mask_text(spec["mask"]) if "mask" in spec else None,
              "repeat_times": str(spec.get("repeat_times")), "params": "params",
              "is_set_mask": str(spec.get("is_set_mask", True)),
              "dst_blk": str(spec["strides"][0][0]) if spec.get("strides") else None,
              "dst_rep": str(spec["strides"][0][1]) if spec.get("strides") else None}
    args = [f"{kw}={values[role]}" if kw else values[role] for kw, role in spec["call"]]
    lines = []
    if any(role == "params" for _, role in spec["call"]):
        lines.append(f"params = {_params(spec)}")
    counter = spec["form"] == "counter" or spec.get("register", {}).get("mode") == "COUNTER"
    if counter:
        lines.append("asc.set_mask_count()")
    if spec["form"] == "register":
        reg = spec["register"]
        words = str(reg["len"]) if "len" in reg else f"{hex(int(reg['high']))}, {hex(int(reg['low']))}"
        mode = f", mode=asc.MaskMode.{reg['mode']}" if reg.get("mode") else ""
        lines.append(f"asc.set_vector_mask({words}, dtype=asc.{spec['dtype']}{mode})")
    lines.append(f"asc.{op}({operands}, {', '.join(args)})")
    if counter:
        lines.append("asc.set_mask_norm()")
    if spec["form"] == "register":
        lines.append("asc.reset_mask()")
    return lines


TEMPLATE = '''"""{doc}"""
import numpy as np

import asc

SPEC = {spec!r}
EXPECT = {expect!r}
{extra}N = {n}


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.{dtype}, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.{dtype}, asc.TPosition.VECIN, {b1}, N)
    dst = asc.LocalTensor(asc.{dtype}, asc.TPosition.VECOUT, {b2}, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
{call}
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, N)


def run():
    arrays = inputs()
    arrays["z0"] = arrays["z"].copy()
    kernel[1](arrays["x"], arrays["y"], arrays["z"])
    return arrays


def inputs():
    from v1_forms import inputs as make  # the driver puts the conform directory on sys.path
    return make(SPEC)


def reference(arrays):
    from v1_forms import reference as ref
    return ref(SPEC, arrays)
'''


def render(spec: dict, doc: str, expect: str = "accept", extra: dict | None = None) -> str:
    """The corpus file of ``spec``. ``extra``: more module constants (HERE, ERROR, RULE, SOURCE, ...)."""
    n = extent(spec)
    nbytes = -(-n * itemsize(spec["dtype"]) // 256) * 256
    extra_text = "".join(f"{k} = {v!r}\n" for k, v in (extra or {}).items())
    call = "\n".join("    " + line for line in call_text(spec))
    return TEMPLATE.format(doc=doc, spec=spec, expect=expect, extra=extra_text, n=n, dtype=spec["dtype"],
                           b1=nbytes, b2=2 * nbytes, call=call)


def describe(spec: dict) -> str:
    """A short name of the form: ``add_float16_mask_int_kw``."""
    spelled = "kw" if all(kw for kw, _ in spec["call"]) else ("pos" if not any(kw for kw, _ in spec["call"])
                                                              else "mixed")
    return f"{spec['op']}_{spec['dtype']}_{spec['form']}_{spelled}"
