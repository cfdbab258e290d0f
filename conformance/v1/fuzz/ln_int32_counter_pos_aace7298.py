"""Found by the v1 differential fuzzer: numbers
    pyasc-dev accepted, here accepted: z: 4/256 elements differ from numpy, first at [1]: here np.float64(-2147483648.0), numpy np.float64(0.0)"""
import numpy as np

import asc

SPEC = {'op': 'ln', 'dtype': 'int32', 'form': 'counter', 'mask': 128, 'repeat_times': 4, 'strides': [[0, 0], [2, 16]], 'call': [[None, 'mask'], [None, 'repeat_times'], [None, 'params']]}
EXPECT = 'accept'
HERE = 'reject'   # element type the Ascend C instruction does not take
FUZZ_SIGNATURE = 'numbers|unary|counter|pyasc accepted: |here accepted: '
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
    params = asc.UnaryRepeatParams(0, 2, 0, 16)
    asc.set_mask_count()
    asc.ln(dst, src0, 128, 4, params)
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
