"""Bitwise ops and pow with a runtime scalar that differs between blocks (each block combines its tile
with its own value), on 2-D tiles."""
from __future__ import annotations

import re

import numpy as np
import pytest

from asc.experimental import asctile
from asc.frontend.errors import CodegenError


@asctile.jit
def per_block(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    b = asctile.block_idx()
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 16]), [b * 2, 0], [2, 16])
    s = b * 2 + 1
    out = asctile.global_tensor(out_ptr, [40, 16])
    asctile.copy_out(x & s, out, [b * 10, 0])
    asctile.copy_out(s | x, out, [b * 10 + 2, 0])
    asctile.copy_out(x ^ s, out, [b * 10 + 4, 0])
    asctile.copy_out(x ** s, out, [b * 10 + 6, 0])
    asctile.copy_out(s ** (x & 3), out, [b * 10 + 8, 0])


def test_each_block_combines_its_tile_with_its_own_scalar():
    x = (np.arange(4 * 2 * 16, dtype=np.int32).reshape(4, 2, 16) % 7) - 3
    out = np.zeros((40, 16), np.int32)
    per_block[4](x.reshape(8, 16), out)
    s = (np.arange(4) * 2 + 1).reshape(4, 1, 1).astype(np.int32)
    expected = np.stack([x & s, s | x, x ^ s, (x.astype(np.int64) ** s).astype(np.int32),
                         (s.astype(np.int64) ** (x & 3)).astype(np.int32)], axis=1)
    np.testing.assert_array_equal(out.reshape(4, 5, 2, 16), expected)


@asctile.jit
def scalar_first(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    out = asctile.global_tensor(out_ptr, [3, 64])
    asctile.copy_out(asctile.bitwise_and(6, x).reshape([1, 64]), out, [0, 0])
    asctile.copy_out(asctile.bitwise_xor(5, x).reshape([1, 64]), out, [1, 0])
    asctile.copy_out(asctile.pow(2, x & 7).reshape([1, 64]), out, [2, 0])


def test_the_functions_take_the_scalar_first_too():
    x = np.arange(-32, 32, dtype=np.int32)
    out = np.zeros((3, 64), np.int32)
    scalar_first[1](x, out)
    np.testing.assert_array_equal(out, np.stack([6 & x, 5 ^ x, 2 ** (x & 7)]))


def test_two_scalars_are_rejected_with_upstreams_text():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress):
        asctile.bitwise_or(3, 5)

    with pytest.raises(CodegenError, match=re.escape("At least one operand must be tensor, got <class 'int'> and "
                                                     "<class 'int'>")):
        k[1](np.zeros(8, np.int32))


def test_or_costs_one_vector_call_like_and_and_pow_five():
    @asctile.jit
    def k(a_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        a = asctile.copy_in(asctile.global_tensor(a_ptr, [64]), [0], [64])
        out = asctile.global_tensor(out_ptr, [64])
        asctile.copy_out(a & a, out, [0])
        asctile.copy_out(a | a, out, [0])
        asctile.copy_out(a ** a, out, [0])

    a = np.arange(64, dtype=np.int32)
    ck = k.compile((a, a.copy()), {})[0]
    ticks = [ck.costs[op.id][1] for op in ck.fn.walk() if op.name in ("tile.bitwise", "tile.pow")]
    assert len(ticks) == 3
    assert ticks[1] == pytest.approx(ticks[0]) and ticks[2] == pytest.approx(5 * ticks[0])
