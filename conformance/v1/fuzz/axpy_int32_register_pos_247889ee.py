"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc "TypeError: set_vector_mask() missing 1 required keyword-only argument: 'mode'"; here 'TypeError: /tmp/asc-v1fuzz-fw_45vr4/k2.py:29: Invalid dst data type"""
import numpy as np

import asc

SPEC = {'op': 'axpy', 'dtype': 'int32', 'form': 'register', 'scalar': 0.5, 'register': {'len': 1, 'mode': None}, 'mask': 0, 'repeat_times': 1, 'strides': [[1, 3], [2, 16]], 'call': [[None, 'mask'], [None, 'repeat_times'], [None, 'params'], [None, 'is_set_mask']], 'is_set_mask': False}
EXPECT = 'reject'
FUZZ_SIGNATURE = "message|axpy|register|pyasc rejected: CodegenError: TypeError: set_vector_mask() missing N required keyword-only argument: 'mode'|here rejected: TypeError: Invalid dst data type, got intN, expect one of floatN, floatN"
N = 64


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 256, N)
    dst = asc.LocalTensor(asc.int32, asc.TPosition.VECOUT, 512, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.UnaryRepeatParams(1, 2, 3, 16)
    asc.set_vector_mask(1, dtype=asc.int32)
    asc.axpy(dst, src0, 0.5, 0, 1, params, False)
    asc.reset_mask()
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, N)


def run():
    arrays = inputs()
    arrays["z0"] = arrays["z"].copy()
    kernel[1](arrays["x"], arrays["y"], arrays["z"])
    return arrays


def inputs():
    from v1_forms import inputs as make  # the driver puts the conform directory on sys.path
    return make(SPEC)


def reference(arrays):
    from v1_forms import reference as ref
    return ref(SPEC, arrays)
