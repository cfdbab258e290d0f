"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: attempt to get argmax of an empty sequence"""
import numpy as np

import asc

SPEC = {'op': 'reduce_max', 'values': 'random', 'dtype': 'float16', 'form': 'mask_list', 'mask': [18446744073709551615, 0], 'repeat_times': 0, 'cal_index': False, 'src_rep': 2, 'call': [[None, 'mask'], [None, 'repeat_time'], [None, 'src_rep_stride']]}
EXPECT = 'accept'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|reduce2|mask_list|pyasc accepted: |here rejected: ValueError: attempt to get argmax of an empty sequence'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 128)
    src = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 128)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, 128)
    tmp = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 256, 128)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 128)
    dst = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 512, 128)
    asc.data_copy(src, x_gm, 128)
    asc.data_copy(tmp, y_gm, 128)
    asc.data_copy(dst, z_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.reduce_max(dst, src, tmp, [0xffffffffffffffff, 0], 0, 2)
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
