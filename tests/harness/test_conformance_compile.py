"""conformance-compile: pyasc-dev's compiler against this engine per launch: the verdicts and messages, and
the on-chip figures judged by the side of the platform's capacity each falls on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from asc_harness.conform import compile_check as memory

C310_UB = 248 * 1024
DRIVER = Path(memory.__file__).with_name("compile_driver.py")


def _run(up, here, caps=None):
    return memory.compare_launches("c", "Ascend950PR_9599", {"launches": up}, {"launches": here},
                                   caps or {"UB": C310_UB, "L1": 512 * 1024})


def test_figures_on_both_sides_of_the_capacity_disagree_by_one_byte():
    (row,) = _run([{"case": "a", "memory": {"UB": C310_UB}}], [{"case": "a", "memory": {"UB": C310_UB + 1}}])
    assert (row["status"], row["aspect"]) == ("DISAGREE", "memory")
    assert "pyasc-dev 253952, here 253953" in row["detail"]
    (row,) = _run([{"case": "a", "memory": {"UB": C310_UB}}], [{"case": "a", "memory": {"UB": C310_UB - 1}}])
    assert row["status"] == "differs"                      # both fit: the figures differ, the verdict agrees
    (row,) = _run([{"case": "a", "memory": {"UB": 4096}}], [{"case": "a", "memory": {"UB": 4096}}])
    assert row["status"] == "equal"


def test_a_memory_only_one_engine_reports_counts_as_zero_there():
    """pyasc-dev reports L1 / L0 for cube kernels; a plan without them has 0 bytes there."""
    (row,) = _run([{"case": "a", "memory": {"UB": 0, "L1": 600 * 1024}}], [{"case": "a", "memory": {"UB": 0}}])
    assert row["status"] == "DISAGREE" and row["detail"].startswith("L1:")


def test_a_kernel_only_one_compiler_refuses_is_a_compile_disagreement():
    refused = {"case": "a", "error": "RuntimeError: Failed to run passes: ...", "line": 12,
               "message": "'asctile.cast' op from 'f32' to 'i8' is not supported"}
    (row,) = _run([refused], [{"case": "a", "memory": {"UB": 10}}])
    assert (row["status"], row["aspect"]) == ("DISAGREE", "compile")
    assert "pyasc-dev's compiler refuses (line 12)" in row["detail"] and "'f32' to 'i8'" in row["detail"]
    (row,) = _run([{"case": "a", "memory": {"UB": 10}}], [{"case": "a", "error": "ValueError: no", "message": "no"}])
    assert row["status"] == "DISAGREE" and "this engine refuses" in row["detail"]


def test_both_refusing_agree_only_when_pyascs_message_is_in_this_engines():
    up = {"case": "a", "error": "RuntimeError: Failed to run passes: ...",
          "message": "Not supporting tiles with dims greater than 2"}
    (row,) = _run([up], [{"case": "a", "error": "CodegenError: at k.py:13:9:\nNot supporting tiles with dims "
                                                 "greater than 2\nhint: ..."}])
    assert row["status"] == "both refuse"
    (row,) = _run([up], [{"case": "a", "error": "CodegenError: at k.py:13:9:\n  13 | t = x.T\n"
                                                 "RuntimeError: rank 3 is not supported\nhint: h", "message": "?"}])
    assert (row["status"], row["aspect"]) == ("DISAGREE", "compile")
    assert row["detail"].endswith("here 'RuntimeError: rank 3 is not supported'")
    front_end = {"case": "a", "error": "CodegenError: at <source>:3:4: offsets must be ints", "message": "x"}
    (row,) = _run([front_end], [{"case": "a", "error": "CodegenError: 'offsets' needs ints", "message": "y"}])
    assert row["status"] == "both refuse"           # front-end messages are conformance's to compare


def test_launches_are_matched_by_case_and_the_summary_counts_them():
    rows = _run([{"case": "a", "memory": {"UB": 10}}, {"case": "b", "error": "E: x", "message": "x"},
                 {"case": "c", "memory": {"UB": 8}}],
                [{"case": "b", "memory": {"UB": 10}}, {"case": "a", "memory": {"UB": 12}}])
    assert [(r["launch"], r["status"]) for r in rows] == [("a", "differs"), ("b", "DISAGREE"),
                                                          ("c", "not compared")]
    memory.judge(rows, {("other", "compile"): {"kind": "engine-check", "reason": "r"}})
    s = memory.summary(rows)
    assert (s["both_compile"], s["differs"], s["pyasc_refuses"], s["compile_disagree"]) == (1, 1, 1, 1)
    assert (s["not_allowed"], s["here_higher"], s["ub_ratio_median"]) == (1, 1, 1.2)


def test_an_allow_list_entry_allows_its_case_and_aspect_only():
    rows = _run([{"case": "a", "error": "E: x", "message": "x"}], [{"case": "a", "memory": {"UB": 1}}])
    memory.judge(rows, {("c", "memory"): {"kind": "engine-check", "reason": "r"}})
    assert rows[0]["allowed"] is None
    memory.judge(rows, {("c", "compile"): {"kind": "engine-check", "reason": "why"}})
    assert rows[0]["allowed"] == {"kind": "engine-check", "reason": "why"}


CASE = '''
import numpy as np
from asc.experimental import asctile

EXPECT = "accept"
OP = "copy"
DTYPE = "float32"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [{"id": "small", "n": 256}, {"id": "large", "n": 4096}]


@asctile.jit(always_compile=True)
def copy_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, n: int, tile: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [n])
    o_gm = asctile.global_tensor(out_ptr, [n])
    t = asctile.copy_in(x_gm, [0], [tile])
    asctile.copy_out(t * 2.0, o_gm, [0])


def make_inputs(case):
    return (np.ones(case["n"], np.float32),)


def launch(x):
    out = np.zeros_like(x)
    copy_kernel[1](x, out, x.size, x.size)
    return out


def reference(x):
    return x * 2
'''


def test_the_driver_reports_this_engines_plan_per_case_without_running(tmp_path):
    case = tmp_path / "case.py"
    case.write_text(CASE)
    result = tmp_path / "r.json"
    subprocess.run([sys.executable, str(DRIVER), str(case), str(result), "Ascend950PR_9599"], check=True,
                   timeout=300)
    launches = json.loads(result.read_text())["launches"]
    assert [l["case"] for l in launches] == ["small", "large"]
    small, large = (l["memory"]["UB"] for l in launches)
    assert small > 0 and large == 16 * small              # the tiles (input and result) scale with n


@pytest.mark.skipif(not os.environ.get("PYASC_DEV_PYTHON"), reason="no pyasc-dev interpreter configured "
                    "(set PYASC_DEV_PYTHON to ~/.cache/asc-embedded/pyasc-dev/bin/python; make conformance)")
def test_pyasc_dev_reports_the_same_ub_for_a_plain_copy(tmp_path):
    case = tmp_path / "case.py"
    case.write_text(CASE)
    up = memory.run_driver(Path(os.environ["PYASC_DEV_PYTHON"]), case, "Ascend950PR_9599", 300)
    here = memory.run_driver(Path(sys.executable), case, "Ascend950PR_9599", 300)
    rows = memory.compare_launches("case", "Ascend950PR_9599", up, here, memory.capacities("Ascend950PR_9599"))
    assert [r["status"] for r in rows] == ["equal", "equal"], rows


@pytest.mark.skipif(not os.environ.get("PYASC_DEV_PYTHON"), reason="no pyasc-dev interpreter configured")
def test_pyasc_devs_compiler_refuses_what_its_interpreter_lets_through(tmp_path):
    """A float32 -> int8 cast passes pyasc-dev's interpreter mode; its compiler refuses it at the line."""
    case = tmp_path / "narrow.py"
    case.write_text(textwrap.dedent('''
        import numpy as np
        from asc.experimental import asctile

        EXPECT = "accept"

        @asctile.jit
        def narrow(x_ptr, i8_ptr):
            x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
            asctile.copy_out(x.to(asctile.int8), asctile.global_tensor(i8_ptr, [1, 64]), [0, 0])

        def run():
            i8 = np.zeros((1, 64), np.int8)
            narrow[1](np.zeros((1, 64), np.float32), i8)
            return {"i8": i8}
    '''))
    up = memory.run_driver(Path(os.environ["PYASC_DEV_PYTHON"]), case, "Ascend950PR_9599", 300)
    (first,) = up["launches"]
    assert "'f32' to 'i8' is not supported" in first["message"] and first["line"] == 10, first


def test_the_command_compares_a_corpus_and_exits_by_the_verdicts(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "copy.py").write_text(CASE)
    (corpus / "bad.py").write_text(textwrap.dedent('''
        EXPECT = "reject"
        def run():
            raise ValueError("not compared: rejected cases have no memory figure")
    '''))
    # this engine's interpreter as both sides: every launch is equal
    rc = memory.main(["--corpus", str(corpus), "--pyasc-python", sys.executable, "--platform", "Ascend910B1",
                      "--json", str(tmp_path / "m.json"), "--all"])
    out = capsys.readouterr().out
    assert rc == 0, out
    report = json.loads((tmp_path / "m.json").read_text())
    assert report["summary"]["equal"] == 2 and report["summary"]["both_compile"] == 2
    assert report["summary"]["both_refuse"] == 1     # bad.py: both raise its own error
    assert "copy" in out
