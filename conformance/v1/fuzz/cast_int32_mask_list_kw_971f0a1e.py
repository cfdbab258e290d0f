"""Found by the v1 differential fuzzer: numbers
    pyasc-dev accepted, here accepted: zbytes: 8/2304 elements differ from numpy, first at [1052]: here np.float64(0.0), numpy np.float64(255.0)"""
import numpy as np

import asc

SPEC = {'op': 'cast', 'values': 'edges', 'dtype': 'int32', 'dst_dtype': 'float32', 'round': 'CAST_TRUNC', 'form': 'mask_list', 'mask': [9223372036854775808], 'repeat_times': 5, 'strides': [[0, 16], [0, 4]], 'call': [['mask', 'mask'], ['repeat_times', 'repeat_times'], ['repeat_params', 'repeat_params']]}
EXPECT = 'accept'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'numbers|cast|mask_list|pyasc accepted: |here accepted: '


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 192)
    src = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 192)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 576)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 768, 576)
    asc.data_copy(src, x_gm, 192)
    asc.data_copy(dst, z_gm, 576)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.UnaryRepeatParams(0, 0, 16, 4)
    asc.cast(dst, src, asc.RoundMode.CAST_TRUNC, mask=[0x8000000000000000], repeat_times=5, repeat_params=params)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 576)


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
