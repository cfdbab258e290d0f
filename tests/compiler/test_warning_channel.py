"""Every launch warning reaches the user through Python's ``warnings``: under its own category (a subclass of
``asc.KernelWarning``), at the user's file and line, once per location under Python's default rule, on
replayed launches too, and as an error under an ``error`` filter (``-W error::asc.KernelWarning``) with no
frame from inside the package. The launch report keeps its list."""
from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import textwrap
import traceback
import warnings

import numpy as np
import pytest

import asc
import asc2
import asc.runtime as rt

PACKAGE = os.path.dirname(asc.__file__)


def _line(kernel, text):
    """The file line of the kernel's first source line containing ``text``."""
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


@asc2.jit
def offset_bug(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, tile: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    b = asc2.block_idx()
    t = asc2.copy_in(x_gm, [(b + 1) * tile], [tile])   # block 1 loads wholly past the end: nothing defined
    asc2.copy_out(t, out_gm, [b * tile])


def _recorded(launch):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        launch()
    return [w for w in seen if issubclass(w.category, asc.KernelWarning)]


def test_a_store_of_a_load_past_the_end_warns_at_the_store_naming_the_load_block_and_elements():
    x, out = np.arange(256, dtype=np.float32), np.zeros(256, np.float32)
    (w,) = _recorded(lambda: offset_bug[2](x, out, 256, 128))
    assert w.category is asc.UndefinedStoreWarning and issubclass(w.category, asc.UninitializedReadWarning)
    assert (w.filename, w.lineno) == (__file__, _line(offset_bug, "asc2.copy_out"))
    text = str(w.message)
    assert "128 undefined element(s)" in text and "(block 1: 128 element(s) in [128, 256) of 'out_ptr')" in text
    assert f"the tile loaded at {__file__}:{_line(offset_bug, 'asc2.copy_in')}:" in text
    # the report keeps its list: the same warning, located
    (listed,) = rt.last_launch_report()["warnings"]
    assert listed == f"{__file__}:{w.lineno}:4: {text}"


def test_one_element_short_names_exactly_that_element():
    # size 255: block 0's tile is whole, block 1's load [128, 255) leaves one element undefined
    @asc2.jit
    def tail(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, tile: asc2.ConstExpr[int]):
        b = asc2.block_idx()
        t = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [b * tile], [tile])
        asc2.copy_out(t, asc2.global_tensor(out_ptr, [2 * tile]), [b * tile])

    (w,) = _recorded(lambda: tail[2](np.ones(255, np.float32), np.zeros(256, np.float32), 255, 128))
    assert "writes 1 undefined element(s) inside the tensor (block 1: 1 element(s) in [255, 256)" in str(w.message)


def test_repeated_launches_warn_once_per_location_and_every_time_under_always():
    x, out = np.arange(256, dtype=np.float32), np.zeros(256, np.float32)

    def three():
        for _ in range(3):
            offset_bug[2](x, out, 256, 128)
    assert len(_recorded(three)) == 1
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        three()
    assert len(seen) == 3


@asc2.jit
def gated_tail(x_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int,
               T: asc.ConstExpr[int]):
    b = asc2.block_idx()
    x = asc2.load(asc2.tensor(x_ptr, [n]), [T], offsets=[b * T], pad_value=None)   # block 1's tail is undefined
    c = asc2.load(asc2.tensor(c_ptr, [2 * T]), [T], offsets=[b * T])
    asc2.store(asc2.where(c > 0.0, x, 0.0), asc2.tensor(out_ptr, [2 * T]), offsets=[b * T])


def test_a_replayed_launch_issues_what_a_full_run_issues(monkeypatch):
    monkeypatch.delenv("ASC_REPLAY", raising=False)
    for compiled in gated_tail.cache.values():
        compiled.tapes.clear()
    x, out = np.ones(228, np.float32), np.zeros(256, np.float32)
    c = np.where(np.arange(256) < 228, 1.0, -1.0).astype(np.float32)
    assert _recorded(lambda: gated_tail[2](x, c, out, 228, 128)) == []     # recorded: the tail is not stored
    c[:] = 1.0
    replayed = _recorded(lambda: gated_tail[2](x, c, out, 228, 128))    # replayed: the data store the tail
    assert all(t is not None for t in next(iter(gated_tail.cache.values())).tapes.values())
    monkeypatch.setenv("ASC_REPLAY", "off")
    full = _recorded(lambda: gated_tail[2](x, c, out, 228, 128))
    assert [(w.category, w.lineno, str(w.message)) for w in replayed] == \
        [(w.category, w.lineno, str(w.message)) for w in full]
    assert "(block 1: 28 element(s) in [228, 256) of 'out_ptr')" in str(full[0].message)


