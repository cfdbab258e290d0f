"""The facts of the IR the executor dispatches by, found once per kernel and kept on it.

Per block, the values no later op reads (``last_uses``: a run lets go of each after its last reader); per op
list, the dispatch steps (``op_steps``: each op's control kind, result ids, the values to let go after it and
whether it may leave its result to the store after it), so a run does not ask an op's name again; and the
ops that occupy the cube (``cube_op_ids``). None of it depends on the data of a launch.
"""
from __future__ import annotations

from ..ir.registry import PIPES

_CUBE = PIPES.index("M")


def cube_op_ids(costs):
    """The ids of the ops that occupy the cube (``costs``: op id -> (pipe, ticks, further (pipe, ticks), ...))."""
    return frozenset(i for i, (pipe, ticks, extra, _) in costs.items()
                     if (pipe == _CUBE and ticks) or any(p == _CUBE and t for p, t in extra))


def last_uses(fn, block):
    """Per op of ``block``, the ids of the values no later op of the block reads (directly or inside its
    regions): facts of the IR, found once per block."""
    memo = fn.__dict__.setdefault("_last_uses", {})
    dead = memo.get(id(block))
    if dead is None:
        last = {}
        for i, op in enumerate(block.ops):
            for v in op.operands:
                last[v.id] = i
            for region in op.regions:
                for inner in region.walk():
                    for v in inner.operands:
                        last[v.id] = i
        dead = [[] for _ in block.ops]
        for vid, i in last.items():
            dead[i].append(vid)
        dead = memo[id(block)] = [tuple(d) for d in dead]
    return dead


_YIELD, _CONDITION, _FOR, _IF, _WHILE, _MASK, _CONST = range(1, 8)
_KINDS = {"scf.yield": _YIELD, "scf.condition": _CONDITION, "scf.for": _FOR, "scf.if": _IF, "scf.while": _WHILE,
          "mask.region": _MASK, "scalar.const": _CONST}


def op_steps(fn, ops, dead, fused_stores):
    """Per op of ``ops`` (a block's, or a loop body's left after hoisting): (control kind or 0, the op, its
    result ids, the value ids to let go after it (``dead``), whether it may leave its result to the store
    after it (``FreshBinary``)). Facts of the IR, found once per op list: a run then dispatches each op
    without asking its name again."""
    memo = fn.__dict__.setdefault("_op_steps", {})
    key = (id(ops), dead is None)
    hit = memo.get(key)
    if hit is not None and hit[0] is ops:
        return hit[1]
    steps = []
    for i, op in enumerate(ops):
        store = fused_stores.get(op.id) if fused_stores else None
        fused = store is not None and i + store[1] < len(ops) and ops[i + store[1]] is store[0]
        steps.append((_KINDS.get(op.name, 0), op, tuple(r.id for r in op.results),
                      () if dead is None else dead[i], fused))
    memo[key] = (ops, steps)
    return steps
