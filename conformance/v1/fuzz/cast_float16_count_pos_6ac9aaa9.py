"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: /tmp/asc-v1fuzz-dyfoto9f/k100.py:23: cast: CAST_ODD rounds float32 to float16 only, not float16 to int16"""
import numpy as np

import asc

SPEC = {'op': 'cast', 'values': 'edges', 'dtype': 'float16', 'dst_dtype': 'int16', 'round': 'CAST_ODD', 'form': 'count', 'count': 1, 'call': [[None, 'count']]}
EXPECT = 'accept'
HERE = 'reject'   # rounding mode the Ascend C conversion does not take
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|cast|count|pyasc accepted: |here rejected: ValueError: cast: CAST_ODD rounds floatN to floatN only, not floatN to intN'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 128)
    src = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 128)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 128)
    dst = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 256, 128)
    asc.data_copy(src, x_gm, 128)
    asc.data_copy(dst, z_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.cast(dst, src, asc.RoundMode.CAST_ODD, 1)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 128)


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
