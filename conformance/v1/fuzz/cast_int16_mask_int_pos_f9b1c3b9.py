"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: /tmp/asc-v1fuzz-dyfoto9f/k96.py:24: cast: CAST_ODD rounds float32 to float16 only, not int16 to float32"""
import numpy as np

import asc

SPEC = {'op': 'cast', 'values': 'ties', 'dtype': 'int16', 'dst_dtype': 'float32', 'round': 'CAST_ODD', 'form': 'mask_int', 'mask': 63, 'repeat_times': 2, 'strides': [[1, 16], [0, 16]], 'call': [[None, 'mask'], [None, 'repeat_times'], [None, 'repeat_params']]}
EXPECT = 'accept'
HERE = 'reject'   # rounding mode the Ascend C conversion does not take
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|cast|mask_int|pyasc accepted: |here rejected: ValueError: cast: CAST_ODD rounds floatN to floatN only, not intN to floatN'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 384)
    src = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, 384)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 192)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 768, 192)
    asc.data_copy(src, x_gm, 384)
    asc.data_copy(dst, z_gm, 192)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.UnaryRepeatParams(1, 0, 16, 16)
    asc.cast(dst, src, asc.RoundMode.CAST_ODD, 63, 2, params)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 192)


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
