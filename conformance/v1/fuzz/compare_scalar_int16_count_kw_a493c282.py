"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: compare_scalar: the scalar 0.5 is not a int16 value"""
import numpy as np

import asc

SPEC = {'op': 'compare_scalar', 'values': 'ties', 'dtype': 'int16', 'form': 'count', 'count': 384, 'cmp': 'EQ', 'scalar': 0.5, 'call': [['count', 'count']]}
EXPECT = 'accept'
HERE = 'reject'   # element type the Ascend C instruction does not take
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|compare|count|pyasc accepted: |here rejected: ValueError: compare_scalar: the scalar N.N is not a intN value ([-N, N], whole)'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 384)
    src = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, 384)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 256)
    dst = asc.LocalTensor(asc.uint8, asc.TPosition.VECOUT, 768, 256)
    asc.data_copy(src, x_gm, 384)
    asc.data_copy(dst, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.compare_scalar(dst, src, 0.5, asc.CMPMODE.EQ, count=384)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 256)


def run():
    arrays = inputs()
    arrays["z0"] = arrays["z"].copy()
    arrays["w"] = np.zeros(4, np.int64)
    kernel[1](arrays["x"], arrays.get("y", arrays["x"]), arrays["z"], arrays["w"])
    arrays["zbytes"] = arrays["z"].view(np.uint8)
    arrays["kept"] = arrays["w"][:1]
    return arrays


def inputs():
    from v1_families import inputs as make  # the driver puts the conform directory on sys.path
    return make(SPEC)


def reference(arrays):
    from v1_families import reference as ref
    return ref(SPEC, arrays)
