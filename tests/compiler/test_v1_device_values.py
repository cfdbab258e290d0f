"""What pyasc's code generator refuses in a v1 kernel because of the kinds of values it holds (device values,
Python numbers, a jit helper's argument types) stops the launch here too, at the user's line, before any
block runs; the forms next to each refusal that pyasc compiles still run."""
from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

import asc
from asc.frontend.errors import CodegenError

N = 64
SEEN = []
pytestmark = pytest.mark.filterwarnings("ignore::asc.UncoveredOutputWarning")   # (one element of z is written)


def _line(fn, text):
    """The file line of the first source line of ``fn`` containing ``text``."""
    lines, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def _arrays():
    return np.arange(N, dtype=np.float32), np.zeros(N, dtype=np.float32)


# -- a name keeps its kind through a block pyasc compiles once -----------------------------------------
@asc.jit
def clamp(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, same_kind: asc.ConstExpr[bool]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    m = n
    if m > 8:
        if same_kind:
            m = n * 0 + 8      # a device value, as n is
        else:
            m = 8
    z_gm.set_value(0, m)


def test_a_device_value_re_assigned_a_python_int_under_a_runtime_if_stops_at_the_if():
    x, z = _arrays()
    with pytest.raises(CodegenError, match="'m' was re-assigned to an object with different type: initial type is "
                       "PlainValue, new type is int") as e:
        clamp[1](x, z, 20, False)
    assert e.value.line == _line(clamp, "if m > 8") and "device value" in e.value.hint
    assert not z.any()          # refused before any block ran
    clamp[1](x, z, 20, True)    # the same kind in both branches compiles
    assert z[0] == 8
    clamp[1](x, z, 5, True)
    assert z[0] == 5


@asc.jit
def accumulate(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, start: asc.ConstExpr[int]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    acc = start            # a Python int
    for i in range(n):
        acc = acc + 1      # stays a Python int: compiled
    for k in asc.static_range(2):
        acc = acc + n      # an unrolled loop may make it a device value (k stays a Python int after it)
    total = acc
    for i in range(n):
        total = total + i  # a device value: fine
    z_gm.set_value(0, total)


@asc.jit
def accumulate_index(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    acc = 0
    for i in range(n):
        acc = acc + i      # a runtime loop's index is a device value
    asc.get_block_idx()


def test_a_runtime_loop_keeps_each_names_kind_and_static_range_unrolls():
    x, z = _arrays()
    accumulate[1](x, z, 4, 1)
    assert z[0] == 1 + 4 + 2 * 4 + (0 + 1 + 2 + 3)
    with pytest.raises(CodegenError, match="'acc' was re-assigned .* initial type is int, new type is PlainValue") as e:
        accumulate_index[1](x, z, 4)
    assert e.value.line == _line(accumulate_index, "for i in range(n)")


@asc.jit
def store_clamped(z_gm: asc.GlobalTensor, m: int):
    if m > 3:
        m = 3
    z_gm.set_value(0, m)


@asc.jit
def calls_store_clamped(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, device: asc.ConstExpr[bool]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    if device:
        store_clamped(z_gm, n)
    else:
        store_clamped(z_gm, 7)    # a Python int: materialised for the runtime parameter, a device value there too


def test_the_rule_holds_in_a_helper_whose_runtime_parameter_is_a_device_value():
    """pyasc's call of a helper materialises every runtime argument (a Python int included), so the helper's
    ``if m > 3`` is a runtime if either way (pyasc-dev refuses both calls)."""
    x, z = _arrays()
    for device in (True, False):
        with pytest.raises(CodegenError, match="'m' was re-assigned") as e:
            calls_store_clamped[1](x, z, 9, device)
        assert e.value.line == _line(store_clamped, "if m > 3")


# -- device values given to Python ---------------------------------------------------------------------
@asc.jit(always_compile=True)
def roots(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, which: asc.ConstExpr[int]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    SEEN.append(n)                         # a Python callable that takes any object: pyasc calls it too
    if which == 0:
        z_gm.set_value(0, math.sqrt(N))    # a Python number: computed while compiling
    elif which == 1:
        z_gm.set_value(0, math.sqrt(n))
    else:
        z_gm.set_value(0, int(n))


def test_math_and_conversions_of_a_device_value_stop_at_their_line():
    x, z = _arrays()
    roots[1](x, z, 9, 0)
    assert z[0] == 8 and SEEN[-1] == 9
    with pytest.raises(CodegenError, match="must be real number, not PlainValue") as e:
        roots[1](x, z, 9, 1)
    assert e.value.line == _line(roots, "math.sqrt(n)") and "asc.sqrt" in e.value.hint
    with pytest.raises(CodegenError, match=r"int\(\) argument must be .* not 'PlainValue'") as e:
        roots[1](x, z, 9, 2)
    assert e.value.line == _line(roots, "int(n)")


@asc.jit
def tensor_attributes(x: asc.GlobalAddress, z: asc.GlobalAddress, upstream: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    if upstream:
        z_gm.set_value(0, x_gm.dtype.sizeof())
    else:
        z_gm.set_value(0, x_gm.itemsize)


def test_a_tensor_attribute_upstream_lacks_stops_at_its_line():
    x, z = _arrays()
    tensor_attributes[1](x, z, True)
    assert z[0] == 4
    with pytest.raises(CodegenError, match="'GlobalTensor' object has no attribute 'itemsize'") as e:
        tensor_attributes[1](x, z, False)
    assert e.value.line == _line(tensor_attributes, "x_gm.itemsize") and "sizeof()" in e.value.hint


# -- a jit helper's arguments ----------------------------------------------------------------------------
@asc.jit
def fill(t: asc.LocalTensor, value, count: int):
    asc.duplicate(t, value, count)


@asc.jit
def fills(x: asc.GlobalAddress, z: asc.GlobalAddress, second: asc.ConstExpr[str]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 0, N)
    fill(a, 1.0, N)
    if second == "float16":
        fill(asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 256, N), 2.0, N)
    elif second == "dtype":
        fill(a, z_gm.dtype, N)
    else:
        fill(a, 2.0, 8)        # the same types again: the one compiled helper serves it
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, a, N)


def test_a_helper_is_compiled_for_its_first_calls_types_and_takes_device_values_only():
    x, z = _arrays()
    fills[1](x, z, "same")
    np.testing.assert_array_equal(z, [2.0] * 8 + [1.0] * (N - 8))
    with pytest.raises(TypeError, match=r"operand type mismatch: .*fill\(\).* argument 't' was a LocalTensor of "
                       "float32 there and is a LocalTensor of float16 here") as e:
        fills[1](x, z, "float16")
    assert f":{_line(fills, 'fill(asc.LocalTensor(asc.float16')}:" in str(e.value)
    with pytest.raises(TypeError, match="Unsupported value type for materialization: DataType") as e:
        fills[1](x, z, "dtype")
    assert f":{_line(fills, 'fill(a, z_gm.dtype')}:" in str(e.value) and "asc.ConstExpr" in e.value.hint
