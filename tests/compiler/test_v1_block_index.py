"""The symbolic block index of a traced v1 kernel (ir/block_index.py): whole-number arithmetic on it gives, in
every block, what the same arithmetic on that block's number gives; what Python needs as one value is one
only when every block agrees on it."""
from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asc.ir.block_index import BlockDependent, BlockIndex, at, stride

OPS = [("+", operator.add), ("-", operator.sub), ("*", operator.mul), ("//", operator.floordiv),
       ("%", operator.mod)]


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 9), st.lists(st.tuples(st.sampled_from(range(len(OPS))), st.integers(-12, 12),
                                             st.sampled_from(["int", "block", "int on the left"])),
                                   min_size=1, max_size=6))
def test_arithmetic_gives_each_blocks_value(blocks, steps):
    """Random chains of + - * // % with ints (either side, negative ones included) and with the index itself:
    the symbolic value at block b is the chain computed on b, for every block up to the last."""
    v = BlockIndex(n=blocks)
    values = list(range(blocks))
    for k, c, kind in steps:
        _, fn = OPS[k]
        if kind == "block":
            other, others = BlockIndex(n=blocks), list(range(blocks))
        else:
            other, others = c, [c] * blocks
        if any(o == 0 for o in others) and fn in (operator.floordiv, operator.mod) and kind != "int on the left":
            continue
        if kind == "int on the left":
            if any(x == 0 for x in values) and fn in (operator.floordiv, operator.mod):
                continue
            v, values = fn(c, v), [fn(c, x) for x in values]
        else:
            v, values = fn(v, other), [fn(x, y) for x, y in zip(values, others)]
    assert [at(v, b) for b in range(blocks)] == values
    if type(v) is BlockIndex and stride(v) is not None:      # affine: one step per block
        assert all(values[b] - values[b - 1] == stride(v) for b in range(1, blocks))


def test_the_modulus_wraps_at_the_last_block():
    b = BlockIndex(n=4)
    nxt = (b + 1) % 4
    assert [at(nxt, i) for i in range(4)] == [1, 2, 3, 0] and stride(nxt) is None
    assert (b % 2 + b // 2 * 2).__class__ is BlockIndex and stride(b % 2 + b // 2 * 2) == 1   # b again: affine
    assert b * 4 % 4 == 0 and type(b * 4 % 4) is int                   # equal in every block: a plain int
    assert [at(b // 3, i) for i in range(4)] == [0, 0, 0, 1]            # only the last block moves on


def test_comparisons_are_bools_only_where_every_block_agrees():
    b = BlockIndex(n=8)
    assert (b < 8) is True and (b >= 0) is True and (b == 9) is False and bool(b + 1) is True
    for differs in (lambda: b < 7, lambda: b % 2 == 0, lambda: bool(b), lambda: int(b), lambda: range(b),
                    lambda: f"{b}", lambda: b / 2, lambda: {b: 1}):
        with pytest.raises(BlockDependent):
            differs()


def test_without_a_block_count_only_the_affine_forms_are_computed():
    b = BlockIndex()
    assert at(b * 4 // 2 + 3, 5) == 13 and b * 4 % 2 == 0
    with pytest.raises(BlockDependent):
        b % 3
