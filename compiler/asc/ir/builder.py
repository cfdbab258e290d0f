"""The insertion point used while tracing a kernel."""
from __future__ import annotations

import contextlib
import threading

from .core import Block, Op

_state = threading.local()


class Builder:
    def __init__(self, platform=None):
        self.blocks: list[Block] = []
        self.loc = None
        self.platform = platform

    @property
    def block(self) -> Block:
        return self.blocks[-1]

    @contextlib.contextmanager
    def insert_into(self, block: Block):
        self.blocks.append(block)
        try:
            yield block
        finally:
            self.blocks.pop()

    def create(self, name, operands=(), result_types=(), attrs=None, regions=()) -> Op:
        op = Op(name, operands, result_types, attrs, regions, self.loc)
        self.block.ops.append(op)
        return op


def current_builder() -> Builder:
    b = getattr(_state, "builder", None)
    if b is None:
        raise RuntimeError("asc2 operations can only be used inside a function decorated with "
                           "@asc2.jit and launched as kernel[core_num](...)")
    return b


@contextlib.contextmanager
def building(builder: Builder):
    prev = getattr(_state, "builder", None)
    _state.builder = builder
    try:
        yield builder
    finally:
        _state.builder = prev
