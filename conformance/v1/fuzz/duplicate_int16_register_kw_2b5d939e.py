"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: TypeError: set_vector_mask() missing 1 required keyword-only argument: 'mode'"""
import numpy as np

import asc

SPEC = {'op': 'duplicate', 'dtype': 'int16', 'form': 'register', 'scalar': 2.0, 'register': {'high': 2147483647, 'low': 3529, 'mode': None}, 'mask': 0, 'repeat_times': 4, 'strides': [[2, 0]], 'call': [['mask', 'mask'], ['repeat_times', 'repeat_times'], ['dst_block_stride', 'dst_blk'], ['dst_repeat_stride', 'dst_rep'], ['is_set_mask', 'is_set_mask']], 'is_set_mask': False}
EXPECT = 'reject'
FUZZ_SIGNATURE = "verdict|duplicate|register|pyasc rejected: CodegenError: TypeError: set_vector_mask() missing N required keyword-only argument: 'mode'|here accepted: "
N = 256


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 512, N)
    dst = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 1024, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_vector_mask(0x7fffffff, 0xdc9, dtype=asc.int16)
    asc.duplicate(dst, 2.0, mask=0, repeat_times=4, dst_block_stride=2, dst_repeat_stride=0, is_set_mask=False)
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
