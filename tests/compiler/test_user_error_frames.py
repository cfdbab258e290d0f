"""Every error a user can cause, printed as an uncaught error is, shows the user's frames and line, the message
and the fix hint, and no frame from inside the package: a corpus of faulty kernels of both front ends (trace
time, launch arguments, simulated faults, v1 calls and ordering), each run through the excepthook asc installs."""
from __future__ import annotations

import io
import os
import traceback
import warnings

import numpy as np
import pytest

import asc
import asc2
from asc.runtime import config, tracebacks

PACKAGE = os.path.dirname(asc.__file__)


@asc2.jit
def copy(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, T: asc2.ConstExpr[int]):
    t = asc2.load(asc2.tensor(x_ptr, [n]), [T], offsets=[0])
    asc2.store(t, asc2.tensor(out_ptr, [n]), offsets=[0])


@asc2.jit
def shapes_differ(x_ptr: asc2.GlobalAddress, n: int):
    a = asc2.load(asc2.tensor(x_ptr, [n]), [64], offsets=[0])
    b = asc2.load(asc2.tensor(x_ptr, [n]), [32], offsets=[0])
    asc2.store(a + b, asc2.tensor(x_ptr, [n]), offsets=[0])


@asc2.jit
def rows_past_the_end(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress):
    t = asc2.load(asc2.tensor(x_ptr, [4, 64]), [8, 64], offsets=[0, 0])
    asc2.store(t, asc2.tensor(out_ptr, [8, 64]), offsets=[0, 0])


@asc2.jit
def every_block_writes_row_0(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress):
    t = asc2.load(asc2.tensor(x_ptr, [128]), [64], offsets=[asc2.block_idx() * 64])
    asc2.store(t, asc2.tensor(out_ptr, [64]), offsets=[0])


@asc2.jit
def huge_tile(x_ptr: asc2.GlobalAddress, n: int):
    t = asc2.load(asc2.tensor(x_ptr, [n]), [1 << 20], offsets=[0])
    asc2.store(t, asc2.tensor(x_ptr, [n]), offsets=[0])


@asc2.jit
def august_rank_mismatch(x_ptr: asc2.GlobalAddress, n: int):
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0, 0], [64])
    asc2.copy_out(t, asc2.global_tensor(x_ptr, [n]), [0])


@asc.jit
def v1_flag(x: asc.GlobalAddress, mode: asc.ConstExpr[int]):
    if mode == 0:
        asc.set_flag(asc.HardEvent.V_MTE3, 8)
    elif mode == 1:
        asc.pipe_barrier(asc.PipeID.PIPE_S)
    else:
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)


@asc.jit
def v1_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, count: int, mode: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    if mode != 2:
        x_gm.set_global_buffer(x, 64)
    z_gm.set_global_buffer(z, 64)
    size = 1 << 20 if mode == 1 else 64
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, size)
    asc.data_copy(a, x_gm, count)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, a, count)


def plain(x_ptr: asc2.GlobalAddress):
    pass


@asc.jit
def v1_scalar(x: asc.GlobalAddress, i: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 64)
    x_gm.set_value(0, x_gm.get_value(i))


X = np.ones(64, np.float32)
STRIDED = np.ones(128, np.float32)[::2]

CORPUS = {
    "an unknown jit option": lambda: asc2.jit(bogus=1)(plain),
    "ConstExpr of the wrong type": lambda: copy[1](X, X.copy(), 64, 32.5),
    "a strided argument": lambda: copy[1](STRIDED, X.copy(), 64, 32),
    "a missing argument": lambda: copy[1](X, X.copy(), 64),
    "tile shapes that do not broadcast": lambda: shapes_differ[1](X, 64),
    "rows past the end of a tensor": lambda: rows_past_the_end[1](np.ones(256, np.float32), np.ones(512, np.float32)),
    "blocks racing on one output": lambda: every_block_writes_row_0[2](np.arange(128, dtype=np.float32), X.copy()),
    "a tile larger than UB": lambda: huge_tile[1](np.ones(1 << 20, np.float32), 1 << 20),
    "August offsets of the wrong rank": lambda: august_rank_mismatch[1](X, 64),
    "a v1 flag id out of range": lambda: v1_flag[1](X, 0),
    "a v1 barrier on the scalar pipe": lambda: v1_flag[1](X, 1),
    "a v1 wait nobody sets": lambda: v1_flag[1](X, 2),
    "a v1 scalar read past the end of GM": lambda: v1_scalar[1](X, 64),
    "a v1 buffer past UB": lambda: v1_copy[1](X, X.copy(), 64, 1),
    "a v1 GlobalTensor without a buffer": lambda: v1_copy[1](X, X.copy(), 64, 2),
    "a v1 kernel missing an argument": lambda: v1_copy[1](X, X.copy(), 64),
}


def printed(exc):
    """What the excepthook asc installs prints for ``exc`` left uncaught."""
    out = io.StringIO()
    hook = tracebacks._excepthook(lambda t, e, tb: traceback.print_exception(t, e, tb, file=out))
    hook(type(exc), exc, exc.__traceback__)
    return out.getvalue()


@pytest.mark.parametrize("case", list(CORPUS))
def test_a_users_error_shows_their_line_the_message_and_the_hint_and_no_engine_frame(case, monkeypatch):
    monkeypatch.delenv("ASC_DEBUG", raising=False)
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    with pytest.raises(Exception) as info:
        CORPUS[case]()
    text = printed(info.value)
    frames = [line for line in text.splitlines() if line.lstrip().startswith('File "')]
    assert frames and all(f'File "{__file__}"' in f for f in frames), text
    assert "\nhint: " in text, text


def test_a_launch_warning_made_an_error_by_a_filter_shows_the_users_line_and_no_engine_frame(monkeypatch):
    # a v1 copy past the end of GM is a PastEndWarning; -W error::asc.KernelWarning makes it the user's error
    monkeypatch.delenv("ASC_DEBUG", raising=False)
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    with warnings.catch_warnings(), pytest.raises(asc.PastEndWarning) as info:
        warnings.simplefilter("error", asc.KernelWarning)
        v1_copy[1](X, X.copy(), 128, 0)
    text = printed(info.value)
    frames = [line for line in text.splitlines() if line.lstrip().startswith('File "')]
    assert frames and all(f'File "{__file__}"' in f for f in frames), text
    assert "test_user_error_frames.py:77: past-the-end: data_copy (block 0) reads bytes [256, 512)" in text, text
    assert "Size the copy to the argument" in text, text
