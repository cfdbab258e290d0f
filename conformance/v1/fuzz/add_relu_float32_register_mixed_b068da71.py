"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc "TypeError: set_vector_mask() missing 1 required keyword-only argument: 'mode'"; here 'TypeError: /tmp/asc-v1fuzz-fw_45vr4/k360.py:28: add_relu: the mask """
import numpy as np

import asc

SPEC = {'op': 'add_relu', 'dtype': 'float32', 'form': 'register', 'register': {'high': 0, 'low': 255, 'mode': None}, 'mask': 0, 'repeat_times': 0, 'strides': [[4, 8], [2, 4], [2, 4]], 'call': [[None, 'mask'], [None, 'repeat_times'], ['is_set_mask', 'is_set_mask']], 'is_set_mask': False}
EXPECT = 'reject'
FUZZ_SIGNATURE = "message|binary|register|pyasc rejected: CodegenError: TypeError: set_vector_mask() missing N required keyword-only argument: 'mode'|here rejected: TypeError: add_relu: the mask form needs mask, repeat_times and repeat_params (no overload of it takes the mask form wit"
N = 64


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256, N)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 512, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_vector_mask(0x0, 0xff, dtype=asc.float32)
    asc.add_relu(dst, src0, src1, 0, 0, is_set_mask=False)
    asc.reset_mask()
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
