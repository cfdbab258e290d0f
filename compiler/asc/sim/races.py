"""Race bookkeeping of one launch: who wrote each element (writer tags) and the checks that compare a new
access with earlier ones. Accesses of one block are ordered by its program, so they never race with each
other: only different blocks race, and atomic updates may share elements with each other."""
from __future__ import annotations

import numpy as np

from .errors import RaceError

# Writer tags, one per element: the block of the last plain store (>= 0; atomic updates of that same block
# keep it), or one of the codes below.
NO_WRITER = -1
ATOMIC = -2          # atomic updates of more than one block
_ATOMIC_OF = -3      # atomic updates of block b only: _ATOMIC_OF - b


def atomic_tag(blocks):
    """The writer tag of atomic updates by ``blocks`` alone."""
    return _ATOMIC_OF - blocks


def writer_text(tag):
    """Who a writer tag names, for race messages."""
    tag = int(tag)
    if tag == ATOMIC:
        return "atomic updates of several blocks"
    if tag <= _ATOMIC_OF:
        return f"an atomic update of block {_ATOMIC_OF - tag}"
    return f"block {tag}"


def write_conflicts(tags, blocks, atomic):
    """Elements whose earlier writer races with a write by ``blocks`` (broadcast against ``tags``): any
    other block's plain store; for a plain store also any other block's atomic update. A block's own
    earlier writes, plain or atomic, come before it in program order."""
    if atomic:
        return (tags >= 0) & (tags != blocks)
    return (tags != NO_WRITER) & (tags != blocks) & (tags != _ATOMIC_OF - blocks)


def tags_after_atomic(prev, blocks):
    """Writer tags after atomic updates by ``blocks`` of elements tagged ``prev`` (no conflicts left):
    the block's own plain store stays the record (another block's atomic update would race with it);
    a first atomic update, or a further one by the same block, names the block; else several blocks."""
    own = atomic_tag(blocks)
    return np.where(prev >= 0, prev, np.where((prev == NO_WRITER) | (prev == own), own, ATOMIC))


def check_read_race(buf, tags_window, blocks, what):
    """A block reading elements another block wrote in this launch is a race."""
    conflict = (tags_window >= 0) & (tags_window != blocks.reshape((-1,) + (1,) * (tags_window.ndim - 1)))
    if np.any(conflict):
        lane = np.nonzero(conflict.reshape(conflict.shape[0], -1).any(axis=1))[0]
        raise RaceError(f"{what} of '{buf.name}' reads data written by block "
                        f"{int(tags_window[conflict].flat[0])} in the same launch",
                        "blocks run concurrently: a block may only read what it wrote itself "
                        "(split the work into two kernel launches)", lane)


def check_overwrite_race(buf, lo_window, hi_window, blocks, what):
    """A block writing elements another block read in this launch is a race (the reader may see the old
    or the new value)."""
    b = blocks.reshape((-1,) + (1,) * (lo_window.ndim - 1))
    other_reader = (lo_window != b) | (hi_window != b)
    conflict = (hi_window >= 0) & other_reader
    if np.any(conflict):
        lane = np.nonzero(conflict.reshape(conflict.shape[0], -1).any(axis=1))[0]
        other = int(np.where(lo_window != b, lo_window, hi_window)[conflict].flat[0])
        raise RaceError(f"{what} to '{buf.name}' overwrites elements block {other} read in the same launch",
                        "blocks run concurrently: the reader may see the old or the new value; split the work "
                        "into two kernel launches, or let each block read only what it writes", lane)


def same_bits(a, b):
    """Element-wise: ``a`` and ``b`` hold the same bits (identical NaNs agree, -0.0 differs from 0.0)."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b, dtype=np.asarray(a).dtype))
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    kind = f"u{a.dtype.itemsize}"
    return a.view(kind) == b.view(kind)


def check_write_race(buf, tags_window, blocks, what, atomic=False, new=None, old=None):
    """A plain store over elements another block wrote in this launch is a race, unless it writes the
    values already there and another block's plain store put them there (``new`` vs ``old``, when given:
    blocks storing identical values over each other, as broadcast kernels whose windows overlap do, give
    the same result in any order; over an atomic update the order decides). Returns
    whether such an overlap was accepted (its verdict depended on the values)."""
    b = blocks.reshape((-1,) + (1,) * (tags_window.ndim - 1))
    conflict = write_conflicts(tags_window, b, atomic)
    agreed = False
    if new is not None and np.any(conflict & (tags_window >= 0)):
        agreed = True   # (over another block's atomic update the order decides the result: no exemption)
        same = same_bits(old, new() if callable(new) else new).reshape(conflict.shape)
        conflict = conflict & ~(same & (tags_window >= 0))
    if np.any(conflict):
        lane = np.nonzero(conflict.reshape(conflict.shape[0], -1).any(axis=1))[0]
        who = writer_text(tags_window[conflict].flat[0])
        raise RaceError(f"{what} to '{buf.name}' overlaps elements written by {who} in the same launch",
                        "give every block a disjoint output region, or use @atomic_add/max/min", lane)
    return agreed
