"""The vector unit's addressing, shared by every v1 vector instruction: the call forms (count, mask-int,
mask-list), the mask register and its modes (``set_mask_norm`` / ``set_mask_count`` / ``set_vector_mask`` /
``reset_mask``), repeats of 8 blocks of 32 bytes with block and repeat strides, and the checks of the
instruction fields. An instruction resolves its addressing here at issue into element indices per operand, so
what it computes is a pure function of its operands and those indices."""
from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

import numpy as np

from ...ir.pipe_ops import PipeOp, user_loc
from ..core.errors import error
from .params import BinaryRepeatParams, UnaryRepeatParams
from .tensors import LocalTensor, _block

REPEAT_BYTES = 256     # one repeat: 8 data blocks
BLOCK_BYTES = 32
FULL = (1 << 64) - 1


def issue(op):
    return _block().issue(op)


def lanes_of(itemsize):
    """Elements of one repeat (of the widest operand)."""
    return REPEAT_BYTES // itemsize


# -- checks shared by the instructions ------------------------------------------------------------------
def aligned(name, *tensors, unit=BLOCK_BYTES):
    """Instructions address on-chip operands in 32-byte blocks: a local operand must start on one."""
    for t in tensors:
        if t.space != "GM" and t.addr % unit:
            raise error(ValueError, f"{name}: the {t.space} operand starts at byte {t.addr}, which is not "
                        f"{unit}-byte aligned ({t.owner})", f"offset local tensors by multiples of {unit} bytes "
                        f"({max(1, unit // t.itemsize)} elements of {t.dtype})")


def whole(name, what, v):
    """An instruction's count or repeat: an int (the hardware field is an integer register)."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):    # upstream's overloads take ints only
        raise error(TypeError, f"{name}: {what} must be an int, got {v!r}",
                    f"compute {what} with integer arithmetic (// instead of /)")
    if v < 0:
        raise error(ValueError, f"{name}: {what} is {int(v)}: the instruction's field is unsigned",
                    f"pass a {what} >= 0")
    return int(v)


def field_range(what, params, limits):
    """The instruction's parameter fields are hardware registers: each value must fit its field."""
    for field, lo, hi in limits:
        v = int(getattr(params, field))
        if not lo <= v <= hi:
            raise error(ValueError, f"{what}.{field} = {v} is outside [{lo}, {hi}] (the instruction's field)",
                        f"split the work into instructions whose {field} fits" if field in ("block_count",
                        "block_len") else f"keep {field} within [{lo}, {hi}] (strides count 32-byte blocks)")


def one_type(name, *tensors):
    """Ascend C's instructions take one element type T for every operand: the device compiler rejects others."""
    for t in tensors:
        t.itemsize            # a GlobalTensor without memory says so first
    types = [str(t.dtype) for t in tensors]
    if len(set(types)) > 1:
        raise error(TypeError, f"{name} takes operands of one element type, got {', '.join(types)} "
                    f"({', '.join(t.owner or t.space for t in tensors)})",
                    "declare the tensors with the same dtype (a LocalTensor with its GM tensor's dtype)")


def dtypes_in(name, valid, **tensors):
    """pyasc's dtype rule of an instruction (upstream's check_type), with its message."""
    for what, t in tensors.items():
        allowed = valid[what] if isinstance(valid, dict) else valid
        if str(t.dtype) not in allowed:
            raise error(TypeError, f"Invalid {what} data type, got {t.dtype}, expect one of {', '.join(allowed)}",
                        f"{name} takes {what} of {', '.join(allowed)}")


def overlap(name, dst, writes, sources):
    """Ascend C's address-overlap rule: a source may be the destination itself (the same start), never a
    partly overlapping range of it. ``sources``: (tensor, its regions) pairs."""
    for t, regs in sources:
        if t.space != dst.space or t.addr == dst.addr:
            continue
        for w in writes:
            for r in regs:
                if r.lo < w.hi and w.lo < r.hi:
                    lo, hi = max(r.lo, w.lo), min(r.hi, w.hi)
                    raise error(ValueError, f"{name}: the destination (bytes [{w.lo}, {w.hi}) of {dst.space}) "
                                f"partly overlaps a source (bytes [{r.lo}, {r.hi})) in [{lo}, {hi})",
                                "use the source itself as the destination (the same address), or a separate "
                                "buffer")


