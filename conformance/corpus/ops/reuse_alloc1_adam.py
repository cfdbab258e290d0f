"""``reuse_alloc=1`` on an Adam step: the new ``m`` and ``v``, stored last, outlive tiles live where they are
made, so pyasc-dev's ReuseUBAllocation gives them buffers of their own, seven buffers of 9064 float32 in all
(253792 bytes: within C310's UB, over C220's); level 2 would take five (181280 bytes, within both)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
N = 9064


@asctile.jit(reuse_alloc=1)
def adam_step(p_ptr, m_ptr, v_ptr, g_ptr, n: asctile.ConstExpr, b1: float, b2: float, lr: float, eps: float):
    p_gm, m_gm = asctile.global_tensor(p_ptr, [n]), asctile.global_tensor(m_ptr, [n])
    v_gm, g_gm = asctile.global_tensor(v_ptr, [n]), asctile.global_tensor(g_ptr, [n])
    p, m = asctile.copy_in(p_gm, [0], [n]), asctile.copy_in(m_gm, [0], [n])
    v, g = asctile.copy_in(v_gm, [0], [n]), asctile.copy_in(g_gm, [0], [n])
    m = m + (g - m) * b1
    v = v + (g * g - v) * b2
    p = p - m * lr / (asctile.sqrt(v) + eps)
    asctile.copy_out(m, m_gm, [0])
    asctile.copy_out(v, v_gm, [0])
    asctile.copy_out(p, p_gm, [0])


def run():
    rng = np.random.default_rng(11)
    p, m, g = (rng.standard_normal(N).astype(np.float32) for _ in range(3))
    v = rng.random(N).astype(np.float32)
    adam_step[1](p, m, v, g, N, 0.1, 0.01, 0.001, 1e-8)
    return {"p": p, "m": m, "v": v}
