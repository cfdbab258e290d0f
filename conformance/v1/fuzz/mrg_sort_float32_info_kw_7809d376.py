"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: /tmp/asc-v1fuzz-jnl7koe2/k113.py:24: mrg_sort: valid_bit 0b1111 names 4 lists, the MrgSortSrcList has 3"""
import numpy as np

import asc

SPEC = {'op': 'mrg_sort', 'values': 'edges', 'dtype': 'float32', 'form': 'info', 'counts': [11, 0, 14], 'suspend': False, 'pad_counts': 1, 'call': [], 'valid': 15}
EXPECT = 'accept'
HERE = 'reject'   # kept on purpose: DIFFERS
DIFFERS = ('valid_bit names a list the MrgSortSrcList does not hold: upstream emits a merge that reads a '
           'list it never set, this engine refuses it')
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|sort|info|pyasc accepted: |here rejected: ValueError: mrg_sort: valid_bit NbN names list N, the MrgSortSrcList has N'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 128)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 128)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 128)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 512, 128)
    asc.data_copy(src, x_gm, 128)
    asc.data_copy(dst, z_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    lists = asc.MrgSortSrcList(asc.float32, src, src[32:], src[64:])
    asc.mrg_sort(dst, lists, asc.MrgSort4Info([11, 0, 14, 0], False, 15, 1))
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 128)


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
