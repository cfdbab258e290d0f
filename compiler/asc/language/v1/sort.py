"""v1 sorting: ``sort32`` (each repeat sorts 32 scores, highest first, into (score, index) records) and
``mrg_sort`` (merges up to 4 sorted record lists, optionally stopping when one runs out;
``get_mrg_sort_result()`` tells how many records each list gave). A record is 8 bytes: the score (a half
score is followed by 2 unused bytes) and its uint32 index. Element math in ``sim/pipes/compute_sort.py``."""
from __future__ import annotations

import weakref

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .addressing import aligned, dtypes_in, issue, local, vector_cost, whole
from .tensors import LocalTensor, _block

RECORD = 8          # bytes of one (score, index) record
_SCORES = ("float16", "float32")
_RESULT = weakref.WeakKeyDictionary()


class MrgSortSrcList:
    """``MrgSortSrcList([dtype,] src1, src2[, src3, src4])``: the sorted record lists ``mrg_sort`` merges."""

    def __init__(self, *srcs, **kwargs):
        srcs = [kwargs.pop(f"src{i}") if f"src{i}" in kwargs else None for i in range(1, 5)] if kwargs else \
            list(srcs)
        if srcs and not isinstance(srcs[0], LocalTensor) and srcs[0] is not None:
            srcs = srcs[1:]          # upstream's first argument: the record lists' dtype
        self.srcs = [t for t in srcs if t is not None]
        if not 1 <= len(self.srcs) <= 4 or not all(isinstance(t, LocalTensor) for t in self.srcs):
            raise error(TypeError, "MrgSortSrcList takes 2 to 4 LocalTensors", "pass the sorted lists to merge")


class MrgSort4Info:
    """``MrgSort4Info(element_lengths, if_exhausted_suspension=False, valid_bit=15, repeat_times=1)``."""

    def __init__(self, element_lengths, if_exhausted_suspension=False, valid_bit=15, repeat_times=1):
        self.element_lengths, self.if_exhausted_suspension = list(element_lengths), bool(if_exhausted_suspension)
        self.valid_bit, self.repeat_times = valid_bit, repeat_times


def sort32(dst, src0, src1, repeat_time):
    """``sort32(dst, src0, src1, repeat_time)``: per repeat, 32 scores of ``src0`` with their uint32 indices
    of ``src1`` as 32 records, highest score first (equal scores: the earlier first)."""
    name = "sort32"
    local(name, dst, src0, src1)
    aligned(name, dst, src0, src1)
    dtypes_in(name, _SCORES, dst=dst, src0=src0)
    dtypes_in(name, ("uint32",), src1=src1)
    if str(dst.dtype) != str(src0.dtype):
        raise error(TypeError, f"sort32: dst ({dst.dtype}) and src0 ({src0.dtype}) take one dtype",
                    "sort into a tensor of the scores' dtype")
    rt = whole(name, "repeat_time", repeat_time)
    if rt > 255:
        raise error(ValueError, f"sort32: repeat_time {rt} is outside [0, 255]", "split the work")
    n = 32 * rt
    per = RECORD // dst.itemsize
    reads = (src0.region(0, n), src1.region(0, n)) if n else ()
    writes = (dst.region(0, n * per),) if n else ()
    issue(PipeOp(name, "V", reads, writes, {"dst": dst, "src0": src0, "src1": src1, "repeat": rt, "repeats": rt},
                 user_loc()))


def sort(dst, concat, index, tmp, repeat_time, is_full_sort=False):
    """``sort(dst, concat, index, tmp, repeat_time, is_full_sort=False)``: the 32 x ``repeat_time`` scores of
    ``concat`` with their uint32 ``index`` as records in ``dst``, highest score first (equal scores: the
    earlier element first); each repeat's 32 on their own, or all of them with ``is_full_sort`` (sort32 per
    repeat, then merges through ``tmp``, which must hold as many records; its contents afterwards are the
    instruction's)."""
    name = "sort"
    if is_full_sort not in (True, False):
        raise error(TypeError, "The 'is_full_sort' argument must be a boolean literal (True or False), but got "
                    f"{is_full_sort!r}", "pass True or False")
    local(name, dst, concat, index, tmp)
    aligned(name, dst, concat, index, tmp)
    dtypes_in(name, _SCORES, dst=dst, concat=concat, tmp=tmp)
    dtypes_in(name, ("uint32",), index=index)
    if not str(dst.dtype) == str(concat.dtype) == str(tmp.dtype):
        raise error(TypeError, f"{name}: dst ({dst.dtype}), concat ({concat.dtype}) and tmp ({tmp.dtype}) take "
                    "one dtype", "sort into tensors of the scores' dtype")
    rt = whole(name, "repeat_time", repeat_time)
    if rt > 255:
        raise error(ValueError, f"{name}: repeat_time {rt} is outside [0, 255]", "split the work")
    n = 32 * rt
    per = RECORD // dst.itemsize
    full = bool(is_full_sort) and rt > 1
    reads = (concat.region(0, n), index.region(0, n)) if n else ()
    writes = ((dst.region(0, n * per),) + ((tmp.region(0, n * per),) if full else ())) if n else ()
    passes = 0
    while full and 4 ** passes < rt:      # merges of up to 4 lists each
        passes += 1
    issue(PipeOp(name, "V", reads, writes, {"dst": dst, "src0": concat, "src1": index, "tmp": tmp if full else None,
                                            "repeat": rt, "full": full, "repeats": rt * (1 + passes)}, user_loc()))


