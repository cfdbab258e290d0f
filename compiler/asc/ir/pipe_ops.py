"""The IR of pyasc's v1 API: one ``PipeOp`` per Ascend C instruction, carrying its pipe and the memory it
reads and writes.

A v1 kernel names each instruction and its pipe itself, so its program is a list of these ops per block,
issued in program order to the engine that runs the block (``current_block()``): the language layer
builds the ops, the simulator (``asc.sim.pipes``) executes, checks and schedules them.
"""
from __future__ import annotations

import os
import threading
import sys
from dataclasses import dataclass, field
from typing import Any, Optional

from .registry import PIPES

# The pipes as pyasc's PipeID numbers them (PIPE_ALL is a barrier target, not a pipe of its own).
PIPE_IDS = ("S", "V", "M", "MTE1", "MTE2", "MTE3", "ALL", "MTE4", "MTE5", "V2", "FIX")
GRANULE = 32          # bytes: the unit of access tracking (one data block)
# The pipes a queue of a position orders (producer, consumer): enque / deque and free_tensor / alloc_tensor
# are flags between them; other positions' queues order nothing.
QUEUE_PIPES = {"VECIN": ("MTE2", "V"), "VECOUT": ("V", "MTE3"), "A1": ("MTE2", "MTE1"), "B1": ("MTE2", "MTE1")}


class Region:
    """Bytes ``[lo, hi)`` of memory ``space`` ("UB", "L1", ..., or "GM") in buffer ``buf`` (the GM argument's
    name; the space's name on chip), touched by an op; ``granules``: the 32-byte blocks it touches when they
    are not contiguous (strided forms), else None; ``exact``: the bytes themselves when not all of the span. ``position`` / ``owner`` name the tensor for reports."""
    __slots__ = ("space", "buf", "lo", "hi", "granules", "position", "owner", "exact")

    def __init__(self, space, buf, lo, hi, granules=None, position="", owner="", exact=None):
        self.space, self.buf, self.lo, self.hi = space, buf, lo, hi
        self.granules, self.position, self.owner = granules, position, owner
        self.exact = exact        # the bytes touched, when not all of [lo, hi) (a mask form's active lanes)

    def with_granules(self, granules, exact=None):
        return Region(self.space, self.buf, self.lo, self.hi, granules, self.position, self.owner,
                      self.exact if exact is None else exact)

    def __repr__(self):
        return f"Region({self.space}:{self.buf} [{self.lo}, {self.hi}))"


@dataclass
class PipeOp:
    name: str                      # e.g. "data_copy", "add", "set_flag"
    pipe: str                      # one of registry.PIPES
    reads: tuple = ()
    writes: tuple = ()
    attrs: dict = field(default_factory=dict)
    loc: Optional[tuple] = None    # (file, line) of the user's call

    @property
    def pipe_index(self):
        return PIPES.index(self.pipe)

    def where(self):
        return f"{os.path.basename(self.loc[0])}:{self.loc[1]}" if self.loc else "?"


class _Blocks(threading.local):
    """The engines of the blocks being run (innermost last), per thread: blocks that synchronise with each
    other (``sync_all``) run in threads of their own (``sim/pipes/phases.py``)."""

    def __init__(self):
        self.stack = []


_BLOCKS = _Blocks()
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def current_block():
    """The engine running the current block of a v1 kernel, or None outside a v1 launch."""
    stack = _BLOCKS.stack
    return stack[-1] if stack else None


def scalar_code():
    """A v1 kernel's scalar-side call (a block index read, a view's address, a buffer's place): pyasc compiles it
    to scalar instructions, which the running block charges (``PipeSchedule.scalar_call``)."""
    stack = _BLOCKS.stack
    if stack:
        stack[-1].scalar_call(user_loc())


def push_block(engine):
    _BLOCKS.stack.append(engine)


def pop_block():
    _BLOCKS.stack.pop()


def user_loc():
    """(file, line) of the innermost frame outside this package: the kernel line that made the call."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(PACKAGE):
        f = f.f_back
    return (f.f_code.co_filename, f.f_lineno) if f is not None else None
