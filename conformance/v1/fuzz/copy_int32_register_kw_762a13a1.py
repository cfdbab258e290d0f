"""Found by the v1 differential fuzzer: numbers
    pyasc-dev accepted, here accepted: z: 64/256 elements differ from numpy, first at [0]: here np.float64(75.0), numpy np.float64(-28.0)"""
import numpy as np

import asc

SPEC = {'op': 'copy', 'dtype': 'int32', 'form': 'register', 'register': {'len': 97, 'mode': 'COUNTER'}, 'mask': 64, 'repeat_times': 4, 'strides': [[4, 0], [1, 8]], 'call': [['mask', 'mask'], ['repeat_time', 'repeat_times'], ['repeat_params', 'params'], ['is_set_mask', 'is_set_mask']], 'is_set_mask': False}
EXPECT = 'accept'
HERE = 'reject'   # mask beyond the lanes of one repeat (mask (int)
FUZZ_SIGNATURE = 'numbers|copy|register|pyasc accepted: |here accepted: '
N = 256


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 1024, N)
    dst = asc.LocalTensor(asc.int32, asc.TPosition.VECOUT, 2048, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.CopyRepeatParams(4, 1, 0, 8)
    asc.set_mask_count()
    asc.set_vector_mask(97, dtype=asc.int32, mode=asc.MaskMode.COUNTER)
    asc.copy(dst, src0, mask=64, repeat_time=4, repeat_params=params, is_set_mask=False)
    asc.set_mask_norm()
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