def local(name, *tensors):
    for t in tensors:
        if not isinstance(t, LocalTensor):
            raise error(TypeError, f"{name} takes LocalTensor operands, got {type(t).__name__}",
                        "vector instructions work on UB: copy GM data in with data_copy first")


# -- the mask register and its modes ----------------------------------------------------------------------
class MaskRegister:
    """A block's vector mask: Normal mode (128 bits, element i of a repeat active when bit i is set) or Counter
    mode (``lo``: the number of elements the next instruction processes, its repeats derived from it)."""
    __slots__ = ("counter", "hi", "lo", "__weakref__")

    def __init__(self):
        self.counter, self.hi, self.lo = False, FULL, FULL


_REGISTERS = weakref.WeakKeyDictionary()


def register():
    blk = _block()
    reg = _REGISTERS.get(blk)
    if reg is None:
        reg = _REGISTERS[blk] = MaskRegister()
    return reg


def set_mask_count():
    """``set_mask_count()``: Counter mode: an instruction's mask is the number of elements it processes."""
    register().counter = True


def set_mask_norm():
    """``set_mask_norm()``: Normal mode (the default): the mask selects the lanes of every repeat."""
    register().counter = False


def reset_mask():
    """``reset_mask()``: every lane active again."""
    reg = register()
    reg.hi = reg.lo = FULL


def _u64(name, what, v):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) <= FULL:
        raise error(ValueError, f"{name}: {what} {v!r} is not a 64-bit mask word",
                    "pass an int in [0, 2**64 - 1] (bit i selects element i)")
    return int(v)


def set_vector_mask(*args, dtype=None, mode=None):
    """``set_vector_mask(len, dtype=, mode=)`` or ``set_vector_mask(mask_high, mask_low, dtype=, mode=)``: the mask
    instructions with ``is_set_mask=False`` use (Normal: lanes; Counter: the element count). Both keywords are
    required, as upstream's signature has them."""
    if dtype is None:
        raise error(TypeError, "set_vector_mask() missing required keyword argument 'dtype'",
                    "pass dtype=asc.float16 (the operands' type: it sets how many lanes a repeat has)")
    if mode is None:
        raise error(TypeError, "set_vector_mask() missing required keyword argument 'mode'",
                    "pass mode=asc.MaskMode.NORMAL (lanes) or mode=asc.MaskMode.COUNTER (an element count)")
    reg = register()
    lanes = lanes_of(dtype.sizeof())
    counter = int(mode) == 1
    if len(args) == 1:
        n = whole("set_vector_mask", "len", args[0])
        if counter:
            reg.hi, reg.lo = 0, n
        else:
            if not 1 <= n <= lanes:
                raise error(ValueError, f"set_vector_mask: len {n} is outside [1, {lanes}] for {dtype}",
                            f"one repeat covers {lanes} elements of {dtype}")
            reg.hi, reg.lo = (1 << (n - 64)) - 1 if n > 64 else 0, FULL if n >= 64 else (1 << n) - 1
    elif len(args) == 2:
        reg.hi, reg.lo = _u64("set_vector_mask", "mask_high", args[0]), _u64("set_vector_mask", "mask_low", args[1])
    else:
        raise error(TypeError, f"set_vector_mask takes (len) or (mask_high, mask_low), got {len(args)} values",
                    "call set_vector_mask(len, dtype=..., mode=...) or set_vector_mask(high, low, dtype=..., mode=...)")


