"""The symbolic block index of a traced v1 kernel (ir/block_index.py): whole-number arithmetic on it gives, in
every block, what the same arithmetic on that block's number gives; what Python needs as one value is one
only when every block agrees on it."""
from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asc.ir.block_index import BlockDependent, BlockIndex, BlockSplit, at, stride

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


def test_a_decision_that_differs_splits_the_blocks_into_runs_that_agree():
    """A comparison that differs names the runs of consecutive blocks agreeing on it (the last block's
    shorter tile: blocks 0..6 and 7; b % 3 == 0: a run per change), and the kernel's line."""
    b = BlockIndex(n=8)
    length = 700 - b * 100
    with pytest.raises(BlockSplit) as e:
        bool(length > 100)
    assert e.value.runs == [range(0, 6), range(6, 8)] and e.value.loc[1] > 0
    with pytest.raises(BlockSplit) as e:
        bool(b % 3 == 0)
    assert e.value.runs == [range(0, 1), range(1, 3), range(3, 4), range(4, 6), range(6, 7), range(7, 8)]
    with pytest.raises(BlockSplit) as e:        # range() of a value differing in the last block only
        range(b // 7 + 1)
    assert e.value.runs == [range(0, 7), range(7, 8)]
    for other in (lambda: b / 2, lambda: f"{b}"):     # no run of blocks makes these a Python value
        with pytest.raises(BlockDependent) as e:
            other()
        assert not isinstance(e.value, BlockSplit)


def test_a_class_of_blocks_computes_over_its_own_blocks():
    """Traced over blocks 5..7 only: values are each block's, equal ones plain ints, affine ones keep the
    block's own number (not the position in the class)."""
    b = BlockIndex(dom=range(5, 8))
    assert (b < 8) is True and (b >= 5) is True
    assert [at(b * 3 + 1, i) for i in range(5, 8)] == [16, 19, 22] and stride(b * 3 + 1) == 3
    t = b % 2
    assert [at(t, i) for i in range(5, 8)] == [1, 0, 1] and stride(t) is None
    assert b // 5 == 1 and type(b // 5) is int
    one = BlockIndex(dom=range(7, 8))
    assert one * 2 == 14 and type(one * 2) is int         # one block (the tracer gives it its number): an int
