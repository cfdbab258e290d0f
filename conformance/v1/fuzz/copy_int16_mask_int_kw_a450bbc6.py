"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: TypeError: copy() got an unexpected keyword argument 'repeat_times'"""
import numpy as np

import asc

SPEC = {'op': 'copy', 'dtype': 'int16', 'form': 'mask_int', 'mask': 62, 'repeat_times': 2, 'strides': [[2, 4], [2, 8]], 'call': [['mask', 'mask'], ['repeat_times', 'repeat_times'], ['repeat_params', 'params']]}
EXPECT = 'reject'
FUZZ_SIGNATURE = "verdict|copy|mask_int|pyasc rejected: CodegenError: TypeError: copy() got an unexpected keyword argument 'repeat_times'|here accepted: "
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
    params = asc.CopyRepeatParams(2, 2, 4, 8)
    asc.copy(dst, src0, mask=62, repeat_times=2, repeat_params=params)
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
