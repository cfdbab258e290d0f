"""The frontend: device functions, the syntax outside the supported subset, and the error report format
(spec §4.4-4.6)."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

import asc
import asc2
from asc.frontend.errors import CodegenError, UnsupportedSyntaxError

from kernel_checks import assert_reported, location, randn

COLS = 64

# -- device functions ----------------------------------------------------------------------------------
@asc2.jit
def scale_and_shift(t, scale: float, shift=1.0):
    return t * scale + shift


@asc2.jit
def clamp_tile(t, lo: asc.ConstExpr[float], hi: asc.ConstExpr[float]):
    return asc2.minimum(asc2.maximum(t, lo), hi)


@asc2.jit
def device_fn_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    for i in range(asc.ceildiv(n, 64)):
        x = asc2.load(x_gm, [64], offsets=[i * 64])
        y = scale_and_shift(x, 3.0)
        asc2.store(clamp_tile(y, -2.0, 2.0), o_gm, offsets=[i * 64])


def test_device_functions_return_values_and_apply_defaults():
    x = randn(200, np.float32)
    out = np.zeros_like(x)
    device_fn_kernel[1](x, out, x.size)
    np.testing.assert_allclose(out, np.clip(x * 3 + 1, -2, 2), rtol=1e-6)


@asc2.jit
def _row_sum(x_gm, r, n_tiles, T: asc.ConstExpr[int]):
    acc = asc2.zeros([1, T], dtype=asc.float32)
    for t in range(n_tiles):
        acc = acc + asc2.load(x_gm, [1, T], offsets=[r, t * T])
    return acc


@asc2.jit
def _row_mean(x_gm, r, n_tiles, T: asc.ConstExpr[int]):
    return _row_sum(x_gm, r, n_tiles, T) * (1.0 / T)


def test_nested_device_functions_with_runtime_loops_inside_a_parallel_loop():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, n_tiles: int, T: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [rows, n_tiles * T])
        o_gm = asc2.tensor(out_ptr, [rows, T])
        for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
            asc2.store(_row_mean(x_gm, r, n_tiles, T), o_gm, offsets=[r, 0])
    x = randn((5, 96), np.float32, seed=8)
    out = np.zeros((5, 32), np.float32)
    k[3](x, out, 5, 3, 32)
    np.testing.assert_allclose(out, x.reshape(5, 3, 32).sum(axis=1) / 32, rtol=1e-6)


def test_kernel_cannot_return_a_value():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        return asc2.full([8], 1.0, dtype=asc.float32)
    with pytest.raises(CodegenError, match=re.escape("JIT kernel function cannot return objects")) as e:
        k[1](np.zeros(8, np.float32))
    assert_reported(e.value, "JIT kernel function cannot return objects", "return asc2.full(")


def test_return_inside_a_runtime_block_is_rejected():
    @asc2.jit
    def helper(t, n):
        for i in range(n):
            return t
        return t

    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        t = helper(asc2.full([8], 1.0, dtype=asc.float32), n)
    with pytest.raises(CodegenError, match=re.escape("Return statement is not allowed in nested blocks")) as e:
        k[1](np.zeros(8, np.float32), 2)
    assert "Return statement is not allowed in nested blocks" in str(e.value)


def test_bare_return_ends_a_kernel_early():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, EARLY: asc.ConstExpr[bool]):
        o = asc2.tensor(out_ptr, [8])
        asc2.store(asc2.full([8], 1.0, dtype=asc.float32), o, offsets=[0])
        if EARLY:
            return
        asc2.store(asc2.full([8], 2.0, dtype=asc.float32), o, offsets=[0])
    out = np.zeros(8, np.float32)
    k[1](out, True)
    assert np.all(out == 1)
    k[1](out, False)
    assert np.all(out == 2)


def test_return_inside_a_mask_block_keeps_the_block():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        o = asc2.tensor(out_ptr, [64])
        with asc2.mask(count=64):
            asc2.store(asc2.full([64], 1.0), o, offsets=[0])
            return
        asc2.store(asc2.full([64], 2.0), o, offsets=[0])
    out = np.zeros(64, np.float32)
    k[1](out)
    assert np.all(out == 1)


def test_ordinary_python_helpers_run_at_trace_time():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, SHAPE: asc.ConstExpr):
        o = asc2.tensor(out_ptr, [SHAPE[0], SHAPE[1]])
        n = len(SHAPE) * int(SHAPE[1] / 32)
        v = float(n)
        asc2.store(asc2.full([SHAPE[0], SHAPE[1]], v, dtype=asc.float32), o, offsets=[0, 0])
    out = np.zeros((2, 64), np.float32)
    k[1](out, (2, 64))
    assert np.all(out == 4)


def test_fstrings_and_tuple_unpacking():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, SHAPE: asc.ConstExpr):
        rows, cols = SHAPE
        label = f"{rows}x{cols}"
        assert label == "2x32", label
        o = asc2.tensor(out_ptr, [rows, cols])
        asc2.store(asc2.full([rows, cols], 3, dtype=asc.int32), o, offsets=[0, 0])
    out = np.zeros((2, 32), np.int32)
    k[1](out, (2, 32))
    assert np.all(out == 3)


# -- unsupported syntax ----------------------------------------------------------------------------------
UNSUPPORTED = {
    "Break": "for i in range(n):\n        break",
    "Continue": "for i in range(n):\n        continue",
    "Raise": "raise ValueError('x')",
    "Try": "try:\n        pass\n    except Exception:\n        pass",
    "Lambda": "f = lambda v: v",
    "ListComp": "v = [i for i in (1, 2)]",
    "SetComp": "v = {i for i in (1, 2)}",
    "DictComp": "v = {i: i for i in (1, 2)}",
    "GeneratorExp": "v = tuple(i for i in (1, 2))",
    "Dict": "v = {1: 2}",
    "Set": "v = {1, 2}",
    "Import": "import os",
    "ImportFrom": "from os import path",
    "Global": "global G",
    "Nonlocal": None,
    "Delete": "v = 1\n    del v",
    "NamedExpr": "v = (w := 3)",
    "Yield": "yield n",
}


@pytest.mark.parametrize("node", [k for k, v in UNSUPPORTED.items() if v])
def test_unsupported_syntax_messages(node):
    src = f"def kern(out_ptr, n: int):\n    {UNSUPPORTED[node]}\n"
    k = _kernel_from(src)
    with pytest.raises(UnsupportedSyntaxError, match=re.escape(f"{node} syntax is not supported in JIT function")) as e:
        k[1](np.zeros(8, np.float32), 3)
    assert f"{node} syntax is not supported in JIT function" in str(e.value)
    assert "hint: " in str(e.value)
    file, line, _ = location(e.value)
    assert file == k.source_file and line >= k.first_line + 1


def _kernel_from(src):
    import linecache
    fname = f"/virtual/tests/compiler/test_generated_{abs(hash(src))}.py"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns = {"asc": asc, "asc2": asc2, "__name__": "generated"}
    exec(compile(src, fname, "exec"), ns)
    return asc2.jit(ns["kern"])


def test_break_report_shape_and_hint():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        for i in range(n):
            break
    with pytest.raises(UnsupportedSyntaxError, match=re.escape("Break syntax is not supported in JIT function")) as e:
        k[1](np.zeros(8, np.float32), 3)
    assert_reported(e.value, "Break syntax is not supported in JIT function", "break")


@pytest.mark.parametrize("stmt,msg", [
    ("a = b = 1", "Assignment operator must have exactly one target"),
    ("a, b = 1, 2, 3", "Assignment operator must have equal number of names and values, got 2 names and 3 values"),
    ("v = 1 < n < 3", "Only simple comparison is supported (one operation, one comparator)"),
    ("v = (n > 1) and (n > 2) and (n > 3)", "Chained boolean operators are not supported, group pairs with parentheses"),
    ("def inner():\n        pass", "Nested functions are not supported"),
    ("v = 3\n    v()", "<class 'int'> instance is not callable"),
    ("asc.G.x += 1", "<class 'ast.Attribute'> is not supported as left operand of AugAssign"),
    ("for i in range(n):\n        pass\n    else:\n        pass", "else statement is not allowed after for-loop"),
    ("for i, j in range(n):\n        pass", "For-loop target must be an identifier, got <class 'ast.Tuple'>"),
    ("for i in (1, 2):\n        pass",
     "Only for-loops with range or asc.language.range or asc.language.static_range are supported"),
    ("print(n)", "print is not defined"),
    ("a, (b, c) = 1, (2, 3)", "Assignment target must be name or tuple of names"),
    ("*a, b = (1, 2)", "Assignment target must be name or tuple of names"),
    ("while n > 0:\n        n = n - 1\n    else:\n        pass", "else statement is not allowed after while-loop"),
    ("with asc2.mask(count=4) as m:\n        pass", "asc2.mask(...) does not bind a name"),
    ("with asc.static_range(2):\n        pass", "with-statement needs asc2.mask(...)"),
    ("v = abs(n)", "abs is not defined"),
    ("v = bool(n)", "bool is not defined"),
    ("v = min(n, 2)", "min is not defined"),
])
def test_frontend_error_messages(stmt, msg):
    k = _kernel_from(f"def kern(out_ptr, n: int):\n    {stmt}\n")
    with pytest.raises(CodegenError, match=re.escape("hint: ")) as e:
        k[1](np.zeros(8, np.float32), 3)
    assert msg in str(e.value)
    assert location(e.value)[0] == k.source_file
    assert "hint: " in str(e.value)


def test_default_builtins_are_pyasc_s():
    from asc.frontend.visitor import DEFAULT_BUILTINS
    assert sorted(DEFAULT_BUILTINS) == sorted(["dict", "float", "int", "isinstance", "issubclass", "len", "list",
                                               "range", "repr", "str", "tuple", "type"])

    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, SHAPE: asc.ConstExpr):
        n = len(SHAPE)
        assert isinstance(SHAPE, tuple)
        assert type(n) is int
        label = repr(SHAPE) + str(n)
        asc2.store(asc2.full([8], float(n) + int(2.7), dtype=asc.float32), asc2.tensor(out_ptr, [8]), offsets=[0])
    out = np.zeros(8, np.float32)
    k[1](out, (1, 2, 3))
    assert np.all(out == 5)


def test_unsupported_function_referenced():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        v = math.sqrt(2.0)
    with pytest.raises(CodegenError, match=re.escape("Unsupported function referenced: <built-in function sqrt>")) as e:
        k[1](np.zeros(8, np.float32))
    assert_reported(e.value, "Unsupported function referenced: <built-in function sqrt>", "math.sqrt(2.0)")


def test_module_constants_and_modules_are_usable():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        o = asc2.tensor(out_ptr, [COLS])
        asc2.store(asc2.full([COLS], math.pi, dtype=asc.float32), o, offsets=[0])
    out = np.zeros(COLS, np.float32)
    k[1](out)
    assert np.all(out == np.float32(math.pi))


def test_and_of_two_compile_time_values_is_not_supported_clearly():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, A: asc.ConstExpr[bool], B: asc.ConstExpr[bool]):
        if A and B:
            pass
    with pytest.raises(CodegenError, match=re.escape("not supported by pyasc v2")) as e:
        k[1](np.zeros(8, np.float32), True, True)
    assert "not supported by pyasc v2" in str(e.value) and "if A and B:" in str(e.value)


def test_and_or_of_runtime_conditions():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        o = asc2.tensor(out_ptr, [asc2.block_num() * 8])
        b = asc2.block_idx()
        v = asc2.full([8], 0, dtype=asc.int32)
        if (b > 0) and (b < 3):
            v = v + 1
        if (b == 0) or (b == 4):
            v = v + 10
        asc2.store(v, o, offsets=[b * 8])
    out = np.zeros(40, np.int32)
    k[5](out)
    np.testing.assert_array_equal(out, np.repeat([10, 1, 1, 0, 10], 8))


# -- error report format -----------------------------------------------------------------------------------
def test_error_report_points_at_file_line_column_with_context_and_hint():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        x = asc2.load(asc2.tensor(x_ptr, [n]), [64], offsets=[0])
        y = 2 * x
    with pytest.raises(CodegenError, match=re.escape("'Tile' object has no attribute '__rmul__'")) as e:
        k[1](np.zeros(64, np.float32), np.zeros(64, np.float32), 64)
    err = e.value
    text = str(err)
    file, line, col = location(err)
    assert file == __file__
    assert line == k.first_line + 2
    import linecache
    src_line = linecache.getline(file, line)
    assert col == src_line.index("2 * x") + 1
    assert src_line.rstrip("\n") in text                              # the offending line
    assert linecache.getline(file, line - 1).rstrip("\n") in text       # context before
    assert "'Tile' object has no attribute '__rmul__'" in text
    assert "hint: " in text and "x * 2" in text
    # No internal traceback reaches the user: what Python prints is the call site plus the launcher's raise.
    import traceback
    printed = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    assert "frontend/visitor.py" not in printed and "During handling" not in printed
    assert len(traceback.extract_tb(err.__traceback__)) <= 2


def test_capture_exceptions_false_shows_the_original_exception():
    @asc2.jit(capture_exceptions=False)
    def k(x_ptr: asc.GlobalAddress, n: int):
        x = asc2.load(asc2.tensor(x_ptr, [n]), [64], offsets=[0])
        y = 2 * x
    with pytest.raises(AttributeError, match="'Tile' object has no attribute '__rmul__'") as e:
        k[1](np.zeros(64, np.float32), 64)
    assert not isinstance(e.value, CodegenError)

    @asc2.jit(capture_exceptions=False)
    def k2(x_ptr: asc.GlobalAddress, n: int):
        x = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    with pytest.raises(RuntimeError, match="All values in 'shape' must be integers") as e:
        k2[1](np.zeros(64, np.float32), 64)
    assert not isinstance(e.value, CodegenError)
