"""The cube's mode registers the raw ``mmad`` reads: HF32 (float32 operands rounded to 11 mantissa bits,
to nearest even or, in trans mode, toward zero) and the M / N production order."""
from __future__ import annotations

import numpy as np
import pytest

import asc

M, N, K = 16, 16, 8          # one float32 fractal each of A (16 x 8) and B^T (16 x 8)


@asc.jit
def mmad_modes(a: asc.GlobalAddress, bt: asc.GlobalAddress, c: asc.GlobalAddress, hf32: asc.ConstExpr[int],
               toward_zero: asc.ConstExpr[int], n_first: asc.ConstExpr[int]):
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(bt)
    cg.set_global_buffer(c)
    a2 = asc.LocalTensor(asc.float32, asc.TPosition.A2, 0, M * K)
    b2 = asc.LocalTensor(asc.float32, asc.TPosition.B2, 0, K * N)
    c1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, M * N)
    asc.load_data(a2, ag, asc.LoadData2DParams(0, 1, 0))      # A is its own ZZ fractal
    asc.load_data(b2, bg, asc.LoadData2DParams(0, 1, 0))      # a ZN fractal holds B^T row-major
    asc.set_flag(asc.HardEvent.MTE2_M, 0)
    asc.wait_flag(asc.HardEvent.MTE2_M, 0)
    if hf32 >= 0:
        asc.set_hf32_mode(hf32 != 0)
    if toward_zero >= 0:
        asc.set_hf32_trans_mode(toward_zero != 0)
    asc.set_mm_layout_transform(n_first != 0)
    asc.mmad(c1, a2, b2, asc.MmadParams(M, N, K))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(cg, c1, asc.FixpipeParamsV220(N, M, M, N))


def _operands():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((M, K)).astype(np.float32)
    b = rng.standard_normal((K, N)).astype(np.float32)
    # the rounding edges in row 0 of A: a tie (bit 11 set, lower bits 0) with an even and with an odd kept
    # bit, one just above the tie, one ulp below the largest float32 (which rounds up to infinity)
    base = np.array([0x3F800800, 0x3F801800, 0x3F800801, 0x3F8007FF], np.uint32).view(np.float32)
    a[0, :4] = base
    return a, b


def _run(a, b, hf32, toward_zero, n_first=0):
    c = np.zeros((M, N), np.float32)
    mmad_modes[1](a, np.ascontiguousarray(b.T), c, hf32, toward_zero, n_first)
    return c


def _hf32(x, toward_zero):
    bits = x.view(np.uint32).astype(np.uint64)
    if not toward_zero:
        bits = bits + 0x7FF + ((bits >> 12) & 1)
    return (bits & 0xFFFFF000).astype(np.uint32).view(np.float32)


def _matmul(a, b):
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def test_hf32_off_is_the_float32_product():
    a, b = _operands()
    np.testing.assert_array_equal(_run(a, b, -1, 1), _matmul(a, b))      # trans mode alone changes nothing
    np.testing.assert_array_equal(_run(a, b, 0, -1), _matmul(a, b))


@pytest.mark.parametrize("toward_zero", [0, 1])
def test_hf32_rounds_both_operands_as_the_trans_mode_says(toward_zero):
    a, b = _operands()
    got = _run(a, b, 1, toward_zero)
    np.testing.assert_array_equal(got, _matmul(_hf32(a, toward_zero), _hf32(b, toward_zero)))
    other = _matmul(_hf32(a, not toward_zero), _hf32(b, not toward_zero))
    assert not np.array_equal(got[0], other[0])     # the ties and the value above one differ between modes


def test_hf32_rounding_edges_of_one_operand():
    from asc.sim.ops.arith import hf32
    x = np.array([0x3F800800, 0x3F801800, 0x3F800801, 0x3F800FFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x7FC00000],
                 np.uint32).view(np.float32)
    even = hf32(x, toward_zero=False).view(np.uint32)
    # ties to the even kept bit, above the tie up, the largest float32 to +-infinity, NaN kept
    assert list(even[:6]) == [0x3F800000, 0x3F802000, 0x3F801000, 0x3F801000, 0x7F800000, 0xFF800000]
    assert np.isnan(hf32(x, toward_zero=False)[6])
    assert list(hf32(x).view(np.uint32)[:5]) == [0x3F800000, 0x3F801000, 0x3F800000, 0x3F800000, 0x7F7FF000]


def test_a_new_launch_starts_with_hf32_off():
    a, b = _operands()
    _run(a, b, 1, 0)
    np.testing.assert_array_equal(_run(a, b, -1, -1), _matmul(a, b))      # a new launch starts with HF32 off


def test_mm_layout_transform_changes_the_order_not_the_values():
    a, b = _operands()
    np.testing.assert_array_equal(_run(a, b, 1, 0, n_first=1), _run(a, b, 1, 0, n_first=0))


def test_mode_setters_take_a_bool():
    @asc.jit
    def bad(x: asc.GlobalAddress):
        asc.set_hf32_mode(2)
    with pytest.raises(TypeError, match="set_hf32_mode takes a bool"):
        bad[1](np.zeros(8, np.float32))
