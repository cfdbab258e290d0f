"""August kernels get pyasc-dev's wording of front-end errors (its tiles are tensors, type errors name
the argument and the bare class); April kernels keep the April texts of asc2-api.md."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError

from kernel_checks import assert_reported

F16 = np.zeros((16, 16), np.float16)


def launch(kernel):
    kernel[1](F16, F16.copy())


@asctile.jit
def two_scalars(x_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress):
    asctile.copy_out(asctile.add(1, 2), asctile.global_tensor(o_ptr, [16, 16]), [0, 0])


@asc2.jit
def two_scalars_april(x_ptr: asc.GlobalAddress, o_ptr: asc.GlobalAddress):
    asc2.store(asc2.add(1, 2), asc2.tensor(o_ptr, [16, 16]), offsets=[0, 0])


def test_a_binary_op_on_two_scalars_says_tensor_in_august_and_tile_in_april():
    with pytest.raises(CodegenError, match="At least one operand must be tensor, got <class 'int'>") as e:
        launch(two_scalars)
    assert_reported(e.value, "must be tensor", "asctile.copy_out(asctile.add(1, 2)")
    with pytest.raises(CodegenError, match="At least one operand must be tile, got <class 'int'>") as e:
        launch(two_scalars_april)
    assert_reported(e.value, "must be tile", "asc2.store(asc2.add(1, 2)")


def _kernel(body):
    src = f'''
@asctile.jit
def k(x_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress):
    x = asctile.global_tensor(x_ptr, [16, 16])
    o = asctile.global_tensor(o_ptr, [16, 16])
    h = asctile.copy_in(x, [0, 0], [16, 16])
    {body}
'''
    return src


CASES = [
    ("asctile.copy_out(asctile.matmul(1, h), o, [0, 0])", "BinaryOperandTypeError",
     "'input' argument must be LocalTensor, got int"),
    ("asctile.copy_out(asctile.matmul(h, 2.0), o, [0, 0])", "BinaryOperandTypeError",
     "'other' argument must be LocalTensor, got float"),
    ("asctile.copy_out(asctile.matmul(h, h.to(asctile.float32)), o, [0, 0])", "RuntimeError",
     "Input tensors must have the same types, got float16 and float32"),
    ("asctile.copy_out(asctile.matmul(h.reshape(2, 8, 16), h), o, [0, 0])", "RuntimeError",
     "Input tensors must have two dims, got 3 and 2"),
    ("asctile.copy_out(asctile.matmul(h.to(asctile.int16), h.to(asctile.int16)), o, [0, 0])", "RuntimeError",
     "'input' dtype must be one of float16, bfloat16, float32, got int16"),
    ("asctile.matmul_acc(asctile.zeros_acc([256], asctile.float32), h, h)", "RuntimeError",
     "Accumulation tensor must have two dims, got 1"),
    ("asctile.copy(3, [0, 0], [16, 16])", "TypeError", "'src' argument must be LocalTensor, got int"),
    ("asctile.copy_in(h, [0, 0], [16, 16])", "TypeError", "'src' argument must be GlobalTensor, got LocalTensor"),
    ("asctile.copy_out(asctile.where(1, h, h), o, [0, 0])", "TypeError", "'mask' argument must be LocalTensor, got int"),
    ("asctile.copy_out(asctile.reduce_sum(3, 0), o, [0, 0])", "TypeError", "'input' argument must be LocalTensor, got int"),
    ("asctile.copy_out(asctile.reduce_sum(h, 5), o, [0, 0])", "RuntimeError",
     "All reduction dimensions must be between 0 and 1"),
    ("asctile.copy_out(h.broadcast_to(32, 32), o, [0, 0])", "RuntimeError",
     "Cannot broadcast tensor with shape (16, 16) to (32, 32)"),
    ("asctile.copy_out(asctile.concat([h, 1]), o, [0, 0])", "TypeError", "All input arguments must be tensors"),
    ("asctile.global_tensor(x_ptr, [16, 16], l2_cache=1)", "TypeError", "'l2_cache' argument must be bool, got int"),
]


@pytest.mark.parametrize("body, exc, message", CASES)
def test_august_messages_are_pyasc_devs(body, exc, message, tmp_path):
    path = tmp_path / "kernel_text_case.py"
    path.write_text("import numpy as np\nfrom asc.experimental import asctile\n" + _kernel(body))
    import importlib.util
    spec = importlib.util.spec_from_file_location("kernel_text_case", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with pytest.raises(CodegenError) as e:
        launch(mod.k)
    text = str(e.value)
    assert f"{exc}: {message}" in text, text
    assert body.split("(")[0] in text  # the user's line is shown
