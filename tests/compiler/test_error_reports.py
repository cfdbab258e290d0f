"""Every trace-time mistake is reported with pyasc's message, the user's file:line:column and source line, and a
one-line fix hint. One kernel per error site of the op library and the frontend."""
from __future__ import annotations

import linecache
import re

import numpy as np
import pytest

import asc
import asc2
from asc.frontend.errors import CodegenError

from kernel_checks import location

PRELUDE = (
    "def kern(x_ptr, i_ptr, n: int, f: float):\n"
    "    xg = asc2.tensor(x_ptr, [4, 64])\n"
    "    ig = asc2.tensor(i_ptr, [4, 64])\n"
    "    x = asc2.load(xg, [4, 64], offsets=[0, 0])\n"
    "    xi = asc2.load(ig, [4, 64], offsets=[0, 0])\n"
    "    a = asc2.load(asc2.tensor(x_ptr, [8, 32]), [8, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)\n"
    "    b = asc2.load(asc2.tensor(x_ptr, [32, 8]), [32, 8], offsets=[0, 0], location=asc2.TileLocation.L0B)\n"
)

CASES = [
    # frontend
    ("v = 2 * x", "'Tile' object has no attribute '__rmul__'"),
    ("v = x ** 2", "unsupported operand type(s) for ** on a Tile"),
    ("v = x % 2", "unsupported operand type(s) for % on a Tile"),
    ("v = ~x", "bad operand type for unary ~: 'Tile'"),
    ("v = x[0]", "'Tile' object is not subscriptable"),
    ("v = 1.0 if n > 0 else 1", "Conditional operator has inconsistent result types: float32 / int32"),
    ("v = x if n > 0 else x", "Conditional operator must have numeric result type"),
    ("if x:\n        pass", "Condition expression must be evaluated as PlainValue"),
    ("for i in range(f):\n        pass", "Loop bounds must be integers, got float32"),
    ("v = not x", "`not` cannot be applied to a tile"),
    ("v = n ** 2", "Power operator is not supported for scalars"),
    ("v = ~n", "Invert operator is not supported for scalars"),
    ("v = f % 2", "Binary operation is not supported between PlainValue(dtype=float32, handle=...) and "
                  "PlainValue(dtype=float32, handle=...)"),
    ("assert n > 1", "An assertion turned out to test a runtime value"),
    ("return x", "JIT kernel function cannot return objects"),
    # shapes and dtypes
    ("v = asc2.load(xg, [4, 10], offsets=[0, 0])", "Last dimension of tile must be aligned by 32 bytes, got 10 x 4 bytes"),
    ("v = asc2.load(xg, [n, 64], offsets=[0, 0])", "All values in 'shape' must be integers"),
    ("v = asc2.load(xg, [64], offsets=[0, 0])", "rank of 'tensor_shape' must match rank of 'shape'"),
    ("v = asc2.load(xg, [4, 64], offsets=[0])", "needs one value per tensor dimension"),
    ("v = asc2.load(xg, [4, 64])", "Exactly one of 'tile_id' or 'offsets' must be provided"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], location=1)", "'location' must be an asc2.TileLocation"),
    ("v = asc2.load(xg)", "'offsets' argument must be provided"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], real_shape=4)", "'real_shape' must be a list of ints, got <class 'int'>"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], real_shape=[4])",
     "'real_shape' needs one value per dimension: got 1 for a rank-2 tile"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], real_shape=[5, 64])",
     "real_shape[5] (which is (5, 64)) exceeds tensor dimension #4 (which is (4, 64))"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], real_shape=[4, 65])",
     "real_shape[65] (which is (4, 65)) exceeds tensor dimension #64 (which is (4, 64))"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], real_shape=[-1, 64])",
     "real_shape[-1] (which is (-1, 64)) exceeds tensor dimension #4 (which is (4, 64))"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], location=asc2.TileLocation.L1, real_shape=[4, 64])",
     "real_shape is not supported for loads into L1"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], location=asc2.TileLocation.BT)",
     "a BT (bias table) tile holds one row of float16 / bfloat16 / float32 values"),
    ("asc2.store(1.0, xg, offsets=[0, 0], real_shape=[1, 1])", "'real_shape' cannot be used when storing a scalar value"),
    ("asc2.store(1.0, xg, offsets=[0])", "rank of 'tensor_shape' must match rank of 'offsets'"),
    ("asc2.store(x, ig, offsets=[0, 0])", "failed to verify that all of {base, value} have same element type"),
    ("asc2.store(1.0, xg, tile_id=[0, 0])", "'tile_id' argument cannot be used when storing a scalar value"),
    ("v = x.to(asc.float16).to(asc.int16) + x", "Unable to infer common dtype between int16 and float32"),
    ("v = x.to(asc.int32, round_mode=1)", "'round_mode' argument must be RoundMode, got int"),
    ("v = xi.to(asc.float16)", "Tile.to from int32 to float16 (an int<->float cast between different bit widths)"),
    ("v = x + x.reshape(64, 4)", "Shape mismatch: [4, 64] vs. [64, 4]"),
    ("v = (x > 0) + x", "Unable to infer common dtype between int1 and float32"),
    ("v = asc2.add(x, 'a')", "Operand of type <class 'str'> is not supported"),
    ("v = asc2.add(1, 2)", "At least one operand must be tile"),
    ("v = asc2.left_shift(xi, -1)", "Left shift requires positive integer operand, got -1"),
    ("v = xi << -1", "unsupported operand type(s) for <<"),
    ("v = x << 1", "Operation not support this dtype: float32"),
    ("v = xi / xi", "integer tile / tile division is not supported by pyasc v2"),
    ("v = asc2.exp(xi)", "Operation not support this dtype: int32"),
    ("v = asc2.sin(1.0)", "'input' argument must be Tile, got <class 'float'>"),
    ("v = -xi", "unary minus on an integer tile (int32) is not supported by pyasc v2"),
    ("v = asc2.softmax(xi)", "Only float and half types are supported."),
    ("v = asc2.softmax(x.reshape(2, 2, 64))", "Tensor dimensionality greater than two is not supported"),
    ("v = asc2.rms_norm(x, x, 1)", "'epsilon' argument must be float"),
    ("v = asc2.rms_norm(x, x.reshape(64, 4), 1e-5)", "gamma's last dimension 4 differs from the input's 64"),
    ("v = asc2.rms_norm(x, 1.0, 1e-5)", "'input' and 'gamma' arguments must be Tiles"),
    ("v = x.to(asc.int8)", "Tile.to from float32 to int8 (an int<->float cast between different bit widths) is not "
                           "supported by pyasc v2"),
    ("v = x.to(asc.uint8)", "Cast from float32 to uint8 is not supported"),
    ("v = x.to('float16')", "Tile.to expects an asc dtype"),
    ("v = asc2.full([4, 64], n, dtype=asc.float16)", "Arithmetic cast from int32 to float16 is not supported"),
    ("v = asc2.full([4, 64], 'a')", "fill value must be a number or a runtime scalar"),
    ("v = asc2.full([4, 64], 1, dtype=asc.uint16)", "Unsupported dtype: uint16"),
    ("v = asc2.full(n, 1.0)", "shape must be integers"),
    ("v = asc2.zeros([0])", "All values in 'shape' must be positive"),
    ("v = asc2.full_like(1.0, 1.0)", "'input' argument must be Tile"),
    ("v = asc2.zeros_like([4])", "'input' argument must be Tile"),
    ("v = asc2.concat(x, xi)", "All tiles must have the same dtype"),
    ("v = asc2.concat(x, 1.0)", "All input arguments must be tiles"),
    ("v = asc2.concat(x, x.reshape(8, 32))", "All tiles must have the same shape except their first dimension"),
    ("v = x.broadcast_to(8, 32)", "Cannot broadcast tile with shape [4, 64] to [8, 32]"),
    ("v = x.reshape(3, 64)", "Result tile must have the same number of elements as input tile"),
    ("v = x.squeeze(0)", "Unable to squeeze the axis 0 since its length must be 1, got 4"),
    ("v = asc2.reshape(1.0, 4)", "'input' argument must be Tile"),
    ("v = asc2.reduce_sum(x, 0.5)", "All reduction dimensions must be integers"),
    ("v = asc2.reduce_sum(x, 3)", "reduction dimension 3 is out of range for a rank-2 tile"),
    ("v = asc2.reduce_prod(x)", "Reduction to scalar not supported"),
    ("v = asc2.reduce_max(x > 0)", "Operation not support this dtype: int1"),
    ("v = asc2.reduce_min(1.0)", "'input' argument must be Tile"),
    ("v = asc2.where(n > 0, x, x)", "'mask' argument must be Tile"),
    ("v = asc2.where(x, x, x)", "'mask' must be a boolean tile"),
    ("v = asc2.where(x > 0, x, x.reshape(64, 4))", "Tile shape doesn't match the required shape"),
    ("with asc2.mask():\n        pass", "One of 'count', 'bits' must be provided"),
    ("with asc2.mask(bits=(1,)):\n        pass", "Expected two integers in 'bits', got 1"),
    ("with asc2.mask(count=4, other='a'):\n        pass", "'other' must be a number or a runtime scalar"),
    ("asc2.atomic_add(1.0, xg, [0, 0])", "'tile' argument must be Tile"),
    ("asc2.atomic_add(x, xg, [0])", "rank of 'tensor_shape' must match rank of 'shape'"),
    ("asc2.atomic_max(xi, xg, [0, 0])", "same element type"),
    ("v = asc2.num_tiles(xg, 2, [1, 64])", "axis (2) exceeds number of dimensions"),
    ("v = asc2.num_tiles(x, 0, [1, 64])", "'tensor' argument must be an asc2.tensor"),
    ("v = asc2.num_tiles(xg, 0.0, [1, 64])", "'axis' must be a Python int"),
    ("v = asc2.tensor(x_ptr, 64)", "Tensor dimension should be RuntimeInt"),
    ("v = xg.shape[5]", "shape index 5 out of range"),
    ("v = asc2.tensor(x, [4])", "'base' argument must be a GlobalAddress"),
    ("v = asc2.load(x, [4, 64], offsets=[0, 0])", "expects an asc2.tensor as the global-memory argument"),
    ("for i in asc2.range(4, unroll_factor=0):\n        pass", "Loop unroll factor must be 1 or greater, got 0"),
    ("for i in asc2.range(4, parallel='yes'):\n        pass", "'parallel' argument must be bool"),
    ("for i in asc.static_range(1, 2, 3, 4):\n        pass", "static_range expects from 1 to 3 arguments, got 4"),
    # cube
    ("v = a @ x.reshape(32, 8)", "asc2.matmul (right operand) expects a tile in L0B, got a tile in UB"),
    ("v = a @ a", "Input tiles have incompatible shapes: [8, 32], [8, 32]"),
    ("v = asc2.matmul(a, 1.0)", "Input operands must be tiles"),
    ("v = a @ 1.0", "unsupported operand type(s) for @"),
    ("v = asc2.exp(a)", "asc2.exp expects a tile in UB, got a tile in L0A"),
    ("v = x.to(asc.float64)", "tiles of float64 are not supported: a tile holds float16, bfloat16, float32, int8, int16 or "
     "int32 elements"),
    ("asc2.store(a, xg, offsets=[0, 0])", "store expects a tile in UB or L0C, got a tile in L0A"),
    ("asc2.matmul_acc(a, b, 1.0)", "'acc' argument must be Tile"),
    ("v = (a @ b).to(asc.float16, asc2.RoundMode.Floor)", "a rounding mode cannot be given for a conversion out of L0C"),
    ("v = (a @ b).to(asc.int16)", "Unsupported quant mode from float32 to int16"),
    ("asc2.matmul_acc(a, b, a @ b)", "Incorrect use of accumulator in matmul operation."),
    ("v = asc2.where(x > 0, x, [1])", "Operand of type <class 'list'> is not supported"),
    ("v = asc2.zeros_acc([4], asc.float32)", "Accumulation tile must have two dims, got 1"),
    ("v = asc2.copy(1.0)", "'tile' argument must be Tile"),
    ("v = asc2.copy(x, location=asc2.TileLocation.L0A)", "dst tile location is not supported"),
    ("v = asc2.full([16, 16], 0.0, location=asc2.TileLocation.L0A)", "asc2.full cannot create a tile in L0A"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], location=asc2.TileLocation.L0C)",
     "invalid destination location of the tile"),
    ("v = asc2.load(xg, [4, 64], offsets=[0, 0], location=asc2.TileLocation.L1)\n"
     "    w = asc2.copy(v, [4, 64], offsets=[1, 0], location=asc2.TileLocation.L0A)",
     "copy window at offset 1 with size 4 exceeds the source tile dimension 4"),
]


