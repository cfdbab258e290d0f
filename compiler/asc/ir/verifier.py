"""Structural checks on a traced function: every operand is defined before use, region results agree."""
from __future__ import annotations

from .core import Block, Function
from .types import TileType


class VerificationError(RuntimeError):
    pass


def _verify_block(block: Block, visible: set):
    visible = set(visible)
    visible.update(a.id for a in block.args)
    for op in block.ops:
        for o in op.operands:
            if o.id not in visible:
                raise VerificationError(f"{op.name} at {op.loc}: operand %v{o.id} is used before it is defined")
        for region in op.regions:
            _verify_block(region, visible)
        if op.name in ("scf.for", "scf.if", "scf.while"):
            for region in op.regions:
                term = region.ops[-1] if region.ops else None
                if term is None or term.name not in ("scf.yield", "scf.condition"):
                    raise VerificationError(f"{op.name} at {op.loc}: region does not end with a yield")
                vals = term.operands[1:] if term.name == "scf.condition" else term.operands
                if len(vals) != len(op.results):
                    raise VerificationError(f"{op.name} at {op.loc}: yields {len(vals)} values for "
                                            f"{len(op.results)} results")
                for v, r in zip(vals, op.results):
                    if v.type != r.type:
                        raise VerificationError(f"{op.name} at {op.loc}: yields {v.type} for a result of type {r.type}")
        for r in op.results:
            if isinstance(r.type, TileType) and not r.type.shape:
                raise VerificationError(f"{op.name} at {op.loc}: tile of rank 0")
        visible.update(r.id for r in op.results)


def verify_function(fn: Function):
    _verify_block(fn.body, set())
