"""A kernel shape for the instruction-family tests: GM inputs copied to UB, one family call written by the
test as a kernel body function, the UB outputs copied back; run on both platforms."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc.runtime.config as config

PLATFORMS = [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599]


@pytest.fixture(params=PLATFORMS, ids=lambda p: p.value)
def platform(request):
    config.set_platform(config.Backend.Model, request.param)
    yield request.param
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)


def stage(*arrays):
    """Byte offsets of UB tensors for ``arrays`` placed one after another at 256-byte boundaries."""
    offs, at = [], 0
    for a in arrays:
        offs.append(at)
        at += -(-a.nbytes // 256) * 256
    return offs


def bits_of(packed, n):
    return np.unpackbits(np.asarray(packed, np.uint8), bitorder="little")[:n].astype(bool)


def _ub(ptr, at, pos):
    t = asc.LocalTensor(ptr.dtype, pos, at, ptr.size)
    return t, at + -(-ptr.size * ptr.dtype.sizeof() // 256) * 256


@asc.jit(always_compile=True)
def family_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, m: asc.GlobalAddress, z: asc.GlobalAddress,
                  body: asc.ConstExpr[object]):
    gms = []
    for p in (x, y, m, z):
        g = asc.GlobalTensor()
        g.set_global_buffer(p)
        gms.append(g)
    at = 0
    ubs = []
    params = (x, y, m, z)
    for i in range(4):
        p, g = params[i], gms[i]
        t, at = _ub(p, at, asc.TPosition.VECIN)
        asc.data_copy(t, g, p.size)
        ubs.append(t)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    body(*ubs)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(gms[3], ubs[3], z.size)


def run(body, x, y=None, m=None, z=None):
    """Run ``body(x_ub, y_ub, m_ub, z_ub)`` on one block; returns z (which starts as given: untouched lanes
    keep it)."""
    dummy = np.zeros(16, np.float32)
    y = dummy.copy() if y is None else y
    m = dummy.copy() if m is None else m
    family_kernel[1](x, y, m, z, body)
    return z
