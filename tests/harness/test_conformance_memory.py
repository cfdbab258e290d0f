"""conformance-memory: the on-chip figures of pyasc-dev's compiler against this engine's memory plan, compared
per launch and judged by the side of the platform's capacity each falls on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from asc_harness.conform import memory

C310_UB = 248 * 1024
DRIVER = Path(memory.__file__).with_name("memory_driver.py")


def _run(up, here, caps=None):
    return memory.compare_launches("c", "Ascend950PR_9599", {"launches": up}, {"launches": here},
                                   caps or {"UB": C310_UB, "L1": 512 * 1024})


def test_figures_on_both_sides_of_the_capacity_disagree_by_one_byte():
    (row,) = _run([{"case": "a", "memory": {"UB": C310_UB}}], [{"case": "a", "memory": {"UB": C310_UB + 1}}])
    assert row["status"] == "DISAGREE" and row["memories"] == ["UB"]
    (row,) = _run([{"case": "a", "memory": {"UB": C310_UB}}], [{"case": "a", "memory": {"UB": C310_UB - 1}}])
    assert row["status"] == "differs"                      # both fit: the figures differ, the verdict agrees
    (row,) = _run([{"case": "a", "memory": {"UB": 4096}}], [{"case": "a", "memory": {"UB": 4096}}])
    assert row["status"] == "equal"


def test_a_memory_only_one_engine_reports_counts_as_zero_there():
    """pyasc-dev reports L1 / L0 for cube kernels; a plan without them has 0 bytes there."""
    (row,) = _run([{"case": "a", "memory": {"UB": 0, "L1": 600 * 1024}}], [{"case": "a", "memory": {"UB": 0}}])
    assert row["status"] == "DISAGREE" and row["memories"] == ["L1"]


def test_launches_are_matched_by_case_and_a_missing_figure_is_not_compared():
    rows = _run([{"case": "a", "memory": {"UB": 10}}, {"case": "b", "error": "RuntimeError: Failed to run passes"}],
                [{"case": "b", "memory": {"UB": 10}}, {"case": "a", "memory": {"UB": 12}}])
    assert [(r["launch"], r["status"]) for r in rows] == [("a", "differs"), ("b", "not compared")]
    assert "Failed to run passes" in rows[1]["note"]
    s = memory.summary(rows)
    assert (s["compared"], s["differs"], s["here_higher"], s["ub_ratio_median"]) == (1, 1, 1, 1.2)


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
    assert report["summary"]["equal"] == 2 and report["summary"]["compared"] == 2
    assert "copy" in out and "bad" not in out