def _bits(name, mask, lanes):
    """The active lanes of one repeat from a mask-int (the first ``mask``) or mask-list ([low, high] words)."""
    if isinstance(mask, (list, tuple)):
        words = [_u64(name, f"mask[{i}]", w) for i, w in enumerate(mask)]
        if not 1 <= len(words) <= 2:
            raise error(ValueError, f"{name}: a mask list has 1 or 2 words, got {len(words)}",
                        "pass [low] or [low, high] (bit i of the list selects element i of a repeat)")
        m = _lanes_of_words(words[0], words[1] if len(words) > 1 else 0, lanes)
        if not m.any():
            raise error(ValueError, f"{name}: the mask list selects none of the {lanes} lanes of a repeat",
                        "set at least one bit below the repeat's lane count")
        return m
    m = whole(name, "mask", mask)
    if not 1 <= m <= lanes:
        raise error(ValueError, f"mask {m} is outside [1, {lanes}] for {256 // lanes}-byte elements",
                    f"one repeat covers {lanes} elements of this type")
    return np.arange(lanes) < m


def _lanes_of_words(lo, hi, lanes):
    """Lane i active when bit i of the 128-bit (lo, hi) mask is set."""
    raw = np.array([lo, hi], dtype=np.uint64).view(np.uint8)
    return np.unpackbits(raw, bitorder="little")[:lanes].astype(bool)


def _register_bits(reg, lanes):
    return _lanes_of_words(reg.lo, reg.hi, lanes)


def bind(name, params, args, kwargs, usage):
    """Upstream's keyword-or-positional parameters ``params`` ((name, default) pairs; default ``REQUIRED``)."""
    args = list(args)
    out = {}
    # as Python binds a call: an unknown keyword is the mistake named, before any missing argument
    unknown = [k for k in kwargs if k not in {p for p, _ in params}]
    if unknown:
        raise error(TypeError, f"{name}() got an unexpected keyword argument '{unknown[0]}'", f"use {usage}")
    for p, default in params:
        if args:
            if p in kwargs:
                raise error(TypeError, f"{name}() got multiple values for argument '{p}'", f"use {usage}")
            out[p] = args.pop(0)
        elif p in kwargs:
            out[p] = kwargs.pop(p)
        elif default is REQUIRED:
            raise error(TypeError, f"{name}() missing required argument '{p}'", f"use {usage}")
        else:
            out[p] = default
    if args or kwargs:
        raise error(TypeError, f"{name}: unexpected arguments {args or ''} {sorted(kwargs) or ''}".strip(),
                    f"use {usage}")
    return out


REQUIRED = object()


# -- call forms -------------------------------------------------------------------------------------------
@dataclass
class Form:
    count: object = None
    mask: object = None
    repeat_times: object = None
    repeat_params: object = None
    is_set_mask: bool = True


def parse_form(name, args, kwargs, params_cls=BinaryRepeatParams, usage=None, params_required=False,
               set_mask=True):
    """Upstream's overloads: ``(..., count[, is_set_mask])`` or ``(..., mask, repeat_times, repeat_params
    [, is_set_mask])``, positionally or by keyword (a positional int with ``repeat_times`` given is the mask).
    ``params_required``: the instruction's mask overloads have no default for ``repeat_params`` (upstream's
    dispatcher finds no candidate without one), else a missing one is the record's defaults. ``set_mask``:
    whether its mask overloads take ``is_set_mask`` (compare's do not)."""
    args = list(args)
    f = Form(kwargs.pop("count", None), kwargs.pop("mask", None), kwargs.pop("repeat_times", None),
             kwargs.pop("repeat_params", None), kwargs.pop("is_set_mask", True) if set_mask else True)
    if args:
        if (f.count is None and f.mask is None and f.repeat_times is None and f.repeat_params is None
                and not isinstance(args[0], (list, tuple)) and (len(args) == 1 or isinstance(args[1], bool))):
            f.count = args.pop(0)
        else:
            if f.mask is None:
                f.mask = args.pop(0)
            if args and f.repeat_times is None:
                f.repeat_times = args.pop(0)
            if args and f.repeat_params is None and not isinstance(args[0], bool):
                f.repeat_params = args.pop(0)
        if args and isinstance(args[0], bool) and set_mask:
            f.is_set_mask = args.pop(0)
    usage = usage or f"{name}(dst, src..., count) or {name}(dst, src..., mask, repeat_times, repeat_params)"
    if args or kwargs:
        raise error(TypeError, f"{name}: unexpected arguments {args or ''} {sorted(kwargs) or ''}".strip(),
                    f"use {usage}")
    if f.count is None:
        if f.mask is None and f.repeat_times is None:
            raise error(TypeError, f"{name} needs an element count or a mask form", f"write {usage}")
        if f.mask is None or f.repeat_times is None:
            raise error(TypeError, f"{name}: the mask form needs mask, repeat_times and repeat_params",
                        f"write {usage}")
        if f.repeat_params is None:
            if params_required:
                raise error(TypeError, f"{name}: the mask form needs mask, repeat_times and repeat_params "
                            "(no overload of it takes the mask form without repeat_params)",
                            f"pass repeat_params=asc.{params_cls.__name__}(...) (blocks 1, repeats 8 for "
                            "contiguous data), or use the count form")
            f.repeat_params = params_cls()
    return f


