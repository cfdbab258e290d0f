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


# -- reading an argument before any block wrote it --------------------------------------------------------------
@asc2.jit
def add_inplace_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, n: int):
    """x += y: x is loaded first, then written back in place."""
    x_gm = asc2.tensor(x_ptr, [n])
    y_gm = asc2.tensor(y_ptr, [n])
    off = asc2.block_idx() * 64
    x = asc2.load(x_gm, [64], offsets=[off])
    x = x + asc2.load(y_gm, [64], offsets=[off])
    asc2.store(x, x_gm, offsets=[off])


@asc2.jit
def accumulate_into_output_kernel(y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
    """The same body with the updated argument in the output position: out += y."""
    y_gm = asc2.tensor(y_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    off = asc2.block_idx() * 64
    acc = asc2.load(o_gm, [64], offsets=[off])
    acc = acc + asc2.load(y_gm, [64], offsets=[off])
    asc2.store(acc, o_gm, offsets=[off])


def test_updating_an_argument_in_place_before_its_inputs_is_clean():
    x, y = randn(256, np.float32, seed=1), randn(256, np.float32, seed=2)
    expected = x + y
    add_inplace_kernel[4](x, y, 256)
    np.testing.assert_array_equal(x, expected)
    assert add_inplace_kernel.last_launch["warnings"] == []


def test_loading_an_output_placed_after_the_inputs_before_writing_it_warns():
    y = randn(256, np.float32, seed=2)
    accumulate_into_output_kernel[4](y, np.empty_like(y), 256)
    (w,) = accumulate_into_output_kernel.last_launch["warnings"]
    assert "load of 'out_ptr' reads 256 element(s) no block wrote in this launch" in w and "np.empty" in w
    assert "acc = asc2.load(o_gm" in open(__file__).read().splitlines()[int(w.split(":")[1]) - 1]


def test_several_arguments_updated_in_place_before_an_input_are_clean():
    @asc2.jit
    def k(p_ptr: asc.GlobalAddress, m_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, n: int):
        p_gm = asc2.tensor(p_ptr, [n])
        m_gm = asc2.tensor(m_ptr, [n])
        g_gm = asc2.tensor(g_ptr, [n])
        off = asc2.block_idx() * 64
        g = asc2.load(g_gm, [64], offsets=[off])
        m = asc2.load(m_gm, [64], offsets=[off]) * 0.5 + g
        asc2.store(m, m_gm, offsets=[off])
        asc2.store(asc2.load(p_gm, [64], offsets=[off]) - m, p_gm, offsets=[off])
    p, m, g = (randn(128, np.float32, seed=s) for s in (3, 4, 5))
    m_ref = m * 0.5 + g
    p_ref = p - m_ref
    k[2](p, m, g, 128)
    np.testing.assert_allclose(m, m_ref, rtol=1e-6)
    np.testing.assert_allclose(p, p_ref, rtol=1e-6)
    assert k.last_launch["warnings"] == []
