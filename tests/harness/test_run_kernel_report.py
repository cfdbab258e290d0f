"""What run_kernel prints for a person (docs/interfaces.md §3): one table row per case with its numbers,
the status line with the count of cases per status, each failing case's message once, and the number of
files that passed."""
from __future__ import annotations

import json

from asc_harness.run import run_kernel

from conftest import write_kernel
from test_run_kernel import GOOD, WRONG


def _rows(out):
    """The table rows of a report, split into cells, keyed by case id."""
    return {line.split()[0]: line.split() for line in out.splitlines()
            if line.split() and line.split()[0] in ("small", "tight", "big")}


def test_the_report_has_a_row_per_case_a_status_line_each_failure_once_and_the_total(tmp_path, capsys):
    good = write_kernel(tmp_path, "good.py", GOOD)
    wrong = write_kernel(tmp_path, "wrong.py", WRONG)
    assert run_kernel.main([str(good), str(wrong), "--quick", "--show-output"]) == 1
    out = capsys.readouterr().out
    passed, failed = out[:out.index("wrong.py")], out[out.index("wrong.py"):]
    rows = _rows(passed)
    #                  case     shape   status  max_abs max_rel mismatches atol     rtol     ticks
    assert rows["small"][:9] == ["small", "4x8", "pass", "0", "0", "0/32", "0.001", "0.001", "42"]
    assert rows["tight"][:9] == ["tight", "64", "pass", "0", "0", "0/64", "0", "0", "42"]
    # ... ticks, C/ours (no cell known: no reference to compare with), wall_s
    assert rows["big"] == ["big", "256x64", "skipped", "-", "-", "-", "0.001", "0.001", "-", "-", "-"]
    assert "PASS  (2 pass, 1 skipped; " in passed
    assert _rows(failed)["small"][:6] == ["small", "4x8", "fail", "0.5", "3.3", "32/32"]
    assert "FAIL  (2 fail, 1 skipped; " in failed
    assert "  numeric_mismatch: case small: 32 of 32 element(s) outside atol=0.001 + rtol=0.001*|ref|" in failed
    assert failed.count("case small: 32 of 32") == 1     # in the failure line, not repeated per case
    assert "\n  case tight: 64 of 64 element(s) outside atol=0 + rtol=0*|ref|" in failed
    assert out.rstrip().endswith("1 of 2 file(s) passed")
    assert "  --- stdout ---\n" in passed and "Total tick: 40" in passed   # --show-output: what the run printed


def test_paths_that_name_nothing_to_run_exit_2(tmp_path, capsys):
    assert run_kernel.main([str(tmp_path)]) == 2                       # a directory, not a kernel file
    assert f"not a file: {tmp_path}" in capsys.readouterr().err


def test_cells_with_evidence_write_one_record_per_matching_cell(ws, capsys):
    from conftest import ABS

    assert run_kernel.main(["--cells", "abs/*", "--evidence", "--json", *ws.args()]) == 0
    (item,) = json.loads(capsys.readouterr().out)
    (path,) = list((ws.evidence / ABS).glob("golden-*.json"))
    assert item["cell"] == ABS and item["evidence"] == path.relative_to(ws.root).as_posix()


# A kernel whose results are right but whose run warns: it loads its output before any block wrote it.
READS_ITS_OUTPUT = '''
import numpy as np
import asc2

OP = "copy"
DTYPE = "float32"
TOLERANCE = {"atol": 0, "rtol": 0}
CASES = [{"id": "small", "shape": [64]}, {"id": "tight", "shape": [128]}]


@asc2.jit
def k(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, T: asc2.ConstExpr[int]):
    out_gm = asc2.global_tensor(out_ptr, [n])
    old = asc2.copy_in(out_gm, [0], [T])
    asc2.copy_out(asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0], [T]) + old * 0.0, out_gm, [0])


def make_inputs(case):
    return (np.arange(case["shape"][0], dtype=np.float32),)


def launch(x):
    out = np.zeros_like(x)
    k[1](x, out, x.size, x.size)
    return out


def reference(x):
    return x
'''


def test_each_cases_warnings_are_shown_under_the_table_counted_and_fail_with_strict_warnings(tmp_path, capsys):
    path = write_kernel(tmp_path, "reads_output.py", READS_ITS_OUTPUT)
    assert run_kernel.main([str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for case, n in (("small", 64), ("tight", 128)):   # under the case's row
        row = next(i for i, line in enumerate(lines) if line.startswith(f"{case} "))
        assert lines[row + 1].startswith(f"  warning: reads_output.py:14: UninitializedReadWarning: load of "
                                         f"'out_ptr' reads {n} element(s) no block wrote")
    assert "PASS  (2 pass; 2 warning(s); " in out
    assert run_kernel.main([str(path), "--strict-warnings"]) == 1
    assert "WARNINGS  2 launch warning(s) with --strict-warnings" in capsys.readouterr().out
    assert run_kernel.main([str(path), "--strict-warnings", "--json"]) == 1
    (item,) = json.loads(capsys.readouterr().out)
    assert item["strict_warnings_failed"] is True
    (w,) = item["cases"][0]["warnings"]
    assert (w["kind"], w["where"]) == ("UninitializedReadWarning", "reads_output.py:14")


def test_a_run_without_warnings_passes_strict_warnings(tmp_path, capsys):
    path = write_kernel(tmp_path, "clean.py", READS_ITS_OUTPUT.replace(
        "old = asc2.copy_in(out_gm, [0], [T])", "old = asc2.zeros([T], dtype=asc2.float32)"))
    assert run_kernel.main([str(path), "--strict-warnings"]) == 0
    out = capsys.readouterr().out
    assert "  warning: " not in out and "PASS  (2 pass; " in out and "warning(s)" not in out
