"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()"""
import numpy as np

import asc

SPEC = {'op': 'select', 'values': 'ties', 'dtype': 'float32', 'form': 'count', 'count': 285, 'call': [['src1', 'src1'], ['sel_mode', 'sel_mode'], ['count', 'count']], 'sel_mode': 1, 'scalar': 3}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|select|count|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()|here accepted: '


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 320)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 320)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w, 256)
    sel = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 1280, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 320)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 1536, 320)
    asc.data_copy(src, x_gm, 320)
    asc.data_copy(sel, w_gm, 256)
    asc.data_copy(dst, z_gm, 320)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.select(dst, sel, src, src1=3, sel_mode=asc.SelMode.VSEL_TENSOR_SCALAR_MODE, count=285)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 320)


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
