"""sqrt in int16, the call form of upstream's docstring example 1:
    asc.sqrt(dst, src, mask=mask, repeat_times=4, repeat_params=params)"""
import numpy as np

import asc

SPEC = {'op': 'sqrt', 'dtype': 'int16', 'call': [['mask', 'mask'], ['repeat_times', 'repeat_times'], ['repeat_params', 'params']], 'form': 'mask_int', 'mask': 128, 'repeat_times': 4, 'strides': [[1, 8], [1, 8]]}
EXPECT = 'accept'
HERE = 'reject'   # element type the Ascend C instruction does not take
N = 512


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 1024, N)
    dst = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 2048, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.UnaryRepeatParams(1, 1, 8, 8)
    asc.sqrt(dst, src0, mask=128, repeat_times=4, repeat_params=params)
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
