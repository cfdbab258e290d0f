"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: /tmp/asc-v1fuzz-_id8j7l_/k80.py:27: adds: the scalar -1.5 is not a int16 value ([-32768, 32767], whole)"""
import numpy as np

import asc

SPEC = {'op': 'adds', 'dtype': 'int16', 'form': 'count', 'scalar': -1.5, 'count': 1, 'call': [['count', 'count']]}
EXPECT = 'accept'
FUZZ_SIGNATURE = 'verdict|scalar|count|pyasc accepted: |here rejected: ValueError: adds: the scalar -N.N is not a intN value ([-N, N], whole)'
N = 128


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 256, N)
    dst = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 512, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(dst, src0, -1.5, count=1)
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