def param_strides(p, n):
    """(block stride, repeat stride) per operand, dst first, from a repeat-parameter record or a pair."""
    if isinstance(p, list):          # (block stride, repeat stride) per operand, as the instruction gives them
        return p
    if isinstance(p, (BinaryRepeatParams, UnaryRepeatParams)):
        field_range(type(p).__name__, p, [(f, 0, 255) for f in p.__dataclass_fields__])
    if isinstance(p, BinaryRepeatParams):
        s = [(p.dst_blk_stride, p.dst_rep_stride), (p.src0_blk_stride, p.src0_rep_stride),
             (p.src1_blk_stride, p.src1_rep_stride)]
    elif isinstance(p, UnaryRepeatParams):
        s = [(p.dst_blk_stride, p.dst_rep_stride), (p.src_blk_stride, p.src_rep_stride)]
    else:
        s = [tuple(p)]
    return (s + [s[-1]] * n)[:n]


def repeat_indices(active, repeat_times, blk_stride, rep_stride, itemsize):
    """Element indices (from the operand's start) of the active lanes of every repeat (one repeat is 8
    blocks of 32 bytes; block b of repeat r starts at (r * rep_stride + b * blk_stride) * 32 bytes)."""
    per_blk = BLOCK_BYTES // itemsize
    lane = np.nonzero(active)[0]
    b, e = lane // per_blk, lane % per_blk
    r = np.arange(int(repeat_times))[:, None]
    return ((r * int(rep_stride) + b[None, :] * int(blk_stride)) * per_blk + e[None, :]).reshape(-1)


@dataclass
class Addressing:
    """Where an instruction's repeats fall: ``idx`` (per operand, element indices in repeat-major lane order;
    None in the count form, which is contiguous), ``count`` elements, ``repeats`` issued, ``active`` lanes
    of a repeat (mask form), ``form``."""
    idx: object
    count: int
    repeats: int
    active: object
    form: str
    rep_count: int = 0       # repeats that run (Counter mode derives them from the count)


