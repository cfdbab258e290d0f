"""Race and read-before-write checks follow the hazard: accesses of one block are ordered by the program,
so only different blocks race, and an argument updated in place is not mistaken for an output the host
left uninitialised."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc2
from asc.sim.executor import KernelRuntimeError

from kernel_checks import randn


def _store(g):
    asc2.store(asc2.full([64], 2.0), g, offsets=[0])


def _atomic(g):
    asc2.atomic_add(asc2.full([64], 1.0), g, [0])


def _nothing(g):
    pass


def _store_atomic(g):
    _store(g)
    _atomic(g)


def _atomic_store(g):
    _atomic(g)
    _store(g)


def _atomic_store_atomic(g):
    _atomic(g)
    _store(g)
    _atomic(g)


@asc2.jit
def mixed_kernel(buf_ptr: asc.GlobalAddress, OPS0: asc.ConstExpr, OPS1: asc.ConstExpr):
    """Block 0 runs the writes of OPS0 in order, block 1 those of OPS1, all on the same 64 elements."""
    g = asc2.tensor(buf_ptr, [64])
    if asc2.block_idx() == 0:
        OPS0(g)
    else:
        OPS1(g)


@pytest.mark.parametrize("ops,expected", [
    (_store_atomic, 3.0),             # store, then atomic_add on its own elements
    (_atomic_store, 2.0),             # atomic_add, then a store over it
    (_atomic_store_atomic, 3.0),
], ids=["store-atomic", "atomic-store", "atomic-store-atomic"])
def test_one_block_storing_and_atomically_updating_its_own_elements_is_not_a_race(ops, expected):
    buf = np.zeros(64, np.float32)
    mixed_kernel[1](buf, ops, _nothing)
    np.testing.assert_array_equal(buf, np.full(64, expected, np.float32))
    assert mixed_kernel.last_launch["warnings"] == []


@pytest.mark.parametrize("ops0,ops1,msg", [
    # the other block's plain store is unordered with this block's atomic update, and the reverse
    (_store_atomic, _atomic, "atomic_add to 'buf_ptr' overlaps elements written by block 0"),
    (_atomic, _store, "store to 'buf_ptr' overlaps elements written by an atomic update of block 0"),
    # atomic updates of both blocks, then a plain store by one of them
    (_atomic, _atomic_store, "store to 'buf_ptr' overlaps elements written by atomic updates of several blocks"),
    # a block's own atomic update after its store does not hide the store from the other block
    (_store_atomic, _store, "store to 'buf_ptr' overlaps elements written by block 0"),
], ids=["store+atomic vs atomic", "atomic vs store", "atomic vs atomic+store", "store+atomic vs store"])
def test_writes_of_different_blocks_still_race(ops0, ops1, msg):
    with pytest.raises(KernelRuntimeError, match=msg):
        mixed_kernel[2](np.zeros(64, np.float32), ops0, ops1)


def test_atomic_updates_of_many_blocks_in_one_op_then_a_store_is_a_race():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress):
        g = asc2.tensor(buf_ptr, [64])
        asc2.atomic_add(asc2.full([64], 1.0), g, [0])          # every block, one op
        if asc2.block_idx() == asc2.block_num() - 1:
            asc2.store(asc2.full([64], 0.0), g, offsets=[0])
    buf = np.zeros(64, np.float32)
    with pytest.raises(KernelRuntimeError, match="overlaps elements written by atomic updates of several blocks"):
        k[4](buf)
    k[1](buf)                                                 # one block: program order, no race
    assert np.all(buf == 0)
