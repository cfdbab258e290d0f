"""Arithmetic on device scalars computes what pyasc computes (its ``PlainValue`` rules, checked against the Ascend C
pyasc-dev generates): ``/`` and ``//`` of ints truncate toward zero, ``%`` keeps the dividend's sign, a Python
float meeting a device int becomes an int, the left device operand's type wins, int32 wraps, a comparison
converts its operands the same way; ``%`` / shifts of floats, ``-`` of a float, ``~`` are refused at the user's
line. Both in a v1 kernel (whose body runs as Python: its operators on device values are rewritten) and in an
August asc2 kernel (IR scalar ops); Python numbers keep Python's arithmetic."""
from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

import asc
import asc.runtime.config as config
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.sim.pipes.tracer import STATS

N = 16
pytestmark = pytest.mark.filterwarnings("ignore::asc.UncoveredOutputWarning",
                                        "ignore::asc.LiteralConversionWarning")


@pytest.fixture(autouse=True)
def _platform(monkeypatch):
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.delenv("ASC_V1_BLOCKS", raising=False)


def _line(fn, text):
    lines, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


# each row: the expression, n (a device int32), f (a device float32), pyasc's value (its generated C++) and
# Python's, which differs
CASES = [
    ("n / 2", -7, 2.5, -3, -3.5),
    ("n // 2", -7, 2.5, -3, -4),
    ("n % 2", -7, 2.5, -1, 1),
    ("n / -2", 7, 2.5, -3, -3.5),
    ("n % -2", 7, 2.5, 1, -1),
    ("n * 0.5", 7, 2.5, 0, 3.5),
    ("0.5 * n", 7, 2.5, 0, 3.5),
    ("n + 1.7", -7, 2.5, -6, -5.3),
    ("n + f", -7, 2.5, -5, -4.5),        # the int on the left: f becomes int(2.5)
    ("f + n", -7, 2.5, -4.5, -4.5),      # the float on the left: n becomes float (the same as Python)
    ("f // 2.0", 7, 2.5, 1.25, 1.0),     # a float // is the true division
    ("n * n", 70000, 2.5, 605032704, 4900000000),      # int32 wraps
    ("n + 1", 2147483647, 2.5, -2147483648, 2147483648),   # one past INT_MAX wraps
    ("n - 1", -2147483648, 2.5, 2147483647, -2147483649),  # one below INT_MIN wraps
    ("n * 2", 1073741824, 2.5, -2147483648, 2147483648),
    ("n >> 1", -7, 2.5, -4, -4),
    ("7 / n", -2, 2.5, -3, -3.5),        # a Python int on the left takes the device int's type
    ("-n", -2147483648, 2.5, -2147483648, 2147483648),  # -INT_MIN wraps to itself
]
COMPARES = [
    ("n < 2.5", 2, 2.5, False, True),     # 2.5 becomes 2
    ("n == 2.5", 2, 2.5, True, False),
    ("2.5 > n", 2, 2.5, False, True),
    ("n < f", 2, 2.5, False, True),       # f becomes int 2
    ("f > n", 2, 2.5, True, True),        # n becomes 2.0
    ("f < 0.10000000149", 2, 0.1, False, True),     # both in float32: the same number
]


def _v1_kernel(expr, tmp_path, name, branch=False):
    src = (f"import asc\n\n\n@asc.jit\ndef kernel(z_ptr: asc.GlobalAddress, n: int, f: float):\n"
           f"    z = asc.GlobalTensor()\n    z.set_global_buffer(z_ptr, {N})\n")
    # a comparison as a runtime if (its bool, int1 in pyasc, cannot be stored in a float tensor there)
    src += f"    if {expr}:\n        z.set_value(0, 1)\n" if branch else f"    v = {expr}\n    z.set_value(0, v)\n"
    return _load(src, tmp_path, name).kernel


def _tile_kernel(expr, tmp_path, name):
    src = (f"from asc.experimental import asctile\n\n\n@asctile.jit\ndef kernel(z_ptr, n: int, f: float):\n"
           f"    z = asctile.global_tensor(z_ptr, [{N}])\n    asctile.copy_out({expr}, z, [0])\n")
    return _load(src, tmp_path, name).kernel


def _load(src, tmp_path, name):
    import importlib.util
    path = tmp_path / f"{name}.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _out_dtype(value):
    return np.float64 if isinstance(value, float) else np.int64


@pytest.mark.parametrize("expr, n, f, pyasc, python", CASES, ids=[c[0] for c in CASES])
def test_v1_device_arithmetic_is_pyascs(expr, n, f, pyasc, python, tmp_path):
    assert eval(expr, {"n": n, "f": f}) == pytest.approx(python)       # (the row's Python value is Python's)
    kernel = _v1_kernel(expr, tmp_path, "v1_" + str(abs(hash(expr))))
    z = np.zeros(N, dtype=_out_dtype(pyasc))
    kernel[1](z, n, f)
    assert z[0] == pyasc


