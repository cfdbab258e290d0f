"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc 'RuntimeError: No viable candidates were found to dispatch axpy()'; here 'ValueError: /tmp/asc-v1fuzz-_id8j7l_/k97.py:29: axpy: the scalar -1.5 is not a i"""
import numpy as np

import asc

SPEC = {'op': 'axpy', 'dtype': 'int16', 'form': 'counter', 'scalar': -1.5, 'mask': 128, 'repeat_times': 4, 'strides': [[1, 14], [2, 4]], 'call': [['mask', 'mask'], ['repeat_time', 'repeat_times'], ['repeat_params', 'params']]}
EXPECT = 'reject'
FUZZ_SIGNATURE = 'message|axpy|counter|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch axpy()|here rejected: ValueError: axpy: the scalar -N.N is not a intN value ([-N, N], whole)'
N = 256


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 512, N)
    dst = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 1024, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.UnaryRepeatParams(1, 2, 14, 4)
    asc.set_mask_count()
    asc.axpy(dst, src0, -1.5, mask=128, repeat_time=4, repeat_params=params)
    asc.set_mask_norm()
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
