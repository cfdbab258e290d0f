"""v1 region proposals: a proposal is 8 elements of its dtype, (x1, y1, x2, y2, score, label, 2 reserved).
``proposal_concat`` writes 16 consecutive elements per repeat into one field of 16 proposals,
``proposal_extract`` reads one field of 16 proposals per repeat into 16 consecutive elements, ``rp_sort16``
sorts each repeat's 16 proposals by score (highest first, equal scores: the earlier first) and ``mrg_sort4``
merges up to 4 sorted proposal lists as ``mrg_sort`` merges records. Element math in
``sim/pipes/compute_sort.py``."""
from __future__ import annotations

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .addressing import aligned, dtypes_in, issue, local, vector_cost, whole
from .sort import MrgSort4Info, MrgSortSrcList, merge_records

FIELDS = 8          # elements of one proposal
SCORE = 4           # the score's field
_TYPES = ("float16", "float32")
_MODES = "x1 y1 x2 y2 score label".split()


def _one_type(name, dst, src):
    local(name, dst, src)
    aligned(name, dst, src)
    dtypes_in(name, _TYPES, dst=dst, src=src)
    if str(dst.dtype) != str(src.dtype):
        raise error(TypeError, f"{name}: dst ({dst.dtype}) and src ({src.dtype}) take one dtype",
                    "use proposals and elements of one dtype")


def _repeats(name, repeat_time):
    rt = whole(name, "repeat_time", repeat_time)
    if rt > 255:
        raise error(ValueError, f"{name}: repeat_time {rt} is outside [0, 255]", "split the work")
    return rt


def _mode(name, mode_number):
    m = whole(name, "mode_number", mode_number)
    if m > 5:
        raise error(ValueError, f"{name}: mode_number {m} is outside [0, 5]",
                    "the fields are 0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label")
    return m


def proposal_concat(dst, src, repeat_time, mode_number):
    """``proposal_concat(dst, src, repeat_time, mode_number)``: element ``16 r + j`` of ``src`` into field
    ``mode_number`` of proposal ``16 r + j`` of ``dst``; the proposals' other fields keep their values."""
    name = "proposal_concat"
    _one_type(name, dst, src)
    rt, mode = _repeats(name, repeat_time), _mode(name, mode_number)
    n = 16 * rt
    reads = (src.region(0, n),) if n else ()
    writes = (dst.region(0, n * FIELDS),) if n else ()
    issue(PipeOp(name, "V", reads, writes, {"dst": dst, "src": src, "n": n, "field": mode, "repeats": rt},
                 user_loc()))


def proposal_extract(dst, src, repeat_time, mode_number):
    """``proposal_extract(dst, src, repeat_time, mode_number)``: field ``mode_number`` of proposal ``16 r + j``
    of ``src`` into element ``16 r + j`` of ``dst``."""
    name = "proposal_extract"
    _one_type(name, dst, src)
    rt, mode = _repeats(name, repeat_time), _mode(name, mode_number)
    n = 16 * rt
    reads = (src.region(0, n * FIELDS),) if n else ()
    writes = (dst.region(0, n),) if n else ()
    issue(PipeOp(name, "V", reads, writes, {"dst": dst, "src": src, "n": n, "field": mode, "repeats": rt},
                 user_loc()))


def rp_sort16(dst, src, repeat_time):
    """``rp_sort16(dst, src, repeat_time)``: each repeat's 16 proposals of ``src`` into ``dst`` by score,
    highest first (equal scores: the earlier proposal first)."""
    name = "rp_sort16"
    _one_type(name, dst, src)
    rt = _repeats(name, repeat_time)
    n = 16 * rt * FIELDS
    reads, writes = ((src.region(0, n),), (dst.region(0, n),)) if n else ((), ())
    issue(PipeOp(name, "V", reads, writes, {"dst": dst, "src": src, "repeat": rt, "repeats": rt}, user_loc()))


def mrg_sort4(dst, src, params):
    """``mrg_sort4(dst, MrgSortSrcList, MrgSort4Info)``: the valid lists' proposals (``element_lengths`` of
    each, ``valid_bit`` 0b11, 0b111 or 0b1111) merged by score, highest first (equal scores: the earlier
    list first); with suspension, the merge stops once a list is used up; ``repeat_times`` merges, each a
    further four lists' total length on."""
    name = "mrg_sort4"
    if not isinstance(src, MrgSortSrcList) or not isinstance(params, MrgSort4Info):
        raise error(TypeError, f"{name} takes (dst, MrgSortSrcList, MrgSort4Info)",
                    "asc.mrg_sort4(dst, asc.MrgSortSrcList(q1, q2, q3, q4), asc.MrgSort4Info([n1, n2, n3, n4]))")
    merge_records(name, dst, src, params.element_lengths, params.valid_bit, params.repeat_times,
                  params.if_exhausted_suspension, record=FIELDS * dst.itemsize, score_at=SCORE * dst.itemsize,
                  types=_TYPES)


define("v1.proposal_concat", cost=vector_cost())
define("v1.proposal_extract", cost=vector_cost())
define("v1.rp_sort16", cost=vector_cost("reduce"))
define("v1.mrg_sort4", cost=vector_cost("reduce"))
