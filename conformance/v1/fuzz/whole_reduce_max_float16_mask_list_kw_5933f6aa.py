"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc: unexpected keyword argument 'dst_repeat_stride'; here: missing required argument 'dst_rep_stride'"""
import numpy as np

import asc

SPEC = {'op': 'whole_reduce_max', 'values': 'random', 'dtype': 'float16', 'form': 'mask_list', 'mask': [726], 'repeat_times': 3, 'src_blk': 1, 'src_rep': 16, 'dst_rep': 1, 'order': 'ORDER_VALUE_INDEX', 'call': [['mask', 'mask'], ['repeat_time', 'repeat_time'], ['dst_repeat_stride', 'dst_rep_stride'], ['src_blk_stride', 'src_blk_stride'], ['src_rep_stride', 'src_rep_stride'], ['order', 'order']]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = "message|reduce|mask_list|pyasc rejected: CodegenError: TypeError: whole_reduce_max() got an unexpected keyword argument 'dst_repeat_stride'|here rejected: TypeError: whole_reduce_max() missing required argument 'dst_rep_stride'"


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 640)
    src = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 640)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 128)
    dst = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 1280, 128)
    asc.data_copy(src, x_gm, 640)
    asc.data_copy(dst, z_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.whole_reduce_max(dst, src, mask=[0x2d6], repeat_time=3, dst_repeat_stride=1, src_blk_stride=1, src_rep_stride=16, order=asc.ReduceOrder.ORDER_VALUE_INDEX)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 128)


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
