"""Hypothesis strategies of the v1 reduction, compare, cast, gather and sort call forms (``v1_families``
renders and models them). Each choice lists its plainest or edge value first (Hypothesis leans to it):
a mask of one lane, the last lane, the full repeat; repeats 0, 1, 255; strides 0; values with ties,
rounding ties, half's +-65504 and beyond."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from asc_harness.conform import v1_models as m
from asc_harness.conform.v1_families import FAMILIES, ORDER, _group

FULL = (1 << 64) - 1   # every lane of a 64-bit mask word
# cast's source / destination types and round modes drawn
CAST_PAIRS = (("float32", "float16"), ("float16", "float32"), ("float32", "int32"), ("float16", "int32"),
              ("float16", "int16"), ("float16", "int8"), ("float16", "uint8"), ("float32", "int16"),
              ("float32", "float32"), ("int32", "float32"), ("int16", "float16"), ("int16", "float32"),
              ("int32", "int16"), ("float32", "int64"), ("int8", "float16"), ("uint8", "float16"))
ROUNDS = ("CAST_RINT", "CAST_NONE", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD")


def _mask(draw, dtype: str):
    n = m.lanes(dtype)
    if draw(st.booleans()):
        return "mask_int", draw(st.sampled_from((n, 1, n - 1, n // 2 + 1, 2)) | st.integers(1, n))
    lo = draw(st.sampled_from((FULL, 1, 1 << 63, 0x8000000000000001, 0)) | st.integers(0, FULL))
    hi = draw(st.sampled_from((0, FULL, 1 << 63)) | st.integers(0, FULL)) if n == 128 else 0
    if lo == 0 and hi == 0:
        lo = 1
    return "mask_list", [lo, hi] if n == 128 else [lo]


def _kw(draw, names, keyword: bool):
    return [[name if keyword else None, name] for name in names]


@st.composite
def _spec(draw) -> dict:
    fam = draw(st.sampled_from(tuple(FAMILIES)))
    op = draw(st.sampled_from(FAMILIES[fam]))
    keyword = draw(st.booleans())
    spec: dict = {"op": op, "values": draw(st.sampled_from(("random", "ties", "edges")))}
    reps = draw(st.sampled_from((1, 2, 0, 255)) | st.integers(0, 6))
    if op == "mrg_sort":
        k = draw(st.sampled_from((2, 4, 3)))
        rt = draw(st.sampled_from((1, 1, 2, 4, 3)))
        equal = rt > 1 and draw(st.integers(0, 3)) > 0      # repeats as documented: lists of one length
        spec.update(dtype=draw(st.sampled_from(("float32", "float16"))), form=draw(st.sampled_from(("list", "info"))),
                    repeat_times=rt, counts=[16 if equal else draw(st.sampled_from((16, 1, 0)) | st.integers(0, 16))
                                             for _ in range(k)],
                    suspend=draw(st.booleans()), pad_counts=draw(st.sampled_from((0, 4 - k))), call=[],
                    valid=draw(st.sampled_from(((1 << k) - 1,) * 4 + (0b101, 0b1, 0b1111, 0b110))))
        return spec
    if fam == "sort":
        spec.update(dtype=draw(st.sampled_from(("float16", "float32", "int32"))), form="repeat",
                    repeat_times=draw(st.sampled_from((1, 2, 0)) | st.integers(0, 8)))
        spec["call"] = _kw(draw, ("repeat_time",), keyword)
        return spec
    if fam == "cast":
        src, dst = draw(st.sampled_from(CAST_PAIRS))
        spec.update(dtype=src, dst_dtype=dst, round=draw(st.sampled_from(ROUNDS)))
        wide = max(np.dtype(m.NP[src]).itemsize, np.dtype(m.NP[dst]).itemsize)
        lanes_dtype = {2: "float16", 4: "float32", 8: "int64"}[wide]
    else:
        dts = ("float16", "float32") + (("int16", "int32") if fam in ("gather", "gather_mask") or
                                         draw(st.integers(0, 7)) == 0 else ())
        spec["dtype"] = lanes_dtype = draw(st.sampled_from(dts))
    n = m.lanes(lanes_dtype)
    if fam == "gather_mask":
        spec.update(repeat_times=min(reps, 8), src_blk=draw(st.sampled_from((1, 0, 2))),
                    src_rep=draw(st.sampled_from((8, 0, 4, 16))))
        if draw(st.booleans()):
            spec.update(form="pattern", pattern=draw(st.integers(1, 7)))
        else:
            spec["form"] = "tensor"
        spec["call"] = [["reduce_mode" if keyword else None, "reduce_mode"], ["mask" if keyword else None, "mask"],
                        ["params" if keyword else None, "params"]]
        return spec
    count_ok = fam in ("reduce2", "compare", "cast", "gather", "select")
    if count_ok and draw(st.booleans()):
        spec["form"] = "count"
        top = 8 * n
        spec["count"] = draw(st.sampled_from((n, 2 * n, n - 1, n + 1, 1)) | st.integers(1, top))
        if fam == "compare" and draw(st.integers(0, 3)):
            spec["count"] = n * max(1, spec["count"] // n)      # the documented whole repeats, mostly
        spec["call"] = _kw(draw, ("count",), keyword)
    else:
        spec["form"], spec["mask"] = _mask(draw, lanes_dtype)
        spec["repeat_times"] = reps if fam in ("reduce", "reduce2") else min(reps, 8)
    if fam == "compare":
        spec["cmp"] = draw(st.sampled_from(tuple(m.CMP)))
        if op == "compare_scalar":
            spec["scalar"] = draw(st.sampled_from((0.5, 1.0, -2.0, 0.0, 3)))
    if fam == "select":
        spec["sel_mode"] = draw(st.sampled_from((0, 2, 1)))
        if spec["sel_mode"] == 1:
            spec["scalar"] = draw(st.sampled_from((0.5, -2.0, 3)))
        lead = [["src1" if keyword else None, "src1"], ["sel_mode" if keyword else None, "sel_mode"]]
    if fam == "gather":
        spec["base"] = draw(st.sampled_from((0, 32, np.dtype(m.NP[spec["dtype"]]).itemsize)))
    if fam in ("reduce2",) and op != "reduce_sum":
        spec["cal_index"] = draw(st.booleans())
    if fam == "select":
        spec["call"] = lead + spec.get("call", [])
    if spec["form"] == "count":
        if spec.get("cal_index"):
            spec["call"].append(["cal_index" if keyword else None, "cal_index"])
        return spec
    if fam in ("compare", "cast", "select"):
        k = 3 if op in ("compare", "select") else 2
        spec["strides"] = [[draw(st.sampled_from((1, 0, 2))), draw(st.sampled_from((8, 4, 0, 16)))]
                           for _ in range(k)]
        spec["call"] = spec.get("call", []) + _kw(draw, ("mask", "repeat_times", "repeat_params"), keyword)
    elif fam == "gather":
        spec["dst_rep"] = draw(st.sampled_from((8, 16, 4, 0)))
        spec["call"] = _kw(draw, ("mask", "repeat_times", "dst_rep_stride"), keyword)
    elif fam == "reduce2":
        spec["src_rep"] = draw(st.sampled_from((8, 16, 4, 0)) | st.integers(0, 20))
        spec["call"] = _kw(draw, ("mask", "repeat_time", "src_rep_stride"), keyword)
        if spec.get("cal_index"):
            spec["call"].append(["cal_index" if keyword else None, "cal_index"])
    else:
        spec.update(src_blk=draw(st.sampled_from((1, 0, 2)) | st.integers(0, 4)),
                    src_rep=draw(st.sampled_from((8, 0, 16, 4)) | st.integers(0, 16)),
                    dst_rep=draw(st.sampled_from((1, 0, 2, 8)) | st.integers(0, 4)))
        names = ORDER[_group(op)]
        if op in ("whole_reduce_max", "whole_reduce_min"):
            spec["order"] = draw(st.sampled_from(("ORDER_VALUE_INDEX", "ORDER_INDEX_VALUE", "ORDER_ONLY_VALUE",
                                                  "ORDER_ONLY_INDEX", None)))
            if spec["order"] is None:
                del spec["order"]
                names = names[:-1]
        else:
            names = tuple(x for x in names if x != "order")
        spec["call"] = _kw(draw, names, keyword)
    return spec


# keywords as users misspell them from neighbouring signatures (upstream's examples write repeat_times= and
# params=, the reductions repeat_time= and repeat=), and arguments neighbouring signatures take
# the instructions whose upstream mask forms take is_set_mask (the others refuse it)
def _lanes_dtype(spec: dict) -> str:
    """The element type whose lanes a repeat has: the wider of cast's two, else the operands'."""
    wide = max(np.dtype(m.NP[spec["dtype"]]).itemsize, np.dtype(m.NP[spec.get("dst_dtype", spec["dtype"])]).itemsize)
    return {2: "float16", 4: "float32", 8: "int64"}[wide] if spec["op"] == "cast" else spec["dtype"]


# the instructions drawn in Counter mode (the mask forms that run on the mask register)
COUNTER_OK = ("whole_reduce_sum", "whole_reduce_max", "whole_reduce_min", "block_reduce_sum", "block_reduce_max",
              "block_reduce_min", "pair_reduce_sum", "repeat_reduce_sum", "reduce_sum", "reduce_max", "reduce_min",
              "compare", "compare_scalar", "select", "cast", "gather")
REGISTER_OK = ("whole_reduce_sum", "pair_reduce_sum", "repeat_reduce_sum", "cast")
ALIASES = {"repeat_time": "repeat_times", "repeat_times": "repeat_time", "repeat": "repeat_time",
           "repeat_params": "params", "count": "calCount", "dst_rep_stride": "dst_repeat_stride"}


@st.composite
def spec_strategy(draw) -> dict:
    """A call form; some spelled as a neighbouring signature would (an alias keyword, ``is_set_mask`` where
    the signature has none or has one, ``cal_index`` on reduce_sum, the repeat parameters left out)."""
    spec = draw(_spec())
    variant = draw(st.sampled_from(("plain", "plain", "plain", "alias", "is_set_mask", "cal_index", "no_params",
                                    "register", "register", "counter", "counter")))
    keywords = [i for i, (kw, _) in enumerate(spec["call"]) if kw in ALIASES]
    if variant == "alias" and keywords:
        i = draw(st.sampled_from(keywords))
        spec["call"][i] = [ALIASES[spec["call"][i][0]], spec["call"][i][1]]
    elif variant == "is_set_mask" and spec["form"] in ("mask_int", "mask_list"):
        spec["call"].append(["is_set_mask", "is_set_mask"])
    elif variant == "no_params" and spec["call"] and spec["call"][-1][1] == "repeat_params":
        spec["call"].pop()
    elif variant == "counter" and spec["form"] in ("mask_int", "mask_list") and spec["op"] in COUNTER_OK:
        # Counter mode (set_mask_count): the mask is the element count of the whole call
        n = m.lanes(_lanes_dtype(spec))
        c = draw(st.sampled_from((n, 1, n + 1, 2 * n, n - 1, 2 * n + 1)) | st.integers(1, 6 * n))
        listed = spec["form"] == "mask_list" or draw(st.integers(0, 3)) == 0
        spec["form"], spec["mask"] = "counter", [c, 0][:2 if n == 128 else 1] if listed else c
    elif variant == "register" and spec["op"] in REGISTER_OK and spec["form"] in ("mask_int", "mask_list"):
        # the mask in the register (set_vector_mask, Normal or Counter mode), the call's own a placeholder
        spec["mask_dtype"] = _lanes_dtype(spec) if spec["op"] == "cast" else spec["dtype"]
        n = m.lanes(spec["mask_dtype"])
        if draw(st.integers(0, 2)) == 0:
            spec["register"] = {"len": draw(st.sampled_from((n + 1, 1, 2 * n)) | st.integers(1, 6 * n)),
                                "mode": "COUNTER"}
        else:
            spec["register"] = ({"len": draw(st.sampled_from((n, 1, n - 1)) | st.integers(1, n))} if draw(st.booleans())
                                else {"high": draw(st.sampled_from((0, FULL)) | st.integers(0, FULL)) if n == 128 else 0,
                                      "low": draw(st.sampled_from((FULL, 1, 1 << 63)) | st.integers(1, FULL))})
        spec["form"], spec["mask"], spec["is_set_mask"] = "register", draw(st.sampled_from((0, n))), False
        spec["call"].append(["is_set_mask", "is_set_mask"])
    elif variant == "cal_index" and spec["op"] == "reduce_sum":
        spec["call"].append(["cal_index", "cal_index"])
        spec["cal_index"] = True
    return spec


@st.composite
def blocks_strategy(draw) -> dict:
    """A call form of brcb, gatherb, scatter or transpose (``v1_blocks``): repeats 0, 1 and 255, strides 0
    (blocks written over each other), offsets with ties; some spelled as a neighbouring signature would."""
    op = draw(st.sampled_from(("brcb", "gatherb", "scatter", "transpose", "sort", "proposal_concat",
                               "proposal_extract")))
    keyword = draw(st.booleans())
    if op == "sort" or op.startswith("proposal"):
        spec = {"op": op, "dtype": draw(st.sampled_from(("float32", "float16") if draw(st.integers(0, 5)) else
                                                        ("int32", "int16", "float32"))),
                "values": draw(st.sampled_from(("ties", "random", "edges"))), "form": "repeat",
                "repeat_times": draw(st.sampled_from((1, 2, 0, 4)) | st.integers(0, 16))}
        if op == "sort":
            if spec["values"] == "edges":       # NaN scores: the docstring is silent on their place
                spec["values"] = "ties"
            spec["call"] = _kw(draw, ("repeat_time",), keyword)
            full = draw(st.sampled_from((True, False, None, 1)))
            if full is not None:
                spec["full"] = full
                spec["call"].append(["is_full_sort" if keyword or draw(st.booleans()) else None, "is_full_sort"])
        else:
            spec["mode"] = draw(st.sampled_from((4, 0, 5)) | st.integers(0, 7))
            spec["call"] = _kw(draw, ("repeat_time", "mode_number"), keyword)
        if draw(st.integers(0, 4)) == 0 and keyword:
            spec["call"][0][0] = "repeat_times"         # the neighbouring instructions' spelling
        return spec
    dts = ("float16", "float32", "int16", "int32", "uint16", "uint32") + (("int8", "int64") if op != "scatter" else ())
    spec: dict = {"op": op, "dtype": draw(st.sampled_from(dts[:2] if draw(st.integers(0, 3)) else dts)),
                  "values": draw(st.sampled_from(("random", "edges")))}
    if op == "transpose":
        spec.update(form="plain", call=[])
        return spec
    if op in ("brcb", "gatherb"):
        spec.update(form="repeat", repeat_times=draw(st.sampled_from((1, 2, 0, 255)) | st.integers(0, 8)),
                    dst_blk=draw(st.sampled_from((1, 0, 2)) | st.integers(0, 4)),
                    dst_rep=draw(st.sampled_from((8, 0, 1, 16)) | st.integers(0, 20)),
                    src_blocks=draw(st.sampled_from((8, 1, 64)) | st.integers(1, 64)))
        spec["call"] = _kw(draw, ("repeat_times", "repeat_params"), keyword)
        variant = draw(st.sampled_from(("plain", "plain", "plain", "alias", "no_params")))
        if variant == "alias" and keyword:
            spec["call"][0][0] = "repeat_time"
        elif variant == "no_params":
            spec["call"].pop()
        return spec
    n = m.lanes(spec["dtype"])
    spec.update(base=draw(st.sampled_from((0, 32, np.dtype(m.NP[spec["dtype"]]).itemsize))),
                offsets=draw(st.sampled_from(("distinct", "ties"))),
                dst_size=draw(st.sampled_from((n, 4 * n, 16 * n))))
    if draw(st.booleans()):
        spec.update(form="count", count=draw(st.sampled_from((n, 1, n + 1, 2 * n)) | st.integers(1, 4 * n)))
        spec["call"] = _kw(draw, ("dst_base", "count"), keyword)
        return spec
    spec["form"], spec["mask"] = _mask(draw, spec["dtype"])
    spec.update(repeat_times=draw(st.sampled_from((1, 2, 0)) | st.integers(0, 8)),
                src_rep=draw(st.sampled_from((8, 0, 4, 16)) | st.integers(0, 16)))
    spec["call"] = _kw(draw, ("dst_base", "mask", "repeat_times", "src_rep_stride"), keyword)
    variant = draw(st.sampled_from(("plain", "plain", "counter", "alias", "no_stride")))
    if variant == "counter":
        c = draw(st.sampled_from((n, 1, n + 1, 2 * n)) | st.integers(1, 4 * n))
        spec["form"], spec["mask"] = "counter", c if draw(st.booleans()) else [c, 0][:2 if n == 128 else 1]
    elif variant == "alias" and keyword:
        spec["call"][2][0] = "repeat_time"
    elif variant == "no_stride":
        spec["call"].pop()
    return spec
