"""The simulator's implementation of every IR op (an interpreter backend of the op registry).

``@impl(name)`` registers how the executor runs op ``name`` for a batch of lanes:
``fn(ex, op, *operand_values) -> value | tuple | None``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass
class Impl:
    name: str
    execute: Callable
    shared_operands: bool = False  # takes lanes.Shared tile operands as they are (else materialised)
    stores: bool = False           # writes global memory
    undefined: object = None       # what the op does with undefined operand elements (sim/undefined.py)


IMPLS: dict[str, Impl] = {}


def impl(name: str, shared_operands: bool = False, stores: bool = False, undefined=None):
    """Register the executor of IR op ``name`` (decorator); ``undefined``: its rule for operands with
    undefined elements (``sim.undefined``; None: reading one warns)."""
    def deco(fn):
        if name in IMPLS:
            raise RuntimeError(f"op {name} implemented twice")
        IMPLS[name] = Impl(name, fn, shared_operands, stores, undefined)
        return fn
    return deco


# (each module registers its ops' impls)
from . import arith, bitwise, debug, indexed, memory, onchip_copy, scalar, scalar_access, tile  # noqa: E402,F401
