"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc 'No viable candidates were found to dispatch cast()'; here 'cast: CAST_ODD rounds float32 to float16 only'"""
import numpy as np

import asc

SPEC = {'op': 'cast', 'values': 'ties', 'dtype': 'int32', 'dst_dtype': 'float32', 'round': 'CAST_ODD', 'form': 'mask_list', 'mask': [49], 'repeat_times': 1, 'strides': [[1, 8], [1, 8]], 'call': [['mask', 'mask'], ['repeat_times', 'repeat_times'], ['params', 'repeat_params']]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'message|cast|mask_list|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch cast()|here rejected: ValueError: cast: CAST_ODD rounds floatN to floatN only, not intN to floatN'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 64)
    src = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 64)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 64)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)
    asc.data_copy(src, x_gm, 64)
    asc.data_copy(dst, z_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.UnaryRepeatParams(1, 1, 8, 8)
    asc.cast(dst, src, asc.RoundMode.CAST_ODD, mask=[49], repeat_times=1, params=params)
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
