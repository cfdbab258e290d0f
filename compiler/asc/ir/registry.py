"""One definition per IR op: how the simulator executes it and what it costs.

The user-facing function that builds an op (with pyasc's shape/dtype rules and messages) lives next to
its ``define`` call in ``asc.language``; the executor and the cost model only look ops up here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

PIPES = ("S", "MTE2", "MTE1", "V", "M", "FIX", "MTE3")


@dataclass
class OpDef:
    name: str
    execute: Callable          # execute(ex, op, *operand_values) -> value | tuple | None
    cost: Optional[Callable]   # cost(op, hw) -> (pipe, busy[, latency]) or a list of stages
    shared_operands: bool = False  # takes lanes.Shared tile operands as they are (else materialised)


OPS: dict[str, OpDef] = {}


def define(name: str, cost: Optional[Callable] = None, shared_operands: bool = False):
    """Register the executor of IR op ``name`` (decorator)."""
    def deco(fn):
        if name in OPS:
            raise RuntimeError(f"op {name} defined twice")
        OPS[name] = OpDef(name, fn, cost, shared_operands)
        return fn
    return deco


def scalar_cost(op, hw):
    return ("S", hw.scalar_op)
