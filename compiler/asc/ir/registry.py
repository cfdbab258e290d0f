"""One definition per IR op: its name and what it costs.

The user-facing function that builds an op (with pyasc's shape/dtype rules and messages) lives next to
its ``define`` call in ``asc.language``; how the simulator executes the op is registered separately in
``asc.sim.ops`` (``@impl``), so the language layer never depends on the simulator.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

PIPES = ("S", "MTE2", "MTE1", "V", "M", "FIX", "MTE3")


@dataclass
class OpDef:
    name: str
    cost: Optional[Callable]   # cost(op, hw) -> (pipe, busy[, latency]) or a list of such stages run in turn


OPS: dict[str, OpDef] = {}


def define(name: str, cost: Optional[Callable] = None) -> OpDef:
    """Register IR op ``name`` with its cost model."""
    if name in OPS:
        raise RuntimeError(f"op {name} defined twice")
    OPS[name] = opdef = OpDef(name, cost)
    return opdef


def scalar_cost(op, hw):
    return ("S", hw.scalar_op)
