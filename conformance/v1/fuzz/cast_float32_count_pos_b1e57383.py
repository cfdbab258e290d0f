"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: /tmp/asc-v1fuzz-2xsqnxam/k927.py:23: cast float32 to float32 rounds to an integer value: CAST_NONE is not a mode of it"""
import numpy as np

import asc

SPEC = {'op': 'cast', 'values': 'edges', 'dtype': 'float32', 'dst_dtype': 'float32', 'round': 'CAST_NONE', 'form': 'count', 'count': 64, 'call': [[None, 'count']]}
EXPECT = 'accept'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|cast|count|pyasc accepted: |here rejected: ValueError: cast floatN to floatN rounds to an integer value: CAST_NONE is not a mode of it'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 64)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 64)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)
    asc.data_copy(src, x_gm, 64)
    asc.data_copy(dst, z_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.cast(dst, src, asc.RoundMode.CAST_NONE, 64)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 64)


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
