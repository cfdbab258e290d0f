"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: TypeError: set_vector_mask() missing 1 required keyword-only argument: 'mode'"""
import numpy as np

import asc

SPEC = {'op': 'sub', 'dtype': 'float32', 'form': 'register', 'register': {'len': 22, 'mode': None}, 'mask': 64, 'repeat_times': 4, 'strides': [[1, 5], [2, 8], [2, 16]], 'call': [[None, 'mask'], [None, 'repeat_times'], [None, 'params'], [None, 'is_set_mask']], 'is_set_mask': False}
EXPECT = 'reject'
FUZZ_SIGNATURE = "verdict|binary|register|pyasc rejected: CodegenError: TypeError: set_vector_mask() missing N required keyword-only argument: 'mode'|here accepted: "
N = 448


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 1792, N)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 3584, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(1, 2, 2, 5, 8, 16)
    asc.set_vector_mask(22, dtype=asc.float32)
    asc.sub(dst, src0, src1, 64, 4, params, False)
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
