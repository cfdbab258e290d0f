"""The v1 call forms of the reduction, compare, select, cast, gather and sort families as data, beside the
elementwise ones of ``v1_forms`` (standard library and numpy only: corpus cases import it under
pyasc-dev too; the Hypothesis strategies are ``v1_strategies``): the kernel file a spec renders
to (every operand loaded from GM, the call, the outputs stored back) and its numpy reference
(``v1_models``). A spec is a plain dict written into each corpus file as ``SPEC``:

  op, dtype           the instruction and its source element type; ``dst_dtype`` for cast
  form                count | mask_int | mask_list | register | counter (Counter mode: set_mask_count, the
                      mask the element count, repeat_times ignored) (| pattern / tensor for gather_mask, repeat for
                      sort32, list / info for mrg_sort)
  count, mask         the count form's element count; the mask form's mask (an int or 64-bit words)
  repeat_times        repeats of the mask forms
  src_blk, src_rep, dst_rep   the reductions' and gather_mask's strides (32-byte blocks, dst as documented)
  strides             [[block, repeat], ...] per operand of compare / cast, destination first
  order, cal_index    whole_reduce_max / min's ReduceOrder; reduce_max / min's index output
  cmp, scalar         compare's CMPMODE; compare_scalar's scalar
  round               cast's RoundMode
  base, dst_rep       gather's src_base (bytes) and destination repeat stride
  pattern             gather_mask's fixed pattern 1-7 (absent: a uint16 / uint32 pattern tensor)
  sel_mode            select's mode 0-2 (mode 1: ``scalar`` is src1)
  counts, suspend, valid   mrg_sort's element counts of its lists, suspension, valid_bit
  register, mask_dtype, is_set_mask   the register form: set_vector_mask's len or words, its dtype (mode
                      COUNTER: the len an element count)
  repeat_times        also mrg_sort's repeats (each the named lists' total further on in src and dst)
  values              how the source values are drawn: random | ties | edges
  call                [[keyword or None, role], ...] of the arguments after the operands
"""

from __future__ import annotations

import numpy as np

try:
    from asc_harness.conform import v1_models as m
    from asc_harness.conform.v1_forms import fits_ub, mask_text, whole_repeats
except ImportError:     # a corpus case under pyasc-dev's interpreter: the conform directory is on sys.path
    import v1_models as m
    from v1_forms import fits_ub, mask_text, whole_repeats

FAMILIES = {
    "reduce": ("whole_reduce_sum", "whole_reduce_max", "whole_reduce_min", "block_reduce_sum", "block_reduce_max",
               "block_reduce_min", "pair_reduce_sum", "repeat_reduce_sum"),
    "reduce2": ("reduce_sum", "reduce_max", "reduce_min"),
    "compare": ("compare", "compare_scalar"),
    "select": ("select",),
    "cast": ("cast",),
    "gather": ("gather",),
    "gather_mask": ("gather_mask",),
    "sort": ("sort32", "mrg_sort"),
}
FAMILY_OF = {op: fam for fam, ops in FAMILIES.items() for op in ops}
SEL_MODES = ("VSEL_CMPMASK_SPR", "VSEL_TENSOR_SCALAR_MODE", "VSEL_TENSOR_TENSOR_MODE")
# the call's positional order after the operands, per op (upstream's signatures)
ORDER = {
    "whole": ("mask", "repeat_time", "dst_rep_stride", "src_blk_stride", "src_rep_stride", "order"),
    "block": ("repeat", "mask", "dst_rep_stride", "src_blk_stride", "src_rep_stride"),
    "pair_reduce_sum": ("repeat_time", "mask", "dst_rep_stride", "src_blk_stride", "src_rep_stride"),
    "repeat_reduce_sum": ("repeat_time", "mask", "dst_blk_stride", "src_blk_stride", "dst_rep_stride",
                          "src_rep_stride"),
}


def _group(op: str) -> str:
    return "whole" if op.startswith("whole") else "block" if op.startswith("block") else op


