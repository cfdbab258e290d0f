"""layer_norm's operand rules (texts at the user's line), a 1-D input, a runtime epsilon, C220 returning
rstd whatever output_rstd says, and its UB temporaries."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc.runtime.config as config
from asc.experimental import asctile
from asc.frontend.errors import CodegenError


@asctile.jit
def ln_2d(x_ptr: asctile.GlobalAddress, g_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
          m_ptr: asctile.GlobalAddress, t_ptr: asctile.GlobalAddress, eps: float, R: asctile.ConstExpr,
          C: asctile.ConstExpr, rstd: asctile.ConstExpr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    g = asctile.copy_in(asctile.global_tensor(g_ptr, [C]), [0], [C])
    out, mean, third = asctile.layer_norm(x, g, g, eps, output_rstd=rstd)
    asctile.copy_out(out, asctile.global_tensor(out_ptr, [R, C]), [0, 0])
    asctile.copy_out(mean, asctile.global_tensor(m_ptr, [R]), [0])
    asctile.copy_out(third, asctile.global_tensor(t_ptr, [R]), [0])


def _run(x, eps=1e-5, rstd=True):
    R, C = x.shape
    g = np.ones(C, np.float32)
    out, mean, third = np.zeros_like(x), np.zeros(R, np.float32), np.zeros(R, np.float32)
    ln_2d[1](x, g, out, mean, third, eps, R, C, rstd)
    return out, mean, third


def test_a_runtime_epsilon_is_used_as_given():
    x = np.tile(np.array([1.0, -1.0] * 32, np.float32), (8, 1))   # mean 0, variance 1
    out, mean, third = _run(x, eps=3.0)
    np.testing.assert_allclose(third, 0.5, rtol=1e-6)                  # 1 / sqrt(1 + 3)
    np.testing.assert_allclose(out, x * 0.5 + 1.0, rtol=1e-6)          # gamma = beta = 1


def test_c220_returns_rstd_even_when_the_variance_is_asked_for():
    x = np.tile(np.array([2.0, -2.0] * 32, np.float32), (8, 1))   # variance 4
    _, _, third = _run(x, rstd=False)
    np.testing.assert_allclose(third, 4.0, rtol=1e-6)
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    _, _, third = _run(x, rstd=False)
    np.testing.assert_allclose(third, 1 / np.sqrt(4.0 + 1e-5), rtol=1e-6)


def test_a_1d_input_gives_one_mean_and_one_rstd():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, m_ptr: asctile.GlobalAddress,
          r_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        out, mean, rstd = asctile.layer_norm(x, x, x, 1e-5)
        asctile.copy_out(out, asctile.global_tensor(out_ptr, [64]), [0])
        asctile.copy_out(mean, asctile.global_tensor(m_ptr, [1]), [0])
        asctile.copy_out(rstd, asctile.global_tensor(r_ptr, [1]), [0])

    x = np.arange(64, dtype=np.float32)
    out, m, r = np.zeros_like(x), np.zeros(1, np.float32), np.zeros(1, np.float32)
    k[1](x, out, m, r)
    np.testing.assert_allclose([m[0], r[0]], [x.mean(), 1 / np.sqrt(x.var() + 1e-5)], rtol=1e-5)
    np.testing.assert_allclose(out, (x - x.mean()) / np.sqrt(x.var() + 1e-5) * x + x, rtol=1e-5, atol=1e-4)


@asctile.jit
def ln_args(x_ptr: asctile.GlobalAddress, which: asctile.ConstExpr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0, 0], [8, 64])
    g = asctile.copy_in(asctile.global_tensor(x_ptr, [512]), [0], [64])
    if which == "gamma_scalar":
        asctile.layer_norm(x, 1.0, g, 1e-5)
    elif which == "beta_int":
        asctile.layer_norm(x, g, g.to(asctile.int32), 1e-5)
    elif which == "gamma_short":
        asctile.layer_norm(x, asctile.copy_in(asctile.global_tensor(x_ptr, [512]), [0], [32]), g, 1e-5)
    elif which == "beta_2d":
        asctile.layer_norm(x, g, x, 1e-5)
    elif which == "rstd_int":
        asctile.layer_norm(x, g, g, 1e-5, output_rstd=1)


@pytest.mark.parametrize("which,text", [
    ("gamma_scalar", "TypeError: 'gamma' argument must be LocalTensor, got float"),
    ("beta_int", "RuntimeError: 'beta' dtype must be one of float16, bfloat16, float32, got int32"),
    ("gamma_short", "RuntimeError: 'gamma' must have shape [64] (the input's last dimension), got [32]"),
    ("beta_2d", "RuntimeError: 'beta' must have shape [64] (the input's last dimension), got [8, 64]"),
    ("rstd_int", "TypeError: 'output_rstd' argument must be bool, got int"),
])
def test_layer_norm_operand_errors_name_the_operand(which, text):
    with pytest.raises(CodegenError, match=re.escape(text)):
        ln_args[1](np.zeros(512, np.float32), which)


def test_layer_norm_scratch_is_counted_as_pyasc_devs_compiler_counts_it():
    x = np.zeros((8, 1024), np.float32)
    _run(x)
    # x, gamma (beta is the same tile), out, mean and rstd (32 bytes each), and the float32 input's
    # scratch: 12 bytes per element and a float32 per row (pyasc-dev's memory_consumed: 168032)
    assert ln_2d.last_launch["peak_ub_bytes"] == 32768 + 4096 + 32768 + 2 * 32 + 12 * 8192 + 32 == 168032


def test_layer_norm_costs_eight_simple_vector_calls_on_its_tile():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 1024]), [0, 0], [8, 1024])
        g = asctile.copy_in(asctile.global_tensor(x_ptr, [8 * 1024]), [0], [1024])
        out, mean, rstd = asctile.layer_norm(x, g, g, 1e-5)
        asctile.copy_out(out + x, asctile.global_tensor(out_ptr, [8, 1024]), [0, 0])

    x = np.zeros((8, 1024), np.float32)
    ck = k.compile((x, x.copy()), {})[0]
    costs = {op.name: ck.costs[op.id] for op in ck.fn.walk() if op.name in ("tile.layer_norm", "tile.binary")}
    (ln_pipe, ln_ticks, *_), (add_pipe, add_ticks, *_) = costs["tile.layer_norm"], costs["tile.binary"]
    assert ln_pipe == add_pipe and ln_ticks == pytest.approx(8 * add_ticks)
