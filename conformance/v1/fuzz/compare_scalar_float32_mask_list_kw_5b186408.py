"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc 'No viable candidates ... vec_cmpsel()'; here 'compare_scalar: unexpected arguments ['params']'"""
import numpy as np

import asc

SPEC = {'op': 'compare_scalar', 'values': 'random', 'dtype': 'float32', 'form': 'mask_list', 'mask': [836], 'repeat_times': 2, 'cmp': 'LE', 'scalar': 3, 'strides': [[1, 8], [1, 8]], 'call': [['mask', 'mask'], ['repeat_times', 'repeat_times'], ['params', 'repeat_params']]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = "message|compare|mask_list|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()|here rejected: TypeError: compare_scalar: unexpected arguments  ['params']"


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 128)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 128)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 256)
    dst = asc.LocalTensor(asc.uint8, asc.TPosition.VECOUT, 512, 256)
    asc.data_copy(src, x_gm, 128)
    asc.data_copy(dst, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.UnaryRepeatParams(1, 1, 8, 8)
    asc.compare_scalar(dst, src, 3, asc.CMPMODE.LE, mask=[0x344], repeat_times=2, params=params)
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