# -- operands --------------------------------------------------------------------------------------------
def _reps(spec: dict) -> int:
    """Repeats a mask-form call runs (in Counter mode those its count needs, lanes of the widest operand)."""
    if spec["form"] == "count" or "repeat_times" not in spec:
        return int(spec.get("repeat_times", 1) or 0)
    wide = max(np.dtype(m.NP[spec["dtype"]]).itemsize, np.dtype(m.NP[spec.get("dst_dtype", spec["dtype"])]).itemsize)
    return m.repeats(spec, 256 // wide)


def _records(spec: dict) -> tuple[int, int]:
    """mrg_sort's records the lists reach in src (list j at record 16 * j, each repeat the lists' total
    further on) and dst holds (each repeat's total), each at least four lists of 16."""
    counts, rt = spec["counts"], int(spec.get("repeat_times", 1))
    valid = spec.get("valid", (1 << len(counts)) - 1)
    total = sum(c for j, c in enumerate(counts) if valid >> j & 1)      # the named lists' (as this engine)
    src = max(16 * j + (rt - 1) * total + c for j, c in enumerate(counts))
    return max(64, -(-src // 16) * 16), max(64, rt * total)


def _src_reach(spec: dict) -> int:
    fam, n = FAMILY_OF[spec["op"]], m.lanes(spec["dtype"])
    if spec["form"] == "count":
        return int(spec["count"])
    if spec["op"] == "mrg_sort":
        return _records(spec)[0] * 8 // np.dtype(m.NP[spec["dtype"]]).itemsize
    if fam == "sort":
        return 32 * int(spec["repeat_times"])
    reps = _reps(spec)
    if not reps:
        return 1
    if fam == "gather":
        return 256
    if fam in ("compare", "cast", "select"):
        wide_n = 256 // max(np.dtype(m.NP[spec["dtype"]]).itemsize,
                            np.dtype(m.NP[spec.get("dst_dtype", spec["dtype"])]).itemsize)
        per = 32 // np.dtype(m.NP[spec["dtype"]]).itemsize
        return max(int(m.grid(wide_n, per, reps, b, r).max()) + 1 for b, r in spec["strides"][1:])
    blk = spec.get("src_blk", 1)
    return int(m.grid(n, 32 // np.dtype(m.NP[spec["dtype"]]).itemsize, reps, blk, spec["src_rep"]).max()) + 1


def _dst_reach(spec: dict) -> tuple[str, int]:
    """The destination's element type and the elements it must hold."""
    fam, op, dtype = FAMILY_OF[spec["op"]], spec["op"], spec["dtype"]
    isz, n = np.dtype(m.NP[dtype]).itemsize, m.lanes(dtype)
    reps = _reps(spec)
    if fam == "compare":
        return "uint8", -(-(int(spec["count"]) if spec["form"] == "count" else reps * n) // 8)
    if fam == "select":
        if spec["form"] == "count":
            return dtype, int(spec["count"])
        b, r = spec["strides"][0]
        return dtype, (int(m.grid(n, 32 // isz, reps, b, r).max()) + 1) if reps else 1
    if op == "mrg_sort":
        return dtype, _records(spec)[1] * 8 // isz
    if fam == "sort":
        return dtype, 32 * reps * 8 // isz
    if fam == "cast":
        dd = spec["dst_dtype"]
        if spec["form"] == "count" or not reps:
            return dd, int(spec.get("count", 1))
        wide_n = 256 // max(isz, np.dtype(m.NP[dd]).itemsize)
        b, r = spec["strides"][0]
        return dd, int(m.grid(wide_n, 32 // np.dtype(m.NP[dd]).itemsize, reps, b, r).max()) + 1
    if fam == "gather":
        if spec["form"] == "count":
            return dtype, int(spec["count"])
        return dtype, max(reps - 1, 0) * spec["dst_rep"] * (32 // isz) + n
    if fam == "gather_mask":
        return dtype, max(reps, 1) * n
    if fam == "reduce2":
        return dtype, 2
    # one repeat's result: its width and the unit of dst_rep_stride, in elements (as each docstring states)
    width = {"block": 8, "pair_reduce_sum": n // 2}.get(_group(op), 1)
    if op in ("whole_reduce_max", "whole_reduce_min"):
        width = {"ORDER_ONLY_VALUE": 1, "ORDER_ONLY_INDEX": 4 // isz}.get(spec.get("order"), 2)
    return dtype, max(reps - 1, 0) * spec["dst_rep"] * width + width


def operands(spec: dict) -> dict[str, tuple[str, int]]:
    """name -> (element type, elements), each rounded up to 256 bytes: x the source, y the second operand
    (src1 / offsets / pattern / indices / tmp buffer), z the destination."""
    fam = FAMILY_OF[spec["op"]]
    ops = {"x": (spec["dtype"], _src_reach(spec)), "z": _dst_reach(spec)}
    if spec["op"] == "compare" or (fam == "select" and spec["sel_mode"] != 1):
        ops["y"] = (spec["dtype"], _src_reach(dict(spec, strides=[spec["strides"][0], spec["strides"][2]]))
                    if spec["form"] != "count" else int(spec["count"]))
    if fam == "select":     # the selecting bits: one repeat's (mode 0) or one per element position
        bits = int(spec["count"]) if spec["form"] == "count" else _reps(spec) * m.lanes(spec["dtype"])
        ops["w"] = ("uint8", -(-max(bits, m.lanes(spec["dtype"])) // 8))
    elif fam == "gather":
        reps = _reps(spec)
        ops["y"] = ("uint32", int(spec["count"]) if spec["form"] == "count" else max(reps, 1) * m.lanes(spec["dtype"]))
    elif fam == "gather_mask" and spec["form"] == "tensor":
        ops["y"] = ("uint16" if spec["dtype"] in ("float16", "int16") else "uint32", 16)
    elif spec["op"] == "sort32":
        ops["y"] = ("uint32", 32 * int(spec["repeat_times"]))
    elif fam == "reduce2":
        ops["y"] = (spec["dtype"], 2 * max(_src_reach(spec), 1))
    return whole_repeats(ops)


def fits(spec: dict) -> bool:
    return fits_ub(operands(spec))


def defined(spec: dict) -> bool:
    return True


def tolerance(spec: dict) -> dict:
    return {"atol": 0, "rtol": 0}


def _values(rng, dt, n: int, kind: str, op: str) -> np.ndarray:
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        if kind == "edges":
            pool = np.array([info.min, info.max, 0, 1, -1 if info.min < 0 else 2, 100], np.int64)
            return rng.choice(pool, n).astype(dt)
        hi = 5 if kind == "ties" else min(1000, int(info.max))
        return rng.integers(max(-hi, int(info.min)), hi, n).astype(dt)
    if kind == "ties":           # equal values and rounding ties
        return (rng.integers(-6, 7, n) / 2).astype(dt)
    if kind == "edges":
        pool = [65504.0, -65504.0, 60000.0, 0.5, 1.5, 2.5, -2.5, -0.5, 0.0, -0.0, 70000.0, 1e-8, 3.0e9, -40000.0,
                300.0, -129.5, 255.5, 32767.5, 2049.0, 4097.0]
        if op in ("compare", "compare_scalar", "sort32"):
            pool += [np.inf, -np.inf]
        if op in ("compare", "compare_scalar"):
            pool += [np.nan]
        with np.errstate(over="ignore"):
            return rng.choice(np.array(pool), n).astype(dt)
    return (rng.random(n) * 8 - 4).astype(dt)


def _sorted_lists(rng, spec: dict) -> np.ndarray:
    """Runs of 16 records (score, then the uint32 index 1000 * run + position), each sorted highest score first
    (run j the list j of the first repeat; with 16 records a list, run j + k * r its list j of repeat r);
    scores drawn from few values so that lists tie."""
    dt = m.NP[spec["dtype"]]
    runs = _records(spec)[0] // 16
    rec = np.zeros((16 * runs, 8), np.uint8)
    for j in range(runs):
        s = np.sort(_values(rng, dt, 16, spec["values"], "sort32").astype(np.float64))[::-1].astype(dt)
        rec[16 * j: 16 * j + 16, :np.dtype(dt).itemsize] = s.view(np.uint8).reshape(16, -1)
        rec[16 * j: 16 * j + 16, 4:] = (np.arange(16, dtype=np.uint32) + 1000 * j).view(np.uint8).reshape(16, 4)
    return rec.reshape(-1).view(dt)


def inputs(spec: dict, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = {}
    fam = FAMILY_OF[spec["op"]]
    for name, (dt_name, n) in operands(spec).items():
        dt = m.NP[dt_name]
        if name == "x" and spec["op"] == "mrg_sort":
            out[name] = _sorted_lists(rng, spec)
        elif name == "x" or (name == "y" and spec["op"] in ("compare", "select")):
            out[name] = _values(rng, dt, n, spec["values"], spec["op"])
        elif name == "y" and fam == "gather":
            isz = np.dtype(m.NP[spec["dtype"]]).itemsize
            room = (operands(spec)["x"][1] * isz - int(spec["base"])) // isz
            out[name] = (rng.integers(0, room, n) * isz).astype(np.uint32)
        elif name == "y" and fam == "sort":
            out[name] = np.arange(n, dtype=np.uint32) * 3 + 7
        elif name == "w":
            out[name] = rng.integers(0, 256, n).astype(np.uint8)
        elif name == "y" and fam == "gather_mask":
            out[name] = rng.integers(0, np.iinfo(dt).max, n, dtype=np.int64).astype(dt)
        elif np.issubdtype(dt, np.integer):
            out[name] = rng.integers(0, 100, n).astype(dt)
        else:
            out[name] = np.full(n, -7.25, dt)            # what dst held: lanes left alone keep it
    return out


def reference(spec: dict, arrays: dict) -> dict:
    fam = FAMILY_OF[spec["op"]]
    x, z0 = arrays["x"], arrays["z0"]
    if fam in ("reduce", "reduce2"):
        return {"zbytes": m.reduce_ref(spec, x, z0)}
    if fam == "compare":
        return {"zbytes": m.compare_ref(spec, x, arrays.get("y"), z0)}
    if fam == "select":
        return {"zbytes": m.select_ref(spec, x, arrays.get("y"), arrays["w"], z0).view(np.uint8)}
    if fam == "cast":
        return {"zbytes": m.cast_ref(spec, x, z0).view(np.uint8)}
    if fam == "gather":
        return {"zbytes": m.gather_ref(spec, x, arrays["y"], z0).view(np.uint8)}
    if fam == "gather_mask":
        z, kept = m.gather_mask_ref(spec, x, arrays.get("y"), z0)
        return {"zbytes": z.view(np.uint8), "kept": np.array([kept], np.int64)}
    if spec["op"] == "mrg_sort":
        return {"zbytes": m.mrg_sort_ref(spec, x, z0)}
    return {"zbytes": m.sort32_ref(spec, x, arrays["y"], z0)}


# -- rendering -------------------------------------------------------------------------------------------
LOCAL = {"x": "src", "z": "dst", "w": "sel"}
SECOND = {"compare": "src1", "select": "src1", "gather": "offset", "gather_mask": "pattern", "sort": "index", "reduce2": "tmp"}


def call_text(spec: dict) -> list[str]:
    op, fam = spec["op"], FAMILY_OF[spec["op"]]
    lines = []
    reps = str(spec.get("repeat_times"))
    values = {"count": str(spec.get("count")), "mask": mask_text(spec.get("mask", 0)), "repeat_time": reps,
              "repeat": reps, "repeat_times": reps, "dst_rep_stride": str(spec.get("dst_rep")),
              "src_blk_stride": str(spec.get("src_blk")), "src_rep_stride": str(spec.get("src_rep")),
              "dst_blk_stride": "1", "order": f"asc.ReduceOrder.{spec.get('order')}",
              "cal_index": str(spec.get("cal_index")), "repeat_params": "params", "params": "params",
              "reduce_mode": "False", "is_set_mask": str(spec.get("is_set_mask", True)), "sel_mode": f"asc.SelMode.{SEL_MODES[spec.get('sel_mode', 0)]}",
              "src1": "src1" if spec.get("sel_mode") != 1 else repr(spec.get("scalar"))}
    if fam == "gather_mask":
        values["mask"] = "0"
        lines.append(f"params = asc.GatherMaskParams({spec['src_blk']}, {reps}, {spec['src_rep']}, 0)")
    if "strides" in spec:
        blk = ", ".join(str(b) for b, _ in spec["strides"])
        rep = ", ".join(str(r) for _, r in spec["strides"])
        cls = "BinaryRepeatParams" if len(spec["strides"]) == 3 else "UnaryRepeatParams"
        lines.append(f"params = asc.{cls}({blk}, {rep})")
    args = [f"{kw}={values[role]}" if kw else values[role] for kw, role in spec["call"]]
    head = {"reduce": "dst, src", "reduce2": "dst, src, tmp", "sort": "dst, src, index",
            "cast": f"dst, src, asc.RoundMode.{spec.get('round')}",
            "gather": f"dst, src, offset, {spec.get('base')}",
            "gather_mask": f"dst, src, {spec.get('pattern', 'pattern')}"}.get(fam)
    if op == "compare":
        head = f"dst, src, src1, asc.CMPMODE.{spec['cmp']}"
    elif op == "select":
        head = "dst, sel, src"
    elif op == "compare_scalar":
        head = f"dst, src, {spec['scalar']!r}, asc.CMPMODE.{spec['cmp']}"
    call = f"asc.{op}({head}, {', '.join(args)})"
    if op == "mrg_sort":
        per = 16 * 8 // np.dtype(m.NP[spec["dtype"]]).itemsize
        lists = ", ".join(["src"] + [f"src[{per * j}:]" for j in range(1, len(spec["counts"]))])
        lines.append(f"lists = asc.MrgSortSrcList(asc.{spec['dtype']}, {lists})")
        counts = list(spec["counts"]) + [0] * (spec.get("pad_counts", 0))
        valid = spec.get("valid", (1 << len(spec["counts"])) - 1)
        rt = spec.get("repeat_times", 1)
        if spec["form"] == "info":
            call = f"asc.mrg_sort(dst, lists, asc.MrgSort4Info({counts}, {spec['suspend']}, {valid}, {rt}))"
        else:
            tail = f", is_exhausted_suspension={spec['suspend']}" if spec["suspend"] else ""
            call = f"asc.mrg_sort(dst, lists, {counts}, [0, 0, 0, 0], {valid}, {rt}{tail})"
    if fam == "gather_mask":
        lines += [f"kept = {call}", "w_gm.set_value(0, kept)"]
    elif spec["form"] == "register":     # the mask register set first, the call with is_set_mask=False
        reg = spec["register"]
        words = str(reg["len"]) if "len" in reg else f"{hex(int(reg['high']))}, {hex(int(reg['low']))}"
        mode = reg.get("mode", "NORMAL")
        lines += (["asc.set_mask_count()"] if mode == "COUNTER" else []) + [
            f"asc.set_vector_mask({words}, dtype=asc.{spec['mask_dtype']}, mode=asc.MaskMode.{mode})", call,
            "asc.reset_mask()"] + (["asc.set_mask_norm()"] if mode == "COUNTER" else [])
    elif spec["form"] == "counter":      # Counter mode: the call's mask is the element count
        lines += ["asc.set_mask_count()", call, "asc.set_mask_norm()"]
    else:
        lines.append(call)
    return lines


TEMPLATE = '''"""{doc}"""
import numpy as np

import asc

SPEC = {spec!r}
EXPECT = {expect!r}
TOLERANCE = {{"atol": 0, "rtol": 0}}
{extra}

@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
{setup}
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
{call}
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, {nz})


def run():
    arrays = inputs()
    arrays["z0"] = arrays["z"].copy()
    arrays.setdefault("w", np.zeros(4, np.int64))
    kernel[1](arrays["x"], arrays.get("y", arrays["x"]), arrays["z"], arrays["w"])
    arrays["zbytes"] = arrays["z"].view(np.uint8)
    arrays["kept"] = arrays["w"][:1]
    return arrays


def inputs():
    from v1_families import inputs as make  # the driver puts the conform directory on sys.path
    return make(SPEC)


def reference(arrays):
    from v1_families import reference as ref
    return ref(SPEC, arrays)
'''


def render(spec: dict, doc: str, expect: str = "accept", extra: dict | None = None) -> str:
    ops = operands(spec)
    fam = FAMILY_OF[spec["op"]]
    setup, loads, at = [], [], 0
    for name in ("x", "y", "w", "z"):
        if name not in ops:
            continue
        dt, n = ops[name]
        local = LOCAL.get(name) or SECOND[fam]
        pos = "VECOUT" if name == "z" else "VECIN"
        setup += [f"    {name}_gm = asc.GlobalTensor()", f"    {name}_gm.set_global_buffer({name}, {n})",
                  f"    {local} = asc.LocalTensor(asc.{dt}, asc.TPosition.{pos}, {at}, {n})"]
        loads.append(f"    asc.data_copy({local}, {name}_gm, {n})")
        at += n * np.dtype(m.NP[dt]).itemsize
    if fam == "gather_mask":
        setup += ["    w_gm = asc.GlobalTensor()", "    w_gm.set_global_buffer(w, 4)"]
    extra_text = "".join(f"{k} = {v!r}\n" for k, v in (extra or {}).items())
    call = "\n".join("    " + line for line in call_text(spec))
    return TEMPLATE.format(doc=doc, spec=spec, expect=expect, extra=extra_text, setup="\n".join(setup + loads),
                           call=call, nz=ops["z"][1])
