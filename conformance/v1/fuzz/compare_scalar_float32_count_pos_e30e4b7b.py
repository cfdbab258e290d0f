"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: /tmp/asc-v1fuzz-dyfoto9f/k225.py:23: compare_scalar: count 46 of float32 is 184 bytes, not a multiple of 256 (the count form co"""
import numpy as np

import asc

SPEC = {'op': 'compare_scalar', 'values': 'edges', 'dtype': 'float32', 'form': 'count', 'count': 46, 'call': [[None, 'count']], 'cmp': 'LE', 'scalar': 0.5}
EXPECT = 'accept'
HERE = 'reject'   # count form of whole repeats (Compare's count form
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|compare|count|pyasc accepted: |here rejected: ValueError: compare_scalar: count N of floatN is N bytes, not a multiple of N (the count form compares whole repeats)'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 64)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 256)
    dst = asc.LocalTensor(asc.uint8, asc.TPosition.VECOUT, 256, 256)
    asc.data_copy(src, x_gm, 64)
    asc.data_copy(dst, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.compare_scalar(dst, src, 0.5, asc.CMPMODE.LE, 46)
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
