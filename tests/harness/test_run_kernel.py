"""run_file / run_kernel on small kernel files: golden interface, plain scripts, every failure category."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from asc_harness.run import run_kernel
from asc_harness.store import sync_capabilities
from asc_harness.store.evidence import build_record, validate_record
from asc_harness.store.evidence_read import load_record
from asc_harness.store.registry import load_registry
from asc_harness.run.runner import run_cell, run_file

from conftest import ABS, write_kernel

HEADER = '''
import numpy as np
OP = "abs"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}
CASES = [{"id": "small", "shape": [4, 8]}, {"id": "tight", "shape": [64], "atol": 0.0, "rtol": 0.0},
         {"id": "big", "shape": [256, 64], "full_only": True}]

def make_inputs(case):
    rng = np.random.default_rng(2026)
    return (rng.random(case["shape"], dtype=np.float32) * 10 - 5,)

def reference(x):
    return np.abs(x)
'''

GOOD = HEADER + '''
def launch(x):
    print("Total tick: 40")
    print("Total tick: 2")
    return np.abs(x)
'''
WRONG = HEADER + '''
def launch(x):
    return np.abs(x) + 0.5
'''
NAN = HEADER + '''
def launch(x):
    out = np.abs(x)
    out.flat[3] = np.nan
    return out
'''
HANG = HEADER + '''
import time
def launch(x):
    if x.size == 64:
        time.sleep(300)
    return np.abs(x)
'''
CRASH = HEADER + '''
import os, signal
def launch(x):
    if x.size == 64:
        os.kill(os.getpid(), signal.SIGSEGV)
    return np.abs(x)
'''
RAISES = HEADER + '''
class CodegenError(Exception):
    pass
def launch(x):
    if x.size == 64:
        raise CodegenError("at kernel.py:3:5: unsupported syntax")
    raise RuntimeError("device fell over")
'''
MEMORY = HEADER + '''
def launch(x):
    hoard = []
    while True:
        hoard.append(bytearray(64 << 20))
'''
GARBAGE = HEADER + '''
import os, sys
def launch(x):
    os.write(1, bytes(range(256)) * 64)
    sys.stderr.write("\\x00\\x1b[31mnot json {{{\\n")
    return np.abs(x)
'''
CLOBBER = HEADER + '''
import os
def launch(x):
    argv = open("/proc/self/cmdline", "rb").read().split(b"\\0")
    result = argv[argv.index(b"--result") + 1].decode()
    open(result, "w").write("\\x00garbage{")
    os._exit(0)
'''
EXIT_ON_IMPORT = HEADER + '''
import os
os._exit(3)
def launch(x):
    return x
'''
SYNTAX = HEADER + '''
def launch(x)
    return x
'''
TUPLE = '''
import numpy as np
OP = "add"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}
CASES = [{"id": "pair", "shape": [8]}]
def make_inputs(case):
    return np.ones(8, np.float16), np.ones(8, np.float16), 2.0
def launch(x, y, scale):
    return (x + y) * scale, (x - y)
def reference(x, y, scale):
    return ((x.astype(np.float32) + y) * scale, np.zeros(8))
'''

SCRIPT_OK = '''
import argparse, sys
p = argparse.ArgumentParser()
p.add_argument("-r")
p.add_argument("-v")
a = p.parse_args()
print("running on", a.r, a.v)
sys.exit(0 if (a.r, a.v) == ("Model", "Ascend950PR_9599") else 5)
'''
SCRIPT_ASSERT = '''
import numpy as np
np.testing.assert_allclose(np.ones(3), np.zeros(3))
'''
SCRIPT_EXIT = '''
import sys
print("Total tick: 77")
sys.exit(3)
'''
SCRIPT_CODEGEN = '''
class CodegenError(Exception):
    pass
raise CodegenError("'x' was re-assigned to an object with different type")
'''


def run(tmp_path: Path, source: str, name: str = "kernel.py", **kw):
    path = write_kernel(tmp_path, name, source)
    kw.setdefault("timeout_s", 60)
    kw.setdefault("memory_mb", 2048)
    kw.setdefault("repo", None)
    return run_file(path, **kw)


def by_id(result):
    return {c["id"]: c for c in result["cases"]}


def test_passing_golden_file(tmp_path):
    r = run(tmp_path, GOOD)
    assert r["mode"] == "golden" and r["status"] == "pass" and r["failure"] is None and r["runtime_verified"]
    cases = by_id(r)
    assert list(cases) == ["small", "tight", "big"]
    assert cases["small"] == {**cases["small"], "status": "pass", "max_abs_err": 0.0, "max_rel_err": 0.0,
                              "mismatches": 0, "elements": 32, "ticks": 42, "atol": 1e-3, "rtol": 1e-3}
    assert cases["tight"]["atol"] == 0.0 and cases["big"]["elements"] == 256 * 64
    assert r["op"] == "abs" and r["dtype"] == "float32" and r["seed"] == 2026 and r["engine_version"]


def test_quick_skips_full_only_cases(tmp_path):
    r = run(tmp_path, GOOD, quick=True)
    assert r["status"] == "pass"
    assert by_id(r)["big"]["status"] == "skipped"


def test_numeric_mismatch(tmp_path):
    r = run(tmp_path, WRONG)
    assert r["status"] == "fail" and r["failure"]["category"] == "numeric_mismatch"
    small = by_id(r)["small"]
    assert small["status"] == "fail" and small["mismatches"] == 32 and small["elements"] == 32
    assert small["max_abs_err"] == pytest.approx(0.5)
    assert small["max_rel_err"] > 0.05
    assert "case small" in r["failure"]["message"]


def test_nan_where_reference_is_finite_is_a_mismatch(tmp_path):
    r = run(tmp_path, NAN)
    small = by_id(r)["small"]
    assert small["status"] == "fail" and small["mismatches"] == 1 and small["max_abs_err"] == 0.0
    assert "NaN/Inf" in small["message"]


def test_multiple_outputs_and_scalars(tmp_path):
    r = run(tmp_path, TUPLE)
    assert r["status"] == "pass" and by_id(r)["pair"]["elements"] == 16


def test_hang_times_out_and_keeps_finished_cases(tmp_path):
    r = run(tmp_path, HANG, timeout_s=3)
    assert r["status"] == "timeout" and r["failure"]["category"] == "timeout" and r["timed_out"]
    cases = by_id(r)
    assert cases["small"]["status"] == "pass"
    assert cases["tight"]["status"] == "timeout"
    assert cases["big"]["status"] == "skipped" and "not run" in cases["big"]["message"]
    assert r["wall_time_s"] < 30


def test_crash_is_a_runtime_error(tmp_path):
    r = run(tmp_path, CRASH)
    assert r["status"] == "error" and r["failure"]["category"] == "runtime_error"
    assert "SIGSEGV" in r["failure"]["message"] and "case tight" in r["failure"]["message"]
    assert by_id(r)["small"]["status"] == "pass"


def test_exceptions_are_classified_per_case(tmp_path):
    r = run(tmp_path, RAISES)
    cases = by_id(r)
    assert cases["small"]["category"] == "runtime_error" and "device fell over" in cases["small"]["message"]
    assert cases["tight"]["category"] == "compile_error"
    assert cases["big"]["status"] == "error"                    # later cases still run
    assert r["failure"]["category"] == "runtime_error"


def test_syntax_error_is_a_compile_error(tmp_path):
    r = run(tmp_path, SYNTAX)
    assert r["status"] == "error" and r["failure"]["category"] == "compile_error"
    assert "line" in r["failure"]["message"]


def test_unbounded_allocation_is_a_memory_failure(tmp_path):
    r = run(tmp_path, MEMORY, memory_mb=600)
    assert r["status"] == "error" and r["failure"]["category"] == "memory"


def test_garbage_output_does_not_matter(tmp_path):
    r = run(tmp_path, GARBAGE)
    assert r["status"] == "pass"
    assert "\ufffd" in r["stdout"]


def test_garbage_result_is_an_infrastructure_failure(tmp_path):
    r = run(tmp_path, CLOBBER)
    assert r["status"] == "error" and r["failure"]["category"] == "infrastructure"
    assert "unreadable" in r["failure"]["message"]
    assert not r["runtime_verified"]


def test_probe_dying_without_result(tmp_path):
    r = run(tmp_path, EXIT_ON_IMPORT)
    assert r["status"] == "error" and r["failure"]["category"] == "infrastructure"
    assert "exit code 3" in r["failure"]["message"]


@pytest.mark.parametrize("source, status, category", [
    (SCRIPT_OK, "pass", None),
    (SCRIPT_ASSERT, "fail", "numeric_mismatch"),
    (SCRIPT_EXIT, "error", "runtime_error"),
    (SCRIPT_CODEGEN, "error", "compile_error"),
])
def test_plain_scripts_are_judged_by_exit_code(tmp_path, source, status, category):
    r = run(tmp_path, source)
    assert r["mode"] == "script" and r["status"] == status
    assert (r["failure"] or {}).get("category") == category
    assert r["cases"][0]["id"] == "script"
    if source is SCRIPT_EXIT:
        assert r["cases"][0]["ticks"] == 77 and "exit code 3" in r["failure"]["message"]


FAKE_CONFIG = '''
import enum
class Backend(enum.Enum):
    Model = "Model"
    NPU = "NPU"
class Platform(enum.Enum):
    Ascend910B1 = "Ascend910B1"
    Ascend950PR_9599 = "Ascend950PR_9599"
STATE = None
def set_platform(backend, soc_version=None, device_id=None, check=True):
    global STATE
    STATE = (backend, soc_version)
'''
USES_ASC = HEADER + '''
import json, os
import asc
from asc.runtime import config
def launch(x):
    assert config.STATE == (config.Backend.Model, config.Platform.Ascend950PR_9599), config.STATE
    with open(os.environ["ASC_LAUNCH_REPORT"], "a") as fh:
        fh.write(json.dumps({"kernel": "k", "ticks": 11}) + "\\n" + json.dumps({"kernel": "k", "ticks": 5}) + "\\n")
    return np.abs(x)
'''


@pytest.fixture
def fake_asc(tmp_path):
    pkg = tmp_path / "fakeasc" / "asc"
    (pkg / "runtime").mkdir(parents=True)
    (pkg / "__init__.py").write_text('__version__ = "9.9.9-fake"\n')
    (pkg / "runtime" / "__init__.py").write_text("")
    (pkg / "runtime" / "config.py").write_text(FAKE_CONFIG)
    return tmp_path / "fakeasc"


def test_set_platform_and_launch_reports(tmp_path, fake_asc):
    r = run(tmp_path, USES_ASC, sys_path=[fake_asc])
    assert r["status"] == "pass", r["failure"]
    assert r["engine_version"] == "9.9.9-fake"
    assert [c["ticks"] for c in r["cases"]] == [16, 16, 16]  # launch-report lines summed per case


def test_unknown_platform_is_infrastructure(tmp_path, fake_asc):
    r = run(tmp_path, USES_ASC, sys_path=[fake_asc], platform="Ascend999")
    assert r["status"] == "error" and r["failure"]["category"] == "infrastructure"
    assert "not a config.Platform value" in r["failure"]["message"] and not r["runtime_verified"]


def test_pyasc_engine(tmp_path, monkeypatch):
    monkeypatch.delenv("PYASC_PYTHON", raising=False)
    r = run(tmp_path, GOOD, engine="pyasc")
    assert r["failure"]["category"] == "infrastructure" and "PYASC_PYTHON" in r["failure"]["message"]
    cann = tmp_path / "cann"
    cann.mkdir()
    (cann / "version.cfg").write_text("# toolkit\nversion=9.0.0\n")
    monkeypatch.setenv("PYASC_PYTHON", sys.executable)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(cann))
    monkeypatch.setenv("UNRELATED_SECRET", "x")
    checks_env = GOOD.replace("def launch(x):", textwrap.dedent('''
        import os
        def launch(x):
            assert "UNRELATED_SECRET" not in os.environ
            assert os.environ["LD_LIBRARY_PATH"].startswith(os.environ["ASCEND_HOME_PATH"] + "/tools/simulator/Ascend950PR_9599/lib")
        ''').strip() + "\n   ")
    r = run(tmp_path, checks_env, name="pyasc_kernel.py", engine="pyasc")
    assert r["status"] == "pass", r["failure"]
    assert r["engine"] == "pyasc" and r["cann_version"] == "9.0.0"
    assert by_id(r)["small"]["ticks"] == 42


@pytest.mark.parametrize("kind", ["bubblewrap", "process-tree"])
def test_repository_changes_fail_the_run_and_change_nothing(ws, tmp_path, monkeypatch, kind):
    from asc_harness.run import confinement, sandbox

    monkeypatch.setenv("ASC_SANDBOX", kind)
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    victim = ws.root / "golden/kernels/add_f16.py"
    before = victim.read_bytes()
    src = GOOD.replace("def launch(x):", f"def launch(x):\n    open({str(victim)!r}, 'a').write('# tampered')")
    r = run(tmp_path, src, repo=ws.root)
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    assert r["status"] == "error" and victim.read_bytes() == before
    assert r["sandbox"]["confinement"] == kind and r["sandbox"]["network"] is False
    if kind == "bubblewrap":
        assert "Read-only file system" in r["failure"]["message"] and r["sandbox"]["tampering"] == []
    else:
        assert "golden/kernels/add_f16.py (modified, restored)" in r["failure"]["message"]
        assert r["sandbox"]["tampering"] == ["golden/kernels/add_f16.py (modified, restored)"]


def test_run_cell_builds_a_valid_record(ws):
    reg = load_registry(ws.cap)
    rec = run_cell(reg.cell(ABS), root=ws.root, timeout_s=60, memory_mb=2048)
    assert validate_record(rec) == []
    assert rec["kernel"] == "golden/kernels/abs_f16.py" and rec["status"] == "pass"
    assert rec["provenance"]["engine_version"] and rec["provenance"]["seed"] == 2026
    assert [c["ticks"] for c in rec["cases"]] == [100, 100]
    assert not list(ws.evidence.rglob("*.json"))                # side-effect free


# --------------------------------------------------------------------------------------------------
# the command line


def test_cli_table_and_exit_codes(tmp_path, capsys):
    good = write_kernel(tmp_path, "good.py", GOOD)
    wrong = write_kernel(tmp_path, "wrong.py", WRONG)
    assert run_kernel.main([str(good), "--quick"]) == 0
    out = capsys.readouterr().out
    assert "max_abs_err" in out and "small" in out and "PASS" in out and "skipped" in out
    assert "file(s) passed" not in out            # one file: no total line
    assert run_kernel.main([str(good), str(wrong)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "numeric_mismatch" in out and "1 of 2 file(s) passed" in out


def test_cli_json(tmp_path, capsys):
    good = write_kernel(tmp_path, "good.py", GOOD)
    assert run_kernel.main([str(good), "--json", "--quick"]) == 0
    (item,) = json.loads(capsys.readouterr().out)
    assert item["status"] == "pass" and item["cases"][0]["ticks"] == 42 and item["evidence"] is None


def test_cli_user_errors(tmp_path, capsys):
    assert run_kernel.main([str(tmp_path / "missing.py")]) == 2
    err = capsys.readouterr().err
    assert "kernel file not found" in err and "Traceback" not in err
    with pytest.raises(SystemExit, match="^2$") as exc:
        run_kernel.main(["-r", "GPU", str(tmp_path)])
    assert exc.value.code == 2
    good = write_kernel(tmp_path, "good.py", GOOD)
    assert run_kernel.main([str(good), "--timeout", "0"]) == 2


def test_cli_evidence_then_sync(ws, capsys):
    golden = ws.root / "golden/kernels/abs_f16.py"
    assert run_kernel.main([str(golden), "--evidence", *ws.args()]) == 0
    out = capsys.readouterr().out
    assert "evidence: evidence/abs/float16/Ascend950PR_9599/golden-" in out
    (path,) = list((ws.evidence / ABS).glob("golden-*.json"))
    rec = load_record(path)
    assert rec["cell"] == ABS and rec["kernel"] == "golden/kernels/abs_f16.py" and rec["runtime_verified"]
    assert sync_capabilities.main(ws.args()) == 0
    cell = load_registry(ws.cap).cell(ABS)
    assert cell["golden_status"] == "confirmed" and cell["perf_status"] == "measured"

    stray = write_kernel(ws.root, "stray.py", GOOD)
    assert run_kernel.main([str(stray), "--evidence", *ws.args()]) == 2
    assert "is not the golden kernel or Ascend C reference of any cell" in capsys.readouterr().err


def test_thin_script_entry_point(tmp_path):
    import subprocess

    from asc_harness.common.paths import default_root

    script = default_root() / "tests" / "tools" / "run_kernel.py"
    good = write_kernel(tmp_path, "good.py", GOOD)
    proc = subprocess.run([sys.executable, str(script), str(good), "--quick"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "PASS" in proc.stdout


def test_cli_cells_runs_goldens_of_matching_cells(ws, capsys):
    assert run_kernel.main(["--cells", "abs/*", "--json", "--quick", *ws.args()]) == 0
    (item,) = json.loads(capsys.readouterr().out)
    assert item["file"].endswith("golden/kernels/abs_f16.py") and item["status"] == "pass"
    assert run_kernel.main(["--cells", "matmul", *ws.args()]) == 2          # no golden kernel
    assert "has no golden kernel" in capsys.readouterr().err
    assert run_kernel.main([]) == 2
    assert "nothing to run" in capsys.readouterr().err


def test_trace_writes_one_chrome_trace_per_launch(tmp_path, capsys):
    src = '''
import numpy as np
import asc
import asc2
OP = "abs"
DTYPE = "float32"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [{"id": "one", "shape": [256]}, {"id": "two", "shape": [1024]}]

@asc2.jit
def abs_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    for t in asc2.range(asc2.block_idx(), n // 256, asc2.block_num(), unroll_factor=2, parallel=True):
        asc2.store(asc2.abs(asc2.load(x_gm, [256], offsets=[t * 256])), o_gm, offsets=[t * 256])

def make_inputs(case):
    return (np.linspace(-1, 1, case["shape"][0], dtype=np.float32),)

def launch(x):
    out = np.zeros_like(x)
    abs_kernel[2](x, out, x.size)
    if x.size > 256:
        abs_kernel[4](x, out, x.size)   # a second launch in the same case
    return out

def reference(x):
    return np.abs(x)
'''
    path = write_kernel(tmp_path, "traced.py", src)
    dest = tmp_path / "traces"
    assert run_kernel.main([str(path), "--trace", str(dest)]) == 0
    assert "traces: 3 launch trace(s)" in capsys.readouterr().out
    files = sorted(p.name for p in (dest / "traced").iterdir())
    assert files == ["one-0001-abs_kernel.json", "two-0002-abs_kernel.json", "two-0003-abs_kernel.json"]
    trace = json.loads((dest / "traced" / "two-0003-abs_kernel.json").read_text())
    names = {e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "thread_name"}
    assert "block 3 MTE2" in names and "block 4 MTE2" not in names
    assert all(e["ph"] in ("M", "X", "s", "f") for e in trace["traceEvents"])


def test_trace_dir_must_be_a_directory(tmp_path, capsys):
    good = write_kernel(tmp_path, "k.py", GOOD)
    clash = tmp_path / "file"
    clash.write_text("x")
    assert run_kernel.main([str(good), "--trace", str(clash)]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_perf_gate_fails_a_case_more_than_5_percent_slower_than_its_last_evidence(ws, capsys):
    golden = ws.root / "golden/kernels/abs_f16.py"       # its case 4x8 reports 100 ticks
    ws.record(ticks=96)                                    # 100 <= 96 * 1.05: within the limit
    assert run_kernel.main([str(golden), "--quick", "--perf-gate", *ws.args()]) == 0
    assert "PERF REGRESSION" not in capsys.readouterr().out
    newest = ws.record(ticks=95)                           # 100 > 95 * 1.05
    assert run_kernel.main([str(golden), "--quick", "--perf-gate", *ws.args()]) == 1
    out = capsys.readouterr().out
    assert "PERF REGRESSION  case 4x8: 100 ticks vs 95 in the last evidence (+5.3%, limit +5%)" in out
    assert newest.name in out
    # a failing or unverified record is not a baseline: the newest passing one is
    ws.record(ticks=10, status="fail")
    ws.record(ticks=10, runtime_verified=False)
    assert run_kernel.main([str(golden), "--quick", "--perf-gate", *ws.args()]) == 1
    assert "vs 95 in the last evidence" in capsys.readouterr().out
    # accepting the change: new evidence becomes the baseline
    assert run_kernel.main([str(golden), "--quick", "--evidence", *ws.args()]) == 0
    assert run_kernel.main([str(golden), "--quick", "--perf-gate", *ws.args()]) == 0


def test_perf_gate_without_evidence_passes_and_needs_a_golden_cell(ws, capsys):
    golden = ws.root / "golden/kernels/abs_f16.py"
    assert run_kernel.main([str(golden), "--quick", "--perf-gate", "--json", *ws.args()]) == 0
    assert json.loads(capsys.readouterr().out)[0]["perf_regressions"] == []
    stray = write_kernel(ws.root, "stray.py", GOOD)
    assert run_kernel.main([str(stray), "--perf-gate", *ws.args()]) == 2
    assert "no evidence to gate its ticks against" in capsys.readouterr().err


def test_golden_cases_record_their_roofline_efficiency(tmp_path):
    src = (Path(__file__).parent / "test_run_kernel.py").read_text()
    kernel = src.split("    src = '''", 1)[1].split("'''", 1)[0]     # the traced abs kernel above
    r = run(tmp_path, kernel, name="roof.py")
    assert r["status"] == "pass"
    roofs = [c["roofline"] for c in r["cases"]]
    assert all(0 < x < 1 for x in roofs)
    assert roofs[1] > roofs[0]      # 4 blocks moving 4x the bytes: a larger share of the floor is useful work
    rec = build_record(r, cell=ABS, root=tmp_path, kernel=tmp_path / "roof.py")
    assert [c["roofline"] for c in rec["cases"]] == roofs and validate_record(rec) == []


def test_the_engine_bytecode_is_compiled_beside_it_once_per_process(monkeypatch):
    """Sandboxed kernel processes cannot write bytecode: the harness compiles what is missing, once."""
    import importlib.util
    import os

    import asc.sim.timeline as module
    from asc_harness.run import bytecode

    source = Path(module.__file__)
    pyc = Path(importlib.util.cache_from_source(str(source)))
    assert os.access(source.parent, os.W_OK), "the engine's sources are read-only here"
    monkeypatch.setattr(bytecode, "_warmed", [])
    pyc.unlink(missing_ok=True)
    bytecode.warm_bytecode()
    assert pyc.is_file() and pyc.stat().st_mtime >= source.stat().st_mtime
    pyc.unlink()
    bytecode.warm_bytecode()  # done already in this process: no second pass over the sources
    assert not pyc.exists()
    monkeypatch.setattr(bytecode, "_warmed", [])
    bytecode.warm_bytecode()  # put it back for the other tests of this process
    assert pyc.is_file()


def _with_reference(ws):
    """Give the abs cell an Ascend C reference kernel (here: a copy of its golden, 100 ticks a case)."""
    (ws.root / "golden" / "ascendc").mkdir()
    ref = ws.root / "golden" / "ascendc" / "abs_f16.py"
    ref.write_text((ws.root / "golden/kernels/abs_f16.py").read_text())
    ws.cap.write_text(ws.cap.read_text().replace("    golden: golden/kernels/abs_f16.py\n",
                                                 "    golden: golden/kernels/abs_f16.py\n"
                                                 "    ascendc: golden/ascendc/abs_f16.py\n", 1))
    return ref


def test_reference_kernels_run_as_their_own_kind_with_the_ratio_per_case(ws, capsys):
    ref = _with_reference(ws)
    assert run_kernel.main(["--cells", "add/*", "--ascendc", *ws.args()]) == 2
    assert "has an Ascend C reference kernel" in capsys.readouterr().err
    assert run_kernel.main(["--ascendc", str(ref), *ws.args()]) == 2        # --ascendc selects cells
    capsys.readouterr()
    golden = ws.record(ticks=125)                                           # the golden's 4x8: 125 ticks
    assert sync_capabilities.main(ws.args()) == 0
    capsys.readouterr()
    assert run_kernel.main(["--cells", "abs/*", "--ascendc", "--evidence", "--quick", "--json", *ws.args()]) == 0
    (item,) = json.loads(capsys.readouterr().out)
    assert item["kind"] == "ascendc" and item["file"].endswith("golden/ascendc/abs_f16.py")
    assert item["reference_ratios"]["4x8"] == 0.8                           # 100 reference / 125 golden
    (path,) = list((ws.evidence / ABS).glob("ascendc-*.json"))
    assert load_record(path)["kind"] == "ascendc" and load_record(path)["kernel"] == "golden/ascendc/abs_f16.py"
    assert sync_capabilities.main(ws.args()) == 0
    assert load_registry(ws.cap).cell(ABS)["evidence"]["golden"] == golden.relative_to(ws.root).as_posix()
    # a golden run's table shows the linked reference run's ticks over its own, flagged below 0.7
    ws.record(kind="ascendc", ticks=69)
    assert sync_capabilities.main(ws.args()) == 0
    capsys.readouterr()
    assert run_kernel.main([str(ws.root / "golden/kernels/abs_f16.py"), "--perf-gate", "--quick", *ws.args()]) == 0
    assert " 0.69 < " in capsys.readouterr().out                             # 69 reference / 100 golden


def test_perf_gate_keeps_golden_and_reference_records_apart(ws, capsys):
    ref = _with_reference(ws)
    ws.record(ticks=96)                                    # the golden's 100 ticks are within 5 % of it
    ws.record(kind="ascendc", ticks=50)                   # a faster reference is no baseline for the golden
    assert run_kernel.main([str(ws.root / "golden/kernels/abs_f16.py"), "--quick", "--perf-gate", *ws.args()]) == 0
    ws.record(kind="ascendc", ticks=90)                   # the reference is gated against its own runs
    assert run_kernel.main([str(ref), "--quick", "--perf-gate", *ws.args()]) == 1
    assert "vs 90 in the last evidence" in capsys.readouterr().out
