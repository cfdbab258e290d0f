"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: /tmp/asc-v1fuzz-_id8j7l_/k21.py:27: axpy: the scalar -1.5 is not a int32 value ([-2147483648, 2147483647], whole)"""
import numpy as np

import asc

SPEC = {'op': 'axpy', 'dtype': 'int32', 'form': 'count', 'scalar': -1.5, 'count': 246, 'call': [[None, 'count']]}
EXPECT = 'accept'
HERE = 'reject'   # element type the Ascend C instruction does not take
FUZZ_SIGNATURE = 'verdict|axpy|count|pyasc accepted: |here rejected: ValueError: axpy: the scalar -N.N is not a intN value ([-N, N], whole)'
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
    asc.axpy(dst, src0, -1.5, 246)
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