@asc2.jit
def half_covered(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    t = asc2.load(asc2.tensor(x_ptr, [n]), [T], offsets=[0])
    asc2.store(t, asc2.tensor(out_ptr, [n]), offsets=[0])


def test_a_warning_without_a_line_of_its_own_is_at_the_kernel_definition():
    (w,) = _recorded(lambda: half_covered[1](np.ones(128, np.float32), np.zeros(128, np.float32), 128, 64))
    assert w.category is asc.UncoveredOutputWarning
    assert (w.filename, w.lineno) == (__file__, _line(half_covered, "def half_covered"))


@asc.jit
def unwaited(x: asc.GlobalAddress):
    asc.set_flag(asc.HardEvent.V_MTE3, 0)


def test_a_v1_flag_never_waited_for_is_a_flag_warning_at_its_line():
    (w,) = _recorded(lambda: unwaited[1](np.zeros(8, np.float32)))
    assert w.category is asc.FlagWarning
    assert (w.filename, w.lineno) == (__file__, _line(unwaited, "asc.set_flag"))
    assert "set_flag(V_MTE3, 0) is never waited for" in str(w.message)


def test_an_error_filter_makes_the_warning_an_error_at_the_users_line_without_engine_frames():
    x, out = np.arange(256, dtype=np.float32), np.zeros(256, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", asc.KernelWarning)
        with pytest.raises(asc.UndefinedStoreWarning) as info:
            offset_bug[2](x, out, 256, 128)
    assert str(info.value).startswith(f"{__file__}:{_line(offset_bug, 'asc2.copy_out')}:4: store to 'out_ptr'")
    # only the public entry point's own frame, which pytest hides and an uncaught error's printout drops
    frames = traceback.extract_tb(info.value.__traceback__)
    assert [f.name for f in frames if f.filename.startswith(PACKAGE)] == ["entry"]
    assert rt.last_launch_report()["warnings"]   # the report of the launch is there all the same


def test_the_launch_report_file_names_each_warnings_kind_and_line(tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"
    monkeypatch.setenv("ASC_LAUNCH_REPORT", str(path))
    _recorded(lambda: unwaited[1](np.zeros(8, np.float32)))
    (w,) = json.loads(path.read_text().splitlines()[-1])["warnings"]
    assert (w["kind"], w["file"], w["line"]) == ("FlagWarning", __file__, _line(unwaited, "asc.set_flag"))
    assert w["text"].endswith(w["message"]) and "never waited for" in w["message"]


SCRIPT = '''
import numpy as np
import asc
from asc.runtime import config

@asc.jit
def k(x: asc.GlobalAddress):
    asc.set_flag(asc.HardEvent.V_MTE3, 0)

config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
k[1](np.zeros(8, np.float32))
print("ran to the end")
'''


@pytest.mark.parametrize("option, fails", [("error::asc.KernelWarning", True), ("error::asc.FlagWarning", True),
                                            ("error::asc.PastEndWarning", False), (None, False)])
def test_python_w_option_selects_the_kinds_that_fail(tmp_path, option, fails):
    script = tmp_path / "flag.py"
    script.write_text(textwrap.dedent(SCRIPT))
    argv = [sys.executable] + (["-W", option] if option else []) + [str(script)]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert (p.returncode != 0) == fails, p.stderr
    assert "flag.py:8" in p.stderr and "FlagWarning" in p.stderr
    assert ("ran to the end" in p.stdout) != fails
    if fails:   # the user's frame and the message, nothing from inside the package
        assert PACKAGE not in p.stderr and "asc.FlagWarning: flag.py:8: set_flag(V_MTE3, 0)" in p.stderr


@asc2.jit
def april_offset_bug(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, tile: asc2.ConstExpr[int],
                     explicit: asc2.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [size])
    b = asc2.block_idx()
    if explicit:
        t = asc2.load(x_gm, [tile], offsets=[(b + 1) * tile], pad_value=0)
    else:
        t = asc2.load(x_gm, [tile], offsets=[(b + 1) * tile])     # no pad_value: block 1 reads nothing
    asc2.store(t, asc2.tensor(out_ptr, [size]), offsets=[b * tile])


def test_an_april_load_that_reads_nothing_leaves_only_default_padding_which_a_store_warns_about():
    x, out = np.arange(256, dtype=np.float32), np.zeros(256, np.float32)
    (w,) = _recorded(lambda: april_offset_bug[2](x, out, 256, 128, False))
    assert w.category is asc.UndefinedStoreWarning and w.lineno == _line(april_offset_bug, "asc2.store")
    text = str(w.message)
    assert "(block 1: 128 element(s) in [128, 256) of 'out_ptr')" in text
    assert f"the load at {__file__}:{_line(april_offset_bug, 'offsets=[(b + 1) * tile])')}:" in text
    assert "reads nothing" in text
    np.testing.assert_array_equal(out, np.r_[x[128:], np.zeros(128, np.float32)])   # (pyasc's zeros)
    # the padding asked for is defined; so is the default padding of a tail (257: block 1 reads one element)
    assert _recorded(lambda: april_offset_bug[2](x, out, 256, 128, True)) == []
    tail = _recorded(lambda: april_offset_bug[2](np.ones(257, np.float32), np.zeros(257, np.float32), 257, 128, False))
    assert [w.category for w in tail] == [asc.UncoveredOutputWarning]   # (element 256: nobody stores it)
