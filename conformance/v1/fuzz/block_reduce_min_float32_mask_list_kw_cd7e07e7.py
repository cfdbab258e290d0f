"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc: unexpected keyword argument 'repeat_time'; here: missing required argument 'repeat'"""
import numpy as np

import asc

SPEC = {'op': 'block_reduce_min', 'values': 'ties', 'dtype': 'float32', 'form': 'mask_list', 'mask': [18446744073709551615], 'repeat_times': 6, 'src_blk': 1, 'src_rep': 2, 'dst_rep': 0, 'call': [['repeat_time', 'repeat'], ['mask', 'mask'], ['dst_rep_stride', 'dst_rep_stride'], ['src_blk_stride', 'src_blk_stride'], ['src_rep_stride', 'src_rep_stride']]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = "message|reduce|mask_list|pyasc rejected: CodegenError: TypeError: block_reduce_min() got an unexpected keyword argument 'repeat_time'|here rejected: TypeError: block_reduce_min() missing required argument 'repeat'"


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 192)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 192)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 64)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 768, 64)
    asc.data_copy(src, x_gm, 192)
    asc.data_copy(dst, z_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.block_reduce_min(dst, src, repeat_time=6, mask=[0xffffffffffffffff], dst_rep_stride=0, src_blk_stride=1, src_rep_stride=2)
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