@pytest.mark.parametrize("body,message", CASES, ids=[c[0].split("\n")[-1].strip()[:60] for c in CASES])
def test_error_report(body, message):
    src = PRELUDE + f"    {body}\n"
    fname = f"/virtual/tests/compiler/test_error_site_{abs(hash(src))}.py"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns = {"asc": asc, "asc2": asc2, "np": np, "__name__": "error_sites"}
    exec(compile(src, fname, "exec"), ns)
    k = asc2.jit(ns["kern"])
    with pytest.raises(CodegenError, match=re.escape(message)) as e:
        k[1](np.zeros((4, 64), np.float32), np.zeros((4, 64), np.int32), 3, 1.5)
    text = str(e.value)
    assert message in text, text
    file, line, col = location(e.value)
    assert file == fname and line >= 8, text                      # the offending line, not the prelude
    offending = src.splitlines()[line - 1]
    assert f"> {line:4d} | {offending}" in text, text             # shown with its line number
    hints = [l for l in text.splitlines() if l.startswith("hint: ")]
    assert len(hints) == 1 and len(hints[0]) > 15, text


@pytest.mark.parametrize("body,message,hint", [
    ("v = a @ x.reshape(32, 8)", "expects a tile in L0B, got a tile in UB",
     "load matmul operands with location=asc2.TileLocation.L0A (left) / L0B (right), or copy them there from L1 with "
     "asc2.copy"),
    ("v = x.reshape(8, 32) @ b", "expects a tile in L0A, got a tile in UB",
     "load matmul operands with location=asc2.TileLocation.L0A (left) / L0B (right), or copy them there from L1 with "
     "asc2.copy"),
    ("v = asc2.exp(a)", "expects a tile in UB, got a tile in L0A",
     "L0A/L0B tiles only feed asc2.matmul; load vector operands with the default location (UB)"),
    ("v = xi.to(asc.float16)", "an int<->float cast between different bit widths",
     "cast in two steps through a type of the source width e.g. .to(asc.float32).to(asc.float16)"),
])
def test_the_hint_names_the_fix_for_the_case(body, message, hint):
    src = PRELUDE + f"    {body}\n"
    fname = f"/virtual/tests/compiler/test_error_site_{abs(hash(src))}.py"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns = {"asc": asc, "asc2": asc2, "np": np, "__name__": "error_sites"}
    exec(compile(src, fname, "exec"), ns)
    with pytest.raises(CodegenError, match=re.escape(message)) as e:
        asc2.jit(ns["kern"])[1](np.zeros((4, 64), np.float32), np.zeros((4, 64), np.int32), 3, 1.5)
    assert f"hint: {hint}" in str(e.value), str(e.value)
