"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc "TypeError: copy() got an unexpected keyword argument 'repeat_times'"; here 'ValueError: /tmp/asc-v1fuzz-mqo241mf/k350.py:29: copy: the destination (bytes"""
import numpy as np

import asc

SPEC = {'op': 'copy', 'dtype': 'float16', 'form': 'counter', 'mask': 129, 'repeat_times': 0, 'strides': [[1, 16], [2, 16]], 'call': [['mask', 'mask'], ['repeat_times', 'repeat_times'], ['repeat_params', 'params']]}
EXPECT = 'reject'
FUZZ_SIGNATURE = "message|copy|counter|pyasc rejected: CodegenError: TypeError: copy() got an unexpected keyword argument 'repeat_times'|here rejected: ValueError: copy: the destination (bytes [N, N) of UB) partly overlaps a source (bytes [N, N)) in [N, N)"
N = 128


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 256, N)
    dst = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 512, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.CopyRepeatParams(1, 2, 16, 16)
    asc.set_mask_count()
    asc.copy(dst, src0, mask=129, repeat_times=0, repeat_params=params)
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