def get_sort_len(elem_count):
    """Elements of the sort structure ``elem_count`` records take: pyasc instantiates Ascend C's
    ``GetSortLen<float>``, and a record is 8 bytes (2 float32 elements) on these platforms."""
    return whole("get_sort_len", "elem_count", elem_count) * (RECORD // 4)


def get_sort_offset(elem_offset):
    """The element offset of record ``elem_offset`` in a sort structure (``GetSortOffset<float>``)."""
    return whole("get_sort_offset", "elem_offset", elem_offset) * (RECORD // 4)


def mrg_sort(dst, sort_list, *args, **kwargs):
    """``mrg_sort(dst, sort_list, element_count_list, sorted_num, valid_bit, repeat_time[,
    is_exhausted_suspension])`` or ``mrg_sort(dst, sort_list, MrgSort4Info)``: the records of the valid lists
    (``valid_bit`` 0b11, 0b111 or 0b1111) merged highest score first (equal scores: the earlier list first);
    with suspension, the merge stops once a list is used up."""
    name = "mrg_sort"
    args = list(args)
    info = kwargs.pop("params", args.pop(0) if args and isinstance(args[0], MrgSort4Info) else None)
    if info is not None:
        counts, sorted_num = info.element_lengths, None
        valid, rt, susp = info.valid_bit, info.repeat_times, info.if_exhausted_suspension
    else:
        names = ("element_count_list", "sorted_num", "valid_bit", "repeat_time", "is_exhausted_suspension")
        vals = {n: kwargs.pop(n) if n in kwargs else (args.pop(0) if args else None) for n in names}
        counts, sorted_num, valid, rt = (vals[n] for n in names[:4])
        susp = vals["is_exhausted_suspension"] or False
        if susp not in (True, False):
            raise error(TypeError, "The 'is_exhausted_suspension' argument must be a boolean literal (True or "
                        f"False), but got {susp!r}", "pass True or False")
    if args or kwargs or counts is None or valid is None or rt is None:
        raise error(TypeError, f"{name}: unexpected or missing arguments",
                    "use mrg_sort(dst, sort_list, element_count_list, sorted_num, valid_bit, repeat_time)")
    if not isinstance(sort_list, MrgSortSrcList):
        raise error(TypeError, f"{name}: sort_list must be a MrgSortSrcList, got {type(sort_list).__name__}",
                    "wrap the lists: asc.MrgSortSrcList(dtype, q1, q2, q3, q4)")
    merge_records(name, dst, sort_list, counts, valid, rt, susp, sorted_num=sorted_num)


def merge_records(name, dst, sort_list, counts, valid, rt, susp, record=RECORD, score_at=0, types=_SCORES,
                  sorted_num=None):
    """Issue a merge of the valid lists' ``record``-byte records by the score ``score_at`` bytes into each
    (``mrg_sort``'s (score, index) records, ``mrg_sort4``'s proposals)."""
    valid = whole(name, "valid_bit", valid)
    # valid_bit is a bit mask (its docstring): bit j names list j; upstream takes any mask of the four lists
    named = [j for j in range(4) if valid >> j & 1]
    if not named or valid > 0b1111:
        raise error(ValueError, f"{name}: valid_bit {valid:#b} names none of the four lists",
                    "set bit j for each list j to merge (0b11, 0b111, 0b1111 for the first 2, 3, 4)")
    if named[-1] >= len(sort_list.srcs):
        raise error(ValueError, f"{name}: valid_bit {valid:#b} names list {named[-1] + 1}, the MrgSortSrcList has "
                    f"{len(sort_list.srcs)}", "pass as many lists as valid_bit names")
    counts = list(counts)
    if named[-1] >= len(counts):
        raise error(ValueError, f"{name}: valid_bit {valid:#b} names list {named[-1] + 1}, the element counts "
                    f"{counts} have {len(counts)}", "give an element count for every list")
    srcs = [sort_list.srcs[j] for j in named]
    counts = [whole(name, "element count", counts[j]) for j in named]
    if any(c > 4095 for c in counts):
        raise error(ValueError, f"{name}: element counts {counts} exceed 4095", "merge at most 4095 records a list")
    rt = whole(name, "repeat_time", rt)
    if not 1 <= rt <= 255:
        raise error(ValueError, f"{name}: repeat_time {rt} is outside [1, 255]", "split the work")
    local(name, dst, *srcs)
    aligned(name, dst, *srcs)
    dtypes_in(name, types, dst=dst)
    for t in srcs:
        if str(t.dtype) != str(dst.dtype):
            raise error(TypeError, f"{name}: the lists and dst take one dtype, got {t.dtype} and {dst.dtype}",
                        "merge records of the destination's dtype")
    per = record // dst.itemsize
    total = sum(counts)
    reads = tuple(t.region(0, per * (c + (rt - 1) * total)) for t, c in zip(srcs, counts) if c)
    writes = (dst.region(0, per * total * rt),) if total else ()
    taken = issue(PipeOp(name, "V", reads, writes, {"dst": dst, "srcs": srcs, "counts": counts, "repeat": rt,
                                                    "suspend": bool(susp), "record": record, "score_at": score_at,
                                                    "repeats": rt * max(1, total // 32)}, user_loc()))
    per_list = [0] * 4
    for j, n in zip(named, taken or [0] * len(named)):
        per_list[j] = n
    taken = per_list
    _RESULT[_block()] = tuple(taken)
    if isinstance(sorted_num, list):
        sorted_num[:len(taken)] = taken


def get_mrg_sort_result():
    """How many records each list gave to the block's last ``mrg_sort`` (4 numbers)."""
    return _RESULT.get(_block(), (0, 0, 0, 0))


define("v1.sort32", cost=vector_cost("reduce"))
define("v1.mrg_sort", cost=vector_cost("reduce"))
define("v1.sort", cost=vector_cost("reduce"))
