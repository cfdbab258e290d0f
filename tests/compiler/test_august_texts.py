"""August kernels get pyasc-dev's wording of front-end errors (its tiles are tensors, type errors name
the argument and the bare class); April kernels keep the April texts of asc2-api.md."""
from __future__ import annotations

import re

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
    # texts built from facts the April message does not state
    ("asctile.copy_out(h.reshape(8, 16), o, [0, 0])", "RuntimeError",
     "Reshaping tensor of shape (16, 16) with 256 elements not match output shape (8, 16) with 128 elements"),
    ("asctile.copy_out(h.reshape([512]), o, [0, 0])", "RuntimeError",
     "Reshaping tensor of shape (16, 16) with 256 elements not match output shape (512,) with 512 elements"),
    ("asctile.copy_out(asctile.softmax(h.to(asctile.int16)), o, [0, 0])", "RuntimeError",
     "'input' dtype must be one of float16, float32, got int16"),
    ("asctile.copy_out(asctile.rms_norm(h.to(asctile.int16), h, 1e-5), o, [0, 0])", "RuntimeError",
     "'input' dtype must be one of float16, float32, got int16"),
    ("asctile.copy_out(h.to(3), o, [0, 0])", "RuntimeError",
     "No viable candidates were found to dispatch asctile.LocalTensor.to()\nProvided arguments:\n  (..., int, )\n"
     "Registered candidates:\n  1. def asctile.LocalTensor.to(..., dtype: DataType, round_mode: asctile_RoundMode "
     "= <asctile_RoundMode.Default: 100>) -> Optional[Any]: ...\n  2. def asctile.LocalTensor.to(..., location: "
     "Union[TensorLocation, str]) -> Optional[Any]: ..."),
    ("asctile.copy_out(h.to(asctile.float32, round_mode=1), o, [0, 0])", "RuntimeError",
     "No viable candidates were found to dispatch asctile.LocalTensor.to()\nProvided arguments:\n"
     "  (..., DataType, round_mode: int)\n"),
    ("asctile.copy_out(h.to(dtype=h), o, [0, 0])", "RuntimeError",
     "No viable candidates were found to dispatch asctile.LocalTensor.to()\nProvided arguments:\n"
     "  (..., , dtype: LocalTensor)\n"),
    ("asctile.copy_out(h.to('float16'), o, [0, 0])", "ValueError", "float16 does not match a valid TensorLocation name"),
    ("asctile.copy_out(asctile.cast(h, 'float32'), o, [0, 0])", "TypeError", "'dtype' argument must be DataType, got str"),
    ("asctile.copy_out(asctile.cast(h, asctile.float32, 3), o, [0, 0])", "TypeError",
     "'round_mode' argument must be RoundMode, got int"),
    ("asctile.copy_out(x, o, [0, 0])", "TypeError",
     "'src' argument must be (<class 'asc.experimental.asctile.language.local_tensor.LocalTensor'>, "
     "typing.Union[asc.language.core.ir_value.PlainValue, int, float]), got GlobalTensor"),
    ("asctile.matmul_acc(0.0, h, h)", "TypeError", "'acc' argument must be LocalTensor, got float"),
    ("asctile.matmul_acc(h, h, 0.0)", "RuntimeError", "'acc' dtype must be float32, got float16"),
    ("asctile.matmul_acc(asctile.zeros_acc([16, 16], asctile.float32), 1, h)", "BinaryOperandTypeError",
     "'input' argument must be LocalTensor, got int"),
]


def _launch_failing(tmp_path, name, source, body, exc, message, line):
    """Launch kernel ``k`` of ``source`` (written to a file, as a user's kernel is); returns the error report
    after checking it gives ``exc: message`` and marks ``body`` at ``line``."""
    import importlib.util
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with pytest.raises(CodegenError) as e:
        launch(mod.k)
    text = str(e.value)
    assert f"{exc}: {message}" in text, text
    assert re.search(rf"^  >\s+{line} \|     {re.escape(body)}$", text, re.M), text  # the user's line is marked
    return text


@pytest.mark.parametrize("body, exc, message", CASES)
def test_august_messages_are_pyasc_devs(body, exc, message, tmp_path):
    text = _launch_failing(tmp_path, "kernel_text_case", "import numpy as np\nfrom asc.experimental import asctile\n"
                           + _kernel(body), body, exc, message, 9)
    assert len([line for line in text.splitlines() if line.startswith("hint: ")]) == 1, text


def _april_kernel(body):
    return f'''
@asc2.jit
def k(x_ptr: asc.GlobalAddress, o_ptr: asc.GlobalAddress):
    x = asc2.tensor(x_ptr, [16, 16])
    o = asc2.tensor(o_ptr, [16, 16])
    h = asc2.load(x, [16, 16], offsets=[0, 0])
    {body}
'''


APRIL_CASES = [
    ("asc2.store(h.reshape(8, 16), o, offsets=[0, 0])", "RuntimeError",
     "Result tile must have the same number of elements as input tile"),
    ("asc2.store(asc2.softmax(h.to(asc.int16)), o, offsets=[0, 0])", "RuntimeError",
     "Only float and half types are supported."),
    ("asc2.store(h.to(3), o, offsets=[0, 0])", "TypeError", "Tile.to expects an asc dtype (e.g. asc.float32), got 3"),
    ("asc2.store(h.to(asc2.TileLocation.L1), o, offsets=[0, 0])", "TypeError",
     "Tile.to expects an asc dtype (e.g. asc.float32), got TileLocation.L1"),
]


@pytest.mark.parametrize("body, exc, message", APRIL_CASES)
def test_april_kernels_keep_the_april_texts(body, exc, message, tmp_path):
    _launch_failing(tmp_path, "kernel_april_case", "import numpy as np\nimport asc\nimport asc2\n" + _april_kernel(body),
                    body, exc, message, 10)