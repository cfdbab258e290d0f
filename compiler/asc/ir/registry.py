"""One definition per IR op: its name and what it costs.

The user-facing function that builds an op (with pyasc's shape/dtype rules and messages) lives next to
its ``define`` call in ``asc.language``; how the simulator executes the op is registered separately in
``asc.sim.ops`` (``@impl``), so the language layer never depends on the simulator.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

PIPES = ("S", "MTE2", "MTE1", "V", "M", "FIX", "MTE3")


@dataclass(frozen=True)
class Traits:
    """Facts passes ask about an op instead of listing op names.

    ``reads_gm`` / ``writes_gm``: index of the tensor operand the op reads / writes in global memory
    (None: it does not); ``dma``: a GM <-> on-chip transfer (loops containing one pay the DMA overlap
    model); ``atomic``: an atomic read-modify-write; ``accumulator``: its result is a cube accumulator
    ``matmul_acc`` may update in place; ``zero_copy``: its result aliases its operand (no UB of its own);
    ``temp_factor``: extra UB it needs, in multiples of its result's size; ``in_place``: an element-wise
    vector op, whose result may overwrite an operand of its size it is the last reader of (UB reuse;
    True, or ``in_place(op)``);
    ``constant``: a compile-time constant tile (hoisted to the kernel's start); ``scalar_constants``: a
    constant tile operand is read as a scalar (``x + full(c)`` is one Adds): it needs no UB of its own
    (True, or ``scalar_constants(op, operand index, arch)``);
    ``work_bytes``: UB the op's instruction uses as scratch while it runs, ``work_bytes(op, align, arch)`` bytes
    when buffers are allocated in units of ``align`` bytes (pyasc-dev's lowering; replaces ``temp_factor``
    where both are given); ``source_scratch``: when the op is the last reader of its first operand it
    works in that tile instead (no ``work_bytes``); ``scalar_tile``: the bytes of the UB tile a scalar result
    is kept in until it is read (``scalar_tile(op, align)``: a reduction to a scalar)."""
    reads_gm: Optional[int] = None
    writes_gm: Optional[int] = None
    dma: bool = False
    atomic: bool = False
    accumulator: bool = False
    zero_copy: bool = False
    temp_factor: int = 0
    in_place: object = False
    constant: bool = False
    scalar_constants: object = False
    work_bytes: Optional[Callable] = None
    source_scratch: bool = False
    scalar_tile: Optional[Callable] = None


NO_TRAITS = Traits()


@dataclass
class OpDef:
    name: str
    cost: Optional[Callable]   # cost(op, hw) -> (pipe, busy[, latency]) or a list of such stages run in turn
    traits: Traits = NO_TRAITS


OPS: dict[str, OpDef] = {}


def define(name: str, cost: Optional[Callable] = None, **traits) -> OpDef:
    """Register IR op ``name`` with its cost model and its traits (keywords of ``Traits``)."""
    if name in OPS:
        raise RuntimeError(f"op {name} defined twice")
    OPS[name] = opdef = OpDef(name, cost, Traits(**traits) if traits else NO_TRAITS)
    return opdef


def traits(name: str) -> Traits:
    """The traits of op ``name`` (structural ops such as ``scf.for`` have none)."""
    d = OPS.get(name)
    return d.traits if d is not None else NO_TRAITS


def stages(name, op, hw):
    """The cost of ``op`` (an IR op, or a v1 ``PipeOp``) as defined for op ``name``: a tuple of stages
    ``(pipe index, busy ticks, further latency until the result is ready)`` run in turn; an op without a
    cost is a free scalar step."""
    d = OPS.get(name)
    c = ("S", 0.0) if d is None or d.cost is None else d.cost(op, hw)
    return tuple((PIPES.index(x[0]), float(x[1]), float(x[2]) if len(x) > 2 else 0.0)
                 for x in ([c] if isinstance(c[0], str) else c))


def scalar_cost(op, hw):
    return ("S", hw.scalar_op)
