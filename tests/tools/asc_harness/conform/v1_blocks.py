"""The v1 call forms of the instructions that move whole blocks or elements by address, beside
``v1_families``: ``brcb`` (8 elements a repeat, each broadcast over a 32-byte block), ``gatherb`` (32-byte
blocks at byte offsets), ``scatter`` (elements to byte offsets), ``transpose`` (one 16 x 16 block), ``sort``
(``is_full_sort``) and ``proposal_concat`` / ``proposal_extract`` (a field of 8-element region proposals), as data
(standard library and numpy only: corpus cases import it under pyasc-dev too; the Hypothesis strategy is
``v1_strategies.blocks_strategy``), each with its numpy model written from its docstring. A spec:

  op, dtype           the instruction and the element type of its data operands
  form                repeat (brcb / gatherb / sort / proposal_*) | count | mask_int | mask_list | counter
                      (scatter) | plain (transpose)
  repeat_times        repeats; ``dst_blk`` / ``dst_rep`` the BrcbRepeatParams / GatherRepeatParams strides (32-byte
                      blocks); scatter's ``src_rep`` (blocks) and ``base`` (dst_base, bytes)
  count, mask         scatter's count form's element count, its mask form's mask (Counter mode: the count)
  offsets             how the byte offsets are drawn: distinct | ties (some equal: the later element lands last)
  full                sort's is_full_sort (absent: left out); ``mode`` proposal_*'s mode_number
  values              random | edges | ties
  call                [[keyword or None, role], ...] of the arguments after the operands

Where a docstring is silent the model names its choice: scatter consumes one offset per lane position
(r * lanes + l), as gather does, and of two elements sent to one place the later stays; gatherb's
``dst_rep_stride`` counts 32-byte blocks (its docstring's "the length one repeat reduces to" is the
reductions' wording; GatherRepeatParams and Ascend C's Gatherb count blocks); brcb's blocks written later
(higher repeat, then higher block) stay where strides make them overlap.
"""

from __future__ import annotations

import numpy as np

try:
    from asc_harness.conform import v1_models as m
    from asc_harness.conform.v1_forms import fits_ub, mask_text, whole_repeats
except ImportError:     # a corpus case under pyasc-dev's interpreter: the conform directory is on sys.path
    import v1_models as m
    from v1_forms import fits_ub, mask_text, whole_repeats

FAMILIES = {"brcb": ("brcb",), "gatherb": ("gatherb",), "scatter": ("scatter",), "transpose": ("transpose",),
            "full_sort": ("sort",), "proposal": ("proposal_concat", "proposal_extract")}
FAMILY_OF = {op: fam for fam, ops in FAMILIES.items() for op in ops}


def _isz(spec: dict) -> int:
    return np.dtype(m.NP[spec["dtype"]]).itemsize


def _blocks(spec: dict) -> np.ndarray:
    """(repeats, 8) destination blocks of brcb / gatherb: block b of repeat r at r * dst_rep + b * dst_blk."""
    rt = int(spec["repeat_times"])
    return np.arange(rt)[:, None] * int(spec["dst_rep"]) + np.arange(8)[None, :] * int(spec["dst_blk"])


