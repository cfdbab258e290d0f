"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc 'RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()'; here 'TypeError: /tmp/asc-v1fuzz-hoyebdw9/k208.py:28: select:"""
import numpy as np

import asc

SPEC = {'op': 'select', 'values': 'edges', 'dtype': 'float32', 'form': 'mask_list', 'mask': [9223372036854775809], 'repeat_times': 4, 'sel_mode': 1, 'scalar': 0.5, 'call': [['src1', 'src1'], ['sel_mode', 'sel_mode'], ['mask', 'mask'], ['repeat_times', 'repeat_times'], ['params', 'repeat_params']], 'strides': [[1, 16], [1, 16], [1, 8]]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'message|select|mask_list|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()|here rejected: TypeError: select: VSEL_TENSOR_SCALAR_MODE takes a scalar srcN, got a LocalTensor'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 448)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 448)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w, 256)
    sel = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 1792, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 448)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2048, 448)
    asc.data_copy(src, x_gm, 448)
    asc.data_copy(sel, w_gm, 256)
    asc.data_copy(dst, z_gm, 448)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(1, 1, 1, 16, 16, 8)
    asc.select(dst, sel, src, src1=0.5, sel_mode=asc.SelMode.VSEL_TENSOR_SCALAR_MODE, mask=[0x8000000000000001], repeat_times=4, params=params)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 448)


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