@pytest.mark.parametrize("expr, n, f, pyasc, python", CASES, ids=[c[0] for c in CASES])
def test_august_scalar_arithmetic_is_pyascs(expr, n, f, pyasc, python, tmp_path):
    kernel = _tile_kernel(expr, tmp_path, "tile_" + str(abs(hash(expr))))
    z = np.zeros(N, dtype=np.float32 if isinstance(pyasc, float) else np.int32)
    kernel[1](z, n, f)
    assert z[0] == pyasc


@pytest.mark.parametrize("expr, n, f, pyasc, python", COMPARES, ids=[c[0] for c in COMPARES])
def test_v1_mixed_int_float_comparisons_convert_to_the_device_operands_type(expr, n, f, pyasc, python, tmp_path):
    assert eval(expr, {"n": n, "f": f}) is python
    kernel = _v1_kernel(expr, tmp_path, "cmp_" + str(abs(hash(expr))), branch=True)
    z = np.zeros(N, dtype=np.int32)
    kernel[1](z, n, f)
    assert z[0] == int(pyasc)


@asc.jit
def python_numbers(z_ptr: asc.GlobalAddress, scale: asc.ConstExpr[int]):
    z = asc.GlobalTensor()
    z.set_global_buffer(z_ptr, N)
    half = scale / 2          # Python numbers: Python's arithmetic, as pyasc evaluates them while compiling
    z.set_value(0, half * 4)
    z.set_value(1, -7 // 2)


def test_python_numbers_keep_pythons_arithmetic():
    z = np.zeros(N, dtype=np.float32)
    python_numbers[1](z, 7)
    assert z[0] == 14.0 and z[1] == -4


@asc.jit
def loop_halves(z_ptr: asc.GlobalAddress, n: int):
    z = asc.GlobalTensor()
    z.set_global_buffer(z_ptr, N)
    acc = n * 0
    for i in range(n):        # a runtime loop: its index is a device int
        acc += i / 2          # 0 0 1 1 2 (Python: 0 .5 1 1.5 2)
    z.set_value(0, acc)


def test_v1_loop_index_divides_as_an_int():
    z = np.zeros(N, dtype=np.float32)
    loop_halves[1](z, 5)
    assert z[0] == 4


@asc.jit
def store_half(z: asc.GlobalTensor, k: int, at: asc.ConstExpr[int]):
    z.set_value(at, k / 2)        # a helper's runtime parameter is a device value too


@asc.jit
def calls_helper(z_ptr: asc.GlobalAddress, n: int):
    z = asc.GlobalTensor()
    z.set_global_buffer(z_ptr, N)
    store_half(z, 9, 1)           # a Python int passed to it is materialised: a device int there as well
    store_half(z, n, 0)


def test_v1_helper_divides_its_device_parameter_as_an_int():
    z = np.zeros(N, dtype=np.float32)
    calls_helper[1](z, -7)
    assert z[0] == -3 and z[1] == 4


# -- the traced block index and the per-block run compute the same C division ------------------------------
E = 8


@asc.jit
def block_offsets(x: asc.GlobalAddress, z: asc.GlobalAddress):
    b = asc.get_block_idx()
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    # C's (b - 3) / 2 and (b - 3) % 2: -1 0 0 0 and -1 0 -1 0 (Python's floor: -2 -1 -1 0 and 1 0 1 0)
    xg.set_global_buffer(x + ((b - 3) / 2 + 1) * E + ((b - 3) % 2 + 1) * 4 * E, E)
    zg.set_global_buffer(z + b * E, E)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, E)
    asc.data_copy(a, xg, E)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(zg, a, E)


@pytest.mark.parametrize("mode", ["", "each"])
def test_block_index_division_truncates_traced_and_per_block(mode, monkeypatch):
    monkeypatch.setenv("ASC_V1_BLOCKS", mode)
    x = np.arange(8 * E, dtype=np.float32)
    z = np.zeros(4 * E, dtype=np.float32)
    before = {k: v for k, v in STATS.items() if k.startswith("untraced")}
    block_offsets[4](x, z)
    # C's quotient and remainder: the float quotient truncated, fmod
    starts = [(int((b - 3) / 2) + 1) * E + (int(math.fmod(b - 3, 2)) + 1) * 4 * E for b in range(4)]
    np.testing.assert_array_equal(z.reshape(4, E), np.stack([x[s:s + E] for s in starts]))
    if mode == "":         # the symbolic index computed it (the body was not re-run block by block)
        assert {k: v for k, v in STATS.items() if k.startswith("untraced")} == before


# -- what pyasc refuses, refused at the user's line ---------------------------------------------------------
REFUSED = [
    ("f % 2.0", ValueError, "Binary operation is not supported between PlainValue(dtype=float32, handle=...) "
                            "and PlainValue(dtype=float32, handle=...)"),
    ("f << 1", ValueError, "Binary operation is not supported between PlainValue(dtype=float32"),
    ("n + 3000000000", RuntimeError, "Unsupported dtype for materialization: int32"),
    ("-f", TypeError, "Unsupported value type for materialization: Value"),
    ("~n", NotImplementedError, "Inversion operator is not implemented for PlainValue"),
]