def resolve(name, f, tensors, strides, lane_itemsize=None, per_repeat_count=False):
    """The addressing of a call in form ``f`` over ``tensors`` (dst first) with their (block, repeat) strides,
    the mask register applied (``is_set_mask`` sets it first, as Ascend C's templates do). ``per_repeat_count``:
    in Counter mode the mask is the element count of each repeat and ``repeat_times`` counts (``copy``'s
    docstring), instead of the count of the whole call."""
    reg = register()
    isz = lane_itemsize or max(t.itemsize for t in tensors)
    lanes = lanes_of(isz)
    if f.count is not None:
        n = whole(name, "count", f.count)
        # the count form runs in Counter mode and leaves Normal mode with every lane set (Ascend C's wrapper)
        reg.counter, reg.hi, reg.lo = False, FULL, FULL
        return Addressing(None, n, math.ceil(n * isz / REPEAT_BYTES), None, "count", math.ceil(n / lanes))
    rt = whole(name, "repeat_times", f.repeat_times)
    if not 0 <= rt <= 255:
        raise error(ValueError, f"{name}: repeat_times {rt} is outside [0, 255]",
                    "split the work into instructions of at most 255 repeats")
    if reg.counter:
        if f.is_set_mask:
            m = f.mask
            reg.hi, reg.lo = 0, whole(name, "mask", m[0] if isinstance(m, (list, tuple)) else m)
        n = reg.lo
        if per_repeat_count:
            if not 1 <= n <= lanes:
                raise error(ValueError, f"mask {n} is outside [1, {lanes}] for {256 // lanes}-byte elements",
                            f"in Counter mode {name}'s mask counts the elements of each repeat (at most {lanes})")
            active = np.arange(lanes) < n
            idx = [repeat_indices(active, rt, b, r, t.itemsize) for t, (b, r) in zip(tensors, strides)]
            return Addressing(idx, n * rt, rt, active, "mask", rt)
        rt = math.ceil(n / lanes)
        active = np.ones(lanes, bool)
        idx = [repeat_indices(active, rt, b, r, t.itemsize)[:n] for t, (b, r) in zip(tensors, strides)]
        return Addressing(idx, n, rt, active, "counter", rt)
    if f.is_set_mask:
        active = _bits(name, f.mask, lanes)
        words = np.packbits(np.pad(active, (0, 128 - lanes)), bitorder="little").view(np.uint64)
        reg.lo, reg.hi = int(words[0]), int(words[1])
    else:
        active = _register_bits(reg, lanes)
        if not active.any():
            raise error(ValueError, f"{name}: the mask register selects none of the {lanes} lanes",
                        "set a mask with set_vector_mask (or pass is_set_mask=True)")
    idx = [repeat_indices(active, rt, b, r, t.itemsize) for t, (b, r) in zip(tensors, strides)]
    return Addressing(idx, int(active.sum()) * rt, rt, active, "mask", rt)


def regions(t, idx):
    """The bytes an operand's elements ``idx`` touch: one region, with its 32-byte granules (and bytes) when
    the elements are not contiguous."""
    if idx.size == 0:
        return ()
    lo, hi = int(idx.min()), int(idx.max()) + 1
    reg = t.region(lo, hi)
    elems = np.unique(idx)
    exact = None
    if elems.size != hi - lo:     # lanes left out between the first and the last: name the bytes
        exact = ((t.addr + elems * t.itemsize)[:, None] + np.arange(t.itemsize)[None, :]).ravel()
    gr = np.unique((t.addr + idx * t.itemsize) // 32)
    if gr.size != (reg.hi - 1) // 32 - reg.lo // 32 + 1 or exact is not None:
        reg = reg.with_granules(gr, exact)
    return (reg,)


def operand_regions(t, idx, count):
    """Regions of one operand: contiguous ``count`` elements (count form) or its indices."""
    if idx is None:
        return (t.region(0, count),) if count else ()
    return regions(t, idx)


# -- the elementwise issue path -----------------------------------------------------------------------------
def vector_op(name, dst, srcs, form, params_cls=BinaryRepeatParams, scalar=None, extra=None, reads_dst=False,
              lane_itemsize=None, per_repeat_count=False):
    """Issue an elementwise instruction: ``dst[i] = f(srcs[i]...)`` over the form's addressing."""
    tensors = [dst] + list(srcs)
    local(name, *tensors)
    aligned(name, *tensors)
    strides = param_strides(form.repeat_params, len(tensors)) if form.count is None else None
    a = resolve(name, form, tensors, strides, lane_itemsize, per_repeat_count)
    idx = a.idx or [None] * len(tensors)
    per_src = [(t, operand_regions(t, ix, a.count)) for t, ix in zip(srcs, idx[1:])]
    reads = [r for _, regs in per_src for r in regs]
    writes = list(operand_regions(dst, idx[0], a.count))
    overlap(name, dst, writes, per_src)
    if reads_dst:
        reads.extend(writes)
    attrs = {"dst": dst, "srcs": list(srcs), "idx": a.idx, "count": a.count, "scalar": scalar, "form": a.form,
             "repeats": a.repeats}
    if extra:
        attrs.update(extra)
    return issue(PipeOp(name, "V", tuple(reads), tuple(writes), attrs, user_loc()))


def vector_cost(kind=None):
    """A vector instruction's cost: the call's issue plus one tick per repeat (``kind``: its weight)."""
    def cost(op, hw):
        return ("V", hw.vector_busy(op.attrs["repeats"], kind))
    return cost
