"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc 'RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_duplicate()'; here 'ValueError: /tmp/asc-v1fuzz-_id8j7l_/k237.py:27: dup"""
import numpy as np

import asc

SPEC = {'op': 'duplicate', 'dtype': 'int16', 'form': 'mask_list', 'scalar': 0.5, 'mask': [0, 177], 'repeat_times': 0, 'strides': [[1, 4]], 'call': [['mask', 'mask'], ['repeat_time', 'repeat_times'], ['dst_block_stride', 'dst_blk'], ['dst_repeat_stride', 'dst_rep']]}
EXPECT = 'reject'
FUZZ_SIGNATURE = 'message|duplicate|mask_list|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_duplicate()|here rejected: ValueError: duplicate: the scalar N.N is not a intN value ([-N, N], whole)'
N = 128


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 256, N)
    dst = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 512, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.duplicate(dst, 0.5, mask=[0, 177], repeat_time=0, dst_block_stride=1, dst_repeat_stride=4)
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