def _scatter_lanes(spec: dict) -> tuple[np.ndarray, np.ndarray]:
    """scatter's source elements in the order it sends them, and the offset index each uses."""
    if spec["form"] == "count":
        i = np.arange(int(spec["count"]))
        return i, i
    n = m.lanes(spec["dtype"])
    ok = m.lanes_on(spec, n)
    g = m.grid(n, 32 // _isz(spec), ok.shape[0], 1, int(spec["src_rep"]))
    pos = np.arange(ok.size).reshape(ok.shape)
    return g[ok], pos[ok]


def operands(spec: dict) -> dict[str, tuple[str, int]]:
    """name -> (element type, elements), each rounded up to 256 bytes: x the source, y the uint32 offsets,
    z the destination."""
    op, dtype, per = spec["op"], spec["dtype"], 32 // _isz(spec)
    if op == "transpose":
        ops = {"x": (dtype, 256), "z": (dtype, 256)}
    elif op == "sort":      # 32 scores a repeat, their uint32 indices, records of 8 bytes in dst and tmp (w)
        n = 32 * int(spec["repeat_times"])
        ops = {"x": (dtype, n), "y": ("uint32", n), "z": (dtype, 8 * n // _isz(spec)), "w": (dtype, 8 * n // _isz(spec))}
    elif op.startswith("proposal"):      # 16 proposals of 8 elements a repeat
        n = 16 * int(spec["repeat_times"])
        ops = {"x": (dtype, n if op == "proposal_concat" else 8 * n), "z": (dtype, 8 * n if op == "proposal_concat" else n)}
    elif op == "scatter":
        src, pos = _scatter_lanes(spec)
        ops = {"x": (dtype, int(src.max(initial=0)) + 1), "y": ("uint32", int(pos.max(initial=0)) + 1),
               "z": (dtype, int(spec["dst_size"]))}
    else:
        blocks = _blocks(spec)
        ops = {"x": (dtype, max(8 * int(spec["repeat_times"]), 1) if op == "brcb" else int(spec["src_blocks"]) * per),
               "z": (dtype, (int(blocks.max(initial=0)) + 1) * per)}
        if op == "gatherb":
            ops["y"] = ("uint32", max(8 * int(spec["repeat_times"]), 1))
    return whole_repeats(ops)


def fits(spec: dict) -> bool:
    return fits_ub(operands(spec))


def defined(spec: dict) -> bool:
    return True


def tolerance(spec: dict) -> dict:
    return {"atol": 0, "rtol": 0}


def _values(rng, dt, n: int, kind: str) -> np.ndarray:
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        if kind == "edges":
            return rng.choice(np.array([info.min, info.max, 0, 1], np.int64), n).astype(dt)
        return rng.integers(max(-1000, int(info.min)), min(1000, int(info.max)), n).astype(dt)
    if kind == "ties":
        return rng.integers(-3, 4, n).astype(dt)
    if kind == "edges":
        with np.errstate(over="ignore"):
            return rng.choice(np.array([65504.0, -0.0, np.inf, -np.inf, np.nan, 1e-8]), n).astype(dt)
    return (rng.random(n) * 8 - 4).astype(dt)


def inputs(spec: dict, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    ops = operands(spec)
    out = {}
    for name, (dt_name, n) in ops.items():
        dt = m.NP[dt_name]
        if name == "x":
            out[name] = _values(rng, dt, n, spec["values"])
        elif name == "y" and spec["op"] == "sort":
            out[name] = np.arange(n, dtype=np.uint32) * 3 + 7
        elif name == "y" and spec["op"] == "gatherb":      # whole blocks of x, 32 bytes each
            out[name] = (rng.integers(0, ops["x"][1] * _isz(spec) // 32, n) * 32).astype(np.uint32)
        elif name == "y":          # scatter: whole elements of dst past dst_base, distinct or with ties
            room = (ops["z"][1] * _isz(spec) - int(spec["base"])) // _isz(spec)
            if spec["offsets"] == "distinct" and room >= n:
                pick = rng.permutation(room)[:n]
            else:
                pick = rng.integers(0, max(1, min(room, 8 if spec["offsets"] == "ties" else room)), n)
            out[name] = (pick * _isz(spec)).astype(np.uint32)
        else:
            out[name] = np.full(n, 7, dt) if np.issubdtype(dt, np.integer) else np.full(n, -7.25, dt)
    return out


def reference(spec: dict, arrays: dict) -> dict:
    op, dt = spec["op"], m.NP[spec["dtype"]]
    x, z = np.asarray(arrays["x"], dt), np.array(arrays["z0"], dt).copy()
    per = 32 // _isz(spec)
    if op == "transpose":
        z[:256] = x[:256].reshape(16, 16).T.reshape(-1)
    elif op == "sort":
        return {"zbytes": _sort_ref(spec, x, np.asarray(arrays["y"]), z)}
    elif op == "proposal_concat":       # element i into field ``mode`` of proposal i; the other fields kept
        n = 16 * int(spec["repeat_times"])
        z[int(spec["mode"]): 8 * n: 8] = x[:n]
    elif op == "proposal_extract":
        n = 16 * int(spec["repeat_times"])
        z[:n] = x[int(spec["mode"]): 8 * n: 8]
    elif op == "brcb":      # element 8 * r + b of src fills block b of repeat r
        for k, blk in enumerate(_blocks(spec).reshape(-1)):
            z[blk * per: blk * per + per] = x[k]
    elif op == "gatherb":   # offset 8 * r + b (bytes) picks the source block for block b of repeat r
        off = np.asarray(arrays["y"]).astype(np.int64)
        for k, blk in enumerate(_blocks(spec).reshape(-1)):
            z[blk * per: blk * per + per] = x[off[k] // _isz(spec): off[k] // _isz(spec) + per]
    else:                   # scatter: in order, so the later of two elements sent to one place stays
        src, pos = _scatter_lanes(spec)
        off = (int(spec["base"]) + np.asarray(arrays["y"]).astype(np.int64)) // _isz(spec)
        for i, p in zip(src, pos):
            z[off[p]] = x[i]
    return {"zbytes": z.view(np.uint8)}


def _sort_ref(spec: dict, scores: np.ndarray, index: np.ndarray, z: np.ndarray) -> np.ndarray:
    """sort's records (score, half then 2 zero bytes; the uint32 index) highest score first, equal scores the
    earlier element first (its docstring); each repeat's 32 alone, or all of them with is_full_sort."""
    n = 32 * int(spec["repeat_times"])
    group = max(n, 1) if spec.get("full") else 32
    zb = z.view(np.uint8).copy()
    for lo in range(0, n, group):
        order = lo + np.argsort(-scores[lo: lo + group].astype(np.float64), kind="stable")
        for j, k in enumerate(order):
            rec = np.zeros(8, np.uint8)
            rec[:_isz(spec)] = np.frombuffer(scores[k].tobytes(), np.uint8)
            rec[4:] = np.frombuffer(np.uint32(index[k]).tobytes(), np.uint8)
            zb[8 * (lo + j): 8 * (lo + j + 1)] = rec
    return zb


# -- rendering -------------------------------------------------------------------------------------------
LOCAL = {"x": "src", "y": "offset", "z": "dst", "w": "tmp"}


def call_text(spec: dict) -> list[str]:
    op = spec["op"]
    values = {"repeat_times": str(spec.get("repeat_times")), "repeat_params": "params", "count": str(spec.get("count")),
              "mask": mask_text(spec.get("mask", 0)), "src_rep_stride": str(spec.get("src_rep")),
              "dst_base": str(spec.get("base")), "repeat_time": str(spec.get("repeat_times")),
              "is_full_sort": str(spec.get("full")), "mode_number": str(spec.get("mode"))}
    args = [f"{kw}={values[role]}" if kw else values[role] for kw, role in spec["call"]]
    lines = []
    if op in ("brcb", "gatherb"):
        cls = "BrcbRepeatParams" if op == "brcb" else "GatherRepeatParams"
        lines.append(f"params = asc.{cls}({spec['dst_blk']}, {spec['dst_rep']})")
    head = {"brcb": "dst, src", "gatherb": "dst, src, offset", "scatter": "dst, src, offset",
            "transpose": "dst, src", "sort": "dst, src, offset, tmp", "proposal_concat": "dst, src",
            "proposal_extract": "dst, src"}[op]
    call = f"asc.{op}({', '.join([head] + args)})"
    if spec["form"] == "counter":
        return lines + ["asc.set_mask_count()", call, "asc.set_mask_norm()"]
    return lines + [call]


TEMPLATE = '''"""{doc}"""
import numpy as np

import asc

SPEC = {spec!r}
EXPECT = {expect!r}
TOLERANCE = {{"atol": 0, "rtol": 0}}
{extra}

@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
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
    kernel[1](arrays["x"], arrays.get("y", arrays["x"]), arrays["z"])
    arrays["zbytes"] = arrays["z"].view(np.uint8)
    return arrays


def inputs():
    from v1_blocks import inputs as make  # the driver puts the conform directory on sys.path
    return make(SPEC)


def reference(arrays):
    from v1_blocks import reference as ref
    return ref(SPEC, arrays)
'''


def render(spec: dict, doc: str, expect: str = "accept", extra: dict | None = None) -> str:
    ops = operands(spec)
    setup, loads, at = [], [], 0
    for name in ("x", "y", "z", "w"):
        if name not in ops:
            continue
        dt, n = ops[name]
        pos = "VECOUT" if name == "z" else "VECCALC" if name == "w" else "VECIN"
        if name == "w":         # sort's tmp: no data of its own
            setup.append(f"    {LOCAL[name]} = asc.LocalTensor(asc.{dt}, asc.TPosition.{pos}, {at}, {n})")
            at += n * np.dtype(m.NP[dt]).itemsize
            continue
        setup += [f"    {name}_gm = asc.GlobalTensor()", f"    {name}_gm.set_global_buffer({name}, {n})",
                  f"    {LOCAL[name]} = asc.LocalTensor(asc.{dt}, asc.TPosition.{pos}, {at}, {n})"]
        loads.append(f"    asc.data_copy({LOCAL[name]}, {name}_gm, {n})")
        at += n * np.dtype(m.NP[dt]).itemsize
    extra_text = "".join(f"{k} = {v!r}\n" for k, v in (extra or {}).items())
    call = "\n".join("    " + line for line in call_text(spec))
    return TEMPLATE.format(doc=doc, spec=spec, expect=expect, extra=extra_text, setup="\n".join(setup + loads),
                           call=call, nz=ops["z"][1])
