"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: /tmp/asc-v1fuzz-_id8j7l_/k115.py:29: shift_right: the scalar -1.5 is not a int32 value ([-2147483648, 2147483647], whole)"""
import numpy as np

import asc

SPEC = {'op': 'shift_right', 'dtype': 'int32', 'form': 'counter', 'scalar': -1.5, 'mask': 65, 'repeat_times': 0, 'strides': [[0, 4], [2, 4]], 'call': [[None, 'mask'], [None, 'repeat_times'], [None, 'params']]}
EXPECT = 'accept'
HERE = 'reject'   # shift beyond the element's bits (Ascend C's ShiftLeft / ShiftRight
FUZZ_SIGNATURE = 'verdict|scalar|counter|pyasc accepted: |here rejected: ValueError: shift_right: the scalar -N.N is not a intN value ([-N, N], whole)'
N = 128


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 512, N)
    dst = asc.LocalTensor(asc.int32, asc.TPosition.VECOUT, 1024, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.UnaryRepeatParams(0, 2, 4, 4)
    asc.set_mask_count()
    asc.shift_right(dst, src0, -1.5, 65, 0, params)
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
