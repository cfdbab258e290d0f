"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: TypeError: Unsupported value type for materialization: list"""
import numpy as np

import asc

SPEC = {'op': 'repeat_reduce_sum', 'values': 'random', 'dtype': 'float16', 'form': 'mask_list', 'mask': [102888, 8666980697361359], 'repeat_times': 0, 'src_blk': 3, 'src_rep': 4, 'dst_rep': 0, 'call': [['repeat_time', 'repeat_time'], ['mask', 'mask'], ['dst_blk_stride', 'dst_blk_stride'], ['src_blk_stride', 'src_blk_stride'], ['dst_rep_stride', 'dst_rep_stride'], ['src_rep_stride', 'src_rep_stride']]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|reduce|mask_list|pyasc rejected: CodegenError: TypeError: Unsupported value type for materialization: list|here accepted: '


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 128)
    src = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 128)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 128)
    dst = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 256, 128)
    asc.data_copy(src, x_gm, 128)
    asc.data_copy(dst, z_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.repeat_reduce_sum(dst, src, repeat_time=0, mask=[0x191e8, 0x1eca92b1bdcbcf], dst_blk_stride=1, src_blk_stride=3, dst_rep_stride=0, src_rep_stride=4)
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
