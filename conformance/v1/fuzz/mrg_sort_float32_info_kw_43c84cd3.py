"""Found by the v1 differential fuzzer: numbers
    pyasc-dev accepted, here accepted: the second repeat's records written right after the first's (suspension stopped it short), not the lists' total further on"""
import numpy as np

import asc

SPEC = {'op': 'mrg_sort', 'values': 'ties', 'dtype': 'float32', 'form': 'info', 'repeat_times': 2, 'counts': [16, 16, 16, 16], 'suspend': True, 'pad_counts': 0, 'call': [], 'valid': 15}
EXPECT = 'accept'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'numbers|sort|info|pyasc accepted: |here accepted: '


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 256)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 256)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 1024, 256)
    asc.data_copy(src, x_gm, 256)
    asc.data_copy(dst, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    lists = asc.MrgSortSrcList(asc.float32, src, src[32:], src[64:], src[96:])
    asc.mrg_sort(dst, lists, asc.MrgSort4Info([16, 16, 16, 16], True, 15, 2))
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 256)


def run():
    arrays = inputs()
    arrays["z0"] = arrays["z"].copy()
    arrays.setdefault("w", np.zeros(4, np.int64))
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
