"""The insertion point used while tracing a kernel."""
from __future__ import annotations

import contextlib
import re
import threading

from .core import Block, Op

_state = threading.local()


class Builder:
    """Tracing state of one kernel: insertion point, source location, platform, the kernel's dialect
    (how errors spell public names) and facts ops record while tracing."""

    def __init__(self, platform=None, dialect=None, arch=None):
        self.blocks: list[Block] = []
        self.loc = None
        self.platform = platform
        self.arch = arch            # "c220" / "c310": ops whose rules differ per architecture ask this
        self.dialect = dialect      # an object with ``spell(key) -> str`` (asc.language.dialect.Dialect)
        self.carried_init = {}      # loop block-argument value id -> the value it was initialised from
        self.l1_targets = {}        # L1 tile value id -> the L0 location it was first copied to
        self.warnings = []          # trace-time warnings, copied into every launch report
        self.barrier_keywords = {}  # "parallel" / "gm_barrier" -> first line using it (never both)
        self.debug = False          # @jit(debug=True): device_print / device_assert are emitted

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


def dialect_spelling(key: str) -> str:
    """How the kernel being traced spells the public name ``key`` (April spelling outside tracing)."""
    b = getattr(_state, "builder", None)
    d = getattr(b, "dialect", None)
    if d is None:
        return {"Location": "TileLocation"}.get(key, key)
    return d.name_of(key)


def tracing_august() -> bool:
    """Whether the kernel being traced is written in the August dialect (its errors use pyasc-dev's texts)."""
    d = getattr(getattr(_state, "builder", None), "dialect", None)
    return bool(getattr(d, "august", False))


def dialect_qualified(key: str) -> str:
    """``dialect_spelling`` with the kernel's module name (``asc2.TileLocation``, ``asctile.copy_in``)."""
    b = getattr(_state, "builder", None)
    d = getattr(b, "dialect", None)
    return d.spell(key) if d is not None else "asc2." + dialect_spelling(key)


_TOKEN = re.compile(r"@(@?)(?!(?:asc2|asctile|asc)\.)([A-Za-z_][A-Za-z0-9_]*)")


def localise(text, dialect=None):
    """Spell the public names in an error message or hint the way the kernel does: ``@load`` becomes
    ``asc2.load`` in an April kernel and ``asctile.copy_in`` in an asctile one (``@@jit``: ``@asc2.jit``).
    ``dialect`` defaults to the kernel being traced (April ``asc2`` outside tracing)."""
    if not text or "@" not in text:
        return text
    if dialect is None:
        dialect = getattr(getattr(_state, "builder", None), "dialect", None)
    if dialect is None:
        spell = lambda key: "asc2." + dialect_spelling(key)  # noqa: E731
    else:
        spell = dialect.spell
    return _TOKEN.sub(lambda m: m.group(1) + spell(m.group(2)), text)


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
