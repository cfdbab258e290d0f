"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: TypeError: copy() missing 1 required positional argument: 'repeat_params'"""
import numpy as np

import asc

SPEC = {'op': 'copy', 'dtype': 'float16', 'form': 'register', 'register': {'high': 0, 'low': 18446744073709551615, 'mode': 'NORMAL'}, 'mask': 0, 'repeat_times': 1, 'strides': [[1, 8], [1, 8]], 'call': [[None, 'mask'], [None, 'repeat_times'], ['is_set_mask', 'is_set_mask']], 'is_set_mask': False}
EXPECT = 'reject'
FUZZ_SIGNATURE = "verdict|copy|register|pyasc rejected: CodegenError: TypeError: copy() missing N required positional argument: 'repeat_params'|here accepted: "
N = 128


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 256, N)
    dst = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 512, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_vector_mask(0x0, 0xffffffffffffffff, dtype=asc.float16, mode=asc.MaskMode.NORMAL)
    asc.copy(dst, src0, 0, 1, is_set_mask=False)
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
