"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc 'No viable candidates ... vec_cmpsel()'; here 'compare: unexpected arguments ['calCount']'"""
import numpy as np

import asc

SPEC = {'op': 'compare', 'values': 'random', 'dtype': 'float32', 'form': 'count', 'count': 64, 'cmp': 'NE', 'call': [['calCount', 'count']]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = "message|compare|count|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()|here rejected: TypeError: compare: unexpected arguments  ['calCount']"


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 64)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, 64)
    src1 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256, 64)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 256)
    dst = asc.LocalTensor(asc.uint8, asc.TPosition.VECOUT, 512, 256)
    asc.data_copy(src, x_gm, 64)
    asc.data_copy(src1, y_gm, 64)
    asc.data_copy(dst, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.compare(dst, src, src1, asc.CMPMODE.NE, calCount=64)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 256)


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