@pytest.mark.parametrize("expr, exc, text", REFUSED, ids=[r[0] for r in REFUSED])
def test_v1_refusals_name_the_users_line(expr, exc, text, tmp_path):
    kernel = _v1_kernel(expr, tmp_path, "bad_" + str(abs(hash(expr))))
    z = np.zeros(N, dtype=np.float32)
    with pytest.raises(exc) as e:
        kernel[1](z, 3, 2.5)
    assert text in str(e.value) and f"{kernel.source_file}:{_line(kernel, 'v = ')}:" in str(e.value)
    assert e.value.hint


@pytest.mark.parametrize("expr, exc, text", REFUSED, ids=[r[0] for r in REFUSED])
def test_august_refusals_name_the_users_line(expr, exc, text, tmp_path):
    kernel = _tile_kernel(expr, tmp_path, "tbad_" + str(abs(hash(expr))))
    z = np.zeros(N, dtype=np.float32)
    with pytest.raises(CodegenError) as e:
        kernel[1](z, 3, 2.5)
    assert text in str(e.value) and e.value.line == _line(kernel, "copy_out(")


@asc2.jit
def april_literal(out_ptr: asc.GlobalAddress, a):
    o = asc2.tensor(out_ptr, [8])
    asc2.store(asc2.full([8], a + 2 ** 31, dtype=o.dtype), o, offsets=[0])


def test_april_int_literal_past_int32_is_refused_not_wrapped():
    """pyasc materialises a literal in the scalar's type and its builder refuses an int32 it cannot hold (one
    past INT_MAX); 2 ** 31 - 1 still fits."""
    out = np.zeros(8, np.int32)
    with pytest.raises(CodegenError, match=r"Unsupported dtype for materialization: int32") as e:
        april_literal[1](out, 12)
    assert e.value.line == _line(april_literal, "2 ** 31")
    april_fits[1](out, -12)
    assert (out == 2 ** 31 - 1 - 12).all()


@asc2.jit
def april_fits(out_ptr: asc.GlobalAddress, a):
    o = asc2.tensor(out_ptr, [8])
    asc2.store(asc2.full([8], a + (2 ** 31 - 1), dtype=o.dtype), o, offsets=[0])


def test_block_index_arithmetic_equals_each_blocks_int():
    """The rules on the traced block index give, in every block, what they give on that block's number: C's
    ``/ // %`` on negative values and either side, a float literal converted to int, comparisons."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from asc.ir.block_index import BlockDependent, BlockIndex, at
    from asc.language.core.scalar_rules import device_binary, device_compare

    ops = ["add", "sub", "mul", "div", "floordiv", "mod"]

    @settings(max_examples=120, deadline=None)
    @given(st.integers(1, 9), st.lists(st.tuples(st.sampled_from(ops), st.one_of(st.integers(-9, 9),
                                                                                 st.floats(-9, 9, allow_nan=False)),
                                                 st.booleans()), min_size=1, max_size=5),
           st.sampled_from(["lt", "eq", "ge"]), st.floats(-20, 20, allow_nan=False))
    def check(blocks, steps, cmp, bound):
        v, values = BlockIndex(n=blocks), list(range(blocks))
        for op, c, left in steps:
            if op in ("div", "floordiv", "mod") and (int(c) == 0 if not left else 0 in values):
                continue
            if left:
                v, values = device_binary(op, c, v, False, True), [device_binary(op, c, x, False, True)
                                                                   for x in values]
            else:
                v, values = device_binary(op, v, c, True, False), [device_binary(op, x, c, True, False)
                                                                   for x in values]
        assert [at(v, b) for b in range(blocks)] == values
        try:
            agreed = device_compare(cmp, v, bound, True, False)
        except BlockDependent:       # blocks disagree: the traced run goes block by block
            return
        assert all(device_compare(cmp, x, bound, True, False) is agreed for x in values)

    check()


def test_v1_float_literal_with_a_device_int_warns_at_its_line(tmp_path):
    """``n * 1.5`` multiplies by 1 on the device: a LiteralConversionWarning at the line, as in tile kernels; a
    literal the int holds exactly (``n * 2.0``) and a float device value (``f * 1.5``) do not warn."""
    kernel = _v1_kernel("n * 1.5 + n * 2.0 + f * 1.5", tmp_path, "lossy_literal")
    z = np.zeros(N, dtype=np.float32)
    with pytest.warns(asc.LiteralConversionWarning) as got:
        kernel[1](z, 3, 2.5)
    texts = [str(w.message) for w in got if issubclass(w.category, asc.LiteralConversionWarning)]
    assert len(texts) == 1 and "the float literal 1.5 in '*' with an int32 scalar is converted to int32 (1)" in texts[0]
    assert got[0].lineno == _line(kernel, "v = ")
    assert z[0] == 3 * 1 + 3 * 2 + int(2.5 * 1.5)     # the int sum on the left: f * 1.5 = 3.75 becomes 3
