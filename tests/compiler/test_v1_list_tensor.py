"""``ListTensorDesc`` / ``TensorDesc`` (a list of GM tensors described in GM: ptr_offset, shape records, data
pointers) and ``asc.inline`` (verbatim C++: accepted where it does nothing, refused where it would run)."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.language.v1.names import NotSupportedByEngineError

N = 32
SEEN = []


@pytest.fixture(params=["Ascend910B1", "Ascend950PR_9599"])
def platform(request):
    config.set_platform(config.Backend.Model, getattr(config.Platform, request.param))
    SEEN.clear()
    yield request.param
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


def describe(*arrays, index_base=0):
    """The list as a framework lays it out: ptr_offset, (dim | index << 32, dims...) per tensor, pointers."""
    shapes = []
    for i, a in enumerate(arrays):
        shapes += [a.ndim | (index_base + i) << 32, *a.shape]
    words = [8 * (1 + len(shapes))] + shapes + [a.ctypes.data for a in arrays]
    return np.array(words, dtype=np.uint64)


@asc.jit(always_compile=True)
def add_listed(lst: asc.GlobalAddress, z: asc.GlobalAddress, x_mem: asc.GlobalAddress, y_mem: asc.GlobalAddress,
               how: asc.ConstExpr[str]):
    # x_mem / y_mem: the listed tensors are GM of the launch; the kernel reaches them through the list only
    desc = asc.ListTensorDesc(data=lst, length=0xffffffff, shape_size=0xffffffff)
    if how.startswith("len"):
        desc = asc.ListTensorDesc()
        desc.init(lst, int(how[3:]))
    count = desc.get_size()
    x = asc.TensorDesc(asc.float32)
    x.set_shape_addr(0)
    desc.get_desc(x, count - 1 if how == "last" else 0)
    SEEN.append((count, x.get_dim(), x.get_index(), [x.get_shape(i) for i in range(x.get_dim())]))
    xg = x.get_data_obj()
    yg = asc.GlobalTensor()
    yg.set_global_buffer(desc.get_data_ptr(1 if how != "past" else count, asc.float32))
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, N * 4, N)
    asc.data_copy(a, xg, N)
    asc.data_copy(b, yg, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(a, a, b, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, a, N)
    SEEN.append(xg.get_size())


def test_the_list_gives_each_tensor_its_shape_index_and_data(platform):
    x = np.arange(N, dtype=np.float32).reshape(4, 8)
    y = np.full(N, 0.5, dtype=np.float32)
    lst = describe(x, y, index_base=7)
    z = np.zeros(N, dtype=np.float32)
    add_listed[1](lst, z, x, y, "first")
    np.testing.assert_array_equal(z, x.reshape(-1) + y)
    assert SEEN == [(2, 2, 7, [4, 8]), N]


def test_the_last_record_is_found_past_a_longer_one(platform):
    x = np.arange(N, dtype=np.float32).reshape(2, 4, 4)
    y = np.ones((N,), dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    add_listed[1](describe(x, y), z, x, y, "last")
    assert SEEN[0] == (2, 1, 1, [N])           # the second record starts after the first's 3 dimensions
    np.testing.assert_array_equal(z, 2 * y)    # tensor 1 (y) added to itself


def test_an_index_one_past_the_list_is_an_error_at_the_line(platform):
    x = np.zeros(N, dtype=np.float32)
    y = np.zeros(N, dtype=np.float32)
    src, first = inspect.getsourcelines(add_listed.fn)
    line = first + next(i for i, t in enumerate(src) if "get_data_ptr(1 if" in t)
    with pytest.raises(IndexError, match=r"get_data_ptr: index 2 of a list of 2 tensors") as e:
        add_listed[1](describe(x, y), np.zeros(N, np.float32), x, y, "past")
    assert f"test_v1_list_tensor.py:{line}" in str(e.value) + str(getattr(e.value, "__notes__", ""))


def test_the_length_given_to_init_bounds_the_words_read(platform):
    x = np.arange(N, dtype=np.float32)
    y = np.ones(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    add_listed[1](describe(x, y), z, x, y, "len56")          # 7 words: exactly the list
    np.testing.assert_array_equal(z, x + y)
    with pytest.raises(IndexError, match=r"pointer 1 lies at bytes \[48, 56\), past the length 48 given to init"):
        add_listed[1](describe(x, y), z, x, y, "len48")


def test_a_pointer_outside_every_argument_names_the_fix(platform):
    x = np.zeros(N, dtype=np.float32)
    y = np.zeros(N, dtype=np.float32)
    lst = describe(x, y)
    lst[-1] = y.ctypes.data + y.nbytes         # one byte past y's last element... of no argument
    with pytest.raises(ValueError, match=r"pointer 1 of the list is 0x[0-9a-f]+, the address of no GM argument"):
        add_listed[1](lst, np.zeros(N, np.float32), x, y, "first")


def test_a_pointer_read_as_another_dtype_is_refused(platform):
    x = np.zeros(N, dtype=np.float32)
    y = np.zeros(N, dtype=np.int32)
    with pytest.raises(TypeError, match=r"points into GM 'y_mem' \(int32\) but is read as float32"):
        add_listed[1](describe(x, y), np.zeros(N, np.float32), x, y, "first")


def test_shape_records_running_past_the_pointers_are_refused(platform):
    x = np.zeros(N, dtype=np.float32)
    lst = describe(x, x)
    lst[0] -= 8                                 # ptr_offset one word short of the second record's end
    with pytest.raises(ValueError, match="shape records run to byte 40, past the pointer list at byte 32"):
        add_listed[1](lst, np.zeros(N, np.float32), x, x, "first")


@asc.jit
def verbatim(x: asc.GlobalAddress, code: asc.ConstExpr[str], before: asc.ConstExpr[bool]):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    asc.inline(code, before_function=before)
    xg.set_value(0, 1.0)


def test_inline_runs_code_that_does_nothing_where_it_stands(platform):
    x = np.zeros(8, dtype=np.float32)
    verbatim[1](x, "// a comment\n ; /* and an empty statement */", False)
    verbatim[1](x, "__aicore__ inline int twice(int v) { return 2 * v; }", True)   # ahead of the function
    assert x[0] == 1.0


def test_inline_refuses_code_that_would_run(platform):
    src, first = inspect.getsourcelines(verbatim.fn)
    line = first + next(i for i, t in enumerate(src) if "asc.inline" in t)
    with pytest.raises(NotSupportedByEngineError,
                       match=rf"test_v1_list_tensor.py:{line}: asc.inline: the verbatim C\+\+ 'x = 1; // set' would run"):
        verbatim[1](np.zeros(8, np.float32), "x = 1; // set", False)
