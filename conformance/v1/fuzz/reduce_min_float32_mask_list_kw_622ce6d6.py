"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: attempt to get argmin of an empty sequence"""
import numpy as np

import asc

SPEC = {'op': 'reduce_min', 'values': 'ties', 'dtype': 'float32', 'form': 'mask_list', 'mask': [1], 'repeat_times': 0, 'cal_index': False, 'src_rep': 8, 'call': [['mask', 'mask'], ['repeat_time', 'repeat_time'], ['src_rep_stride', 'src_rep_stride']]}
EXPECT = 'accept'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|reduce2|mask_list|pyasc accepted: |here rejected: ValueError: attempt to get argmin of an empty sequence'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 64)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, 64)
    tmp = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256, 64)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 64)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 512, 64)
    asc.data_copy(src, x_gm, 64)
    asc.data_copy(tmp, y_gm, 64)
    asc.data_copy(dst, z_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.reduce_min(dst, src, tmp, mask=[1], repeat_time=0, src_rep_stride=8)
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
