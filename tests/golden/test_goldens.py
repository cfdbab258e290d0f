"""The golden kernel library: every case of every file through its interface, plus the file contracts.

Each golden file in ``golden/kernels/`` is imported by path and every entry of its ``CASES`` is run
the way the harness runs it (``make_inputs`` -> ``reference`` on copies -> ``launch``, float64
comparison with ``atol + rtol * |ref|``, no NaN/Inf where the reference is finite) on the embedded
simulator, Backend.Model, on every platform the registry has a cell of that file for -- one test item
per (file, case, platform), so pytest-xdist spreads them. Cases marked ``full_only`` run here too.
Every launch of a case must also leave a launch report without warnings.

The contract tests check what the harness and the registry rely on: the interface names, the
allowed imports (plain pyasc v2 source), agreement with the cell in ``capabilities.yaml`` (same
shapes in the same order, same tolerances), the ``test_<op>_<dtype>`` pytest entry point, and the
command line (``-r`` / ``-v`` validated as pyasc's scripts do).
"""
from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

import asc.runtime.config as config

REPO = Path(__file__).resolve().parents[2]
KERNELS = REPO / "golden" / "kernels"
PLATFORM = config.Platform.Ascend950PR_9599  # the default platform of the golden command line
FILES = sorted(p for p in KERNELS.glob("*.py") if not p.name.startswith("_"))
INTERFACE = ("OP", "DTYPE", "TOLERANCE", "CASES", "make_inputs", "launch", "reference", "run_kernel")
ALLOWED_IMPORTS = {"asc", "asc2", "asc.runtime.config", "asc.lib.runtime", "numpy", "torch", "math", "argparse",
                   "logging", "asc.runtime.launcher"}   # launcher: get_platform_info, pyasc's UB / L1 sizes
CHEAP_FILE = KERNELS / "abs_f16.py"
SHORT_DTYPE = {"float16": "f16", "float32": "f32", "bfloat16": "bf16", "int32": "i32"}


def _literal(path: Path, name: str):
    """A literal module-level assignment, read without importing the file."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(f"{path.name} has no literal {name}")


_MODULES: dict[Path, object] = {}


def _module(path: Path):
    if path not in _MODULES:
        spec = importlib.util.spec_from_file_location(f"golden_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _MODULES[path] = module
    return _MODULES[path]


def _to_float64(value):
    if hasattr(value, "detach"):
        import torch

        return value.detach().cpu().to(torch.float64).numpy()
    return np.asarray(value).astype(np.float64)


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _copy(inputs):
    return tuple(x.detach().clone() if hasattr(x, "detach") else x.copy() if hasattr(x, "copy") else x
                 for x in inputs)


def compare(outputs, references, atol, rtol):
    """Harness-style comparison; returns a list of problems (empty when the case passes)."""
    outs, refs = _as_tuple(outputs), _as_tuple(references)
    if len(outs) != len(refs):
        return [f"launch returned {len(outs)} output(s), reference {len(refs)}"]
    problems = []
    for k, (o, r) in enumerate(zip(outs, refs)):
        o64, r64 = _to_float64(o), _to_float64(r)
        if o64.shape != r64.shape:
            problems.append(f"output {k}: shape {o64.shape} but the reference has {r64.shape}")
            continue
        o64, r64 = o64.ravel(), r64.ravel()
        finite = np.isfinite(r64)
        bad_nonfinite = int(np.count_nonzero(finite & ~np.isfinite(o64)))
        same_special = (np.isnan(r64) & np.isnan(o64)) | (np.isinf(r64) & (o64 == r64))
        bad_special = int(np.count_nonzero(~finite & ~same_special))
        both = finite & np.isfinite(o64)
        diff = np.abs(o64[both] - r64[both])
        limit = atol + rtol * np.abs(r64[both])
        mismatches = int(np.count_nonzero(diff > limit))
        if bad_nonfinite or bad_special or mismatches:
            worst = int(np.argmax(diff - limit)) if diff.size else 0
            problems.append(
                f"output {k}: {mismatches} of {r64.size} element(s) outside atol={atol:g} + rtol={rtol:g}*|ref|, "
                f"{bad_nonfinite} NaN/Inf where the reference is finite, {bad_special} differing specials; "
                f"max abs err {diff.max() if diff.size else 0:.3g} (got {o64[both][worst] if diff.size else 'n/a'}, "
                f"want {r64[both][worst] if diff.size else 'n/a'})")
    return problems


def _registry():
    return yaml.safe_load((REPO / "capabilities.yaml").read_text())


def _cells():
    """golden file -> its cells (one per platform)."""
    out: dict[str, list] = {}
    for cell in _registry()["cells"]:
        out.setdefault(cell["golden"], []).append(cell)
    return out


def _case_params():
    params = []
    cells = _cells()
    for path in FILES:
        platforms = [c["platform"] for c in cells.get(f"golden/kernels/{path.name}", [])
                     if c["golden_status"] != "blocked"] or [PLATFORM.value]
        for platform in platforms:
            for case in _literal(path, "CASES"):
                marks = [pytest.mark.full_only] if case.get("full_only") else []
                params.append(pytest.param(path, case["id"], platform, id=f"{path.stem}-{case['id']}-{platform}",
                                           marks=marks))
    return params


@pytest.fixture
def simulator():
    yield
    config.set_platform(config.Backend.Model, PLATFORM)


class _Reports(list):
    """Stands in for the launcher's last-report slot: keeps every launch's report."""

    def __init__(self):
        super().__init__([None])
        self.all = []

    def __setitem__(self, i, report):
        self.all.append(report)
        super().__setitem__(i, report)


@pytest.fixture
def launch_reports(monkeypatch):
    import asc.runtime.launcher as launcher

    reports = _Reports()
    monkeypatch.setattr(launcher, "LAST_REPORT", reports)
    return reports.all


def test_library_is_complete():
    expected = {
        "abs_f16", "abs_f32", "add_bf16", "add_f16", "add_inplace_f16", "addcdiv_f16", "apply_adam_f32",
        "batch_norm_f32", "bmm_f16", "broadcast_f16", "cast_bf16", "cast_f16", "dropout_f16", "gelu_f16",
        "gelu_f32", "kl_div_f32", "layer_norm_bf16", "layer_norm_f16", "leaky_relu_f16", "matmul_f16",
        "one_hot_i32", "reciprocal_f32", "reduce_max_f32", "reduce_sum_bf16", "reduce_sum_f16", "reduce_sum_f32",
        "rms_norm_bf16", "rms_norm_f16", "rms_norm_f32", "select_f16", "softmax_bf16", "softmax_f16",
        "softmax_f32", "split_f16", "tanh_f16", "transpose_f16"}
    assert {p.stem for p in FILES} == expected
    registered = {Path(g).stem for g in _cells()}
    assert registered == expected, "every registry cell has a golden file and vice versa"


@pytest.mark.parametrize("path, case_id, platform", _case_params())
def test_case(path, case_id, platform, simulator, launch_reports):
    config.set_platform(config.Backend.Model, config.Platform(platform))
    module = _module(path)
    case = next(c for c in module.CASES if c["id"] == case_id)
    atol = float(case.get("atol", module.TOLERANCE["atol"]))
    rtol = float(case.get("rtol", module.TOLERANCE["rtol"]))
    inputs = _as_tuple(module.make_inputs(case))
    again = _as_tuple(module.make_inputs(case))
    for a, b in zip(inputs, again):
        assert np.array_equal(_to_float64(a), _to_float64(b)), "make_inputs is not deterministic (seed 2026)"
    expected = module.reference(*_copy(inputs))
    outputs = module.launch(*inputs)
    problems = compare(outputs, expected, atol, rtol)
    assert not problems, f"{path.name} case {case_id}: " + "; ".join(problems)
    # A golden is a correct kernel: its launches run clean (no race, coverage or undefined-data warning).
    assert launch_reports, "launch() launched no kernel"
    warned = [w for r in launch_reports for w in r["warnings"]]
    assert not warned, f"{path.name} case {case_id} on {platform}: the launch report warns: {warned}"
    for a, b in zip(inputs, again):
        assert np.array_equal(_to_float64(a), _to_float64(b)), "launch modified its inputs"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_file_contract(path):
    source = path.read_text()
    tree = ast.parse(source)
    doc = ast.get_docstring(tree)
    assert doc and "Tolerance" in doc and "Cell metadata" in doc and "Non-obvious constraints" in doc, \
        "the module docstring documents the operation, cell metadata, constraints and tolerances"
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    assert imported <= ALLOWED_IMPORTS, f"imports outside plain pyasc v2 source: {sorted(imported - ALLOWED_IMPORTS)}"
    defined = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    defined |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    missing = [n for n in INTERFACE if n not in defined]
    assert not missing, f"missing interface names: {missing}"
    assert "__main__" in source and "Unsupported Platform!" in source and "Unsupported Backend!" in source

    op, dtype = _literal(path, "OP"), _literal(path, "DTYPE")
    assert path.stem == f"{op}_{SHORT_DTYPE[dtype]}"
    assert f"test_{op}_{dtype}" in defined, f"pytest entry point test_{op}_{dtype} is missing"

    cells = _cells()[f"golden/kernels/{path.name}"]
    assert sorted(c["platform"] for c in cells) == sorted(_registry()["platforms"]), \
        "the file has one cell per registry platform"
    tolerance, cases = _literal(path, "TOLERANCE"), _literal(path, "CASES")
    for cell in cells:
        assert (op, dtype) == (cell["op"], cell["dtype"])
        assert tolerance == pytest.approx(cell["tolerance"])
        assert [c["shape"] for c in cases] == cell["shapes"], "CASES shapes must be the registry's, in its order"
        overrides = {tuple(st["shape"]): st for st in cell.get("shape_tolerances", [])}
        for c in cases:
            want = overrides.get(tuple(c["shape"]), cell["tolerance"])
            got = {k: c.get(k, tolerance[k]) for k in ("atol", "rtol")}
            assert got == pytest.approx({k: want[k] for k in ("atol", "rtol")}), f"case {c['id']} tolerance"
    assert len({c["id"] for c in cases}) == len(cases), "case ids are unique"


def _run(*argv, timeout=300):
    return subprocess.run([sys.executable, *argv], cwd=REPO, capture_output=True, text=True, timeout=timeout)


def test_cli_runs_a_golden():
    proc = _run(str(CHEAP_FILE.relative_to(REPO)), "-r", "Model", "-v", "Ascend950PR_9599")
    assert proc.returncode == 0, proc.stderr
    passed = [line for line in (proc.stdout + proc.stderr).splitlines() if line.startswith("[PASS]")]
    assert len(passed) == len(_literal(CHEAP_FILE, "CASES"))


@pytest.mark.parametrize("flag, value, message", [("-v", "Ascend999", "Unsupported Platform!"),
                                                  ("-r", "Simulator", "Unsupported Backend!")])
def test_cli_rejects_unknown_values(flag, value, message):
    proc = _run(str(CHEAP_FILE.relative_to(REPO)), flag, value)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert "[PASS]" not in proc.stdout + proc.stderr


def test_pytest_entry_point_and_options():
    rel = str(CHEAP_FILE.relative_to(REPO))
    ok = _run("-m", "pytest", "-q", "-p", "no:cacheprovider", rel, "--backend", "Model",
              "--platform", "Ascend950PR_9599")
    assert ok.returncode == 0 and "1 passed" in ok.stdout, ok.stdout + ok.stderr
    bad = _run("-m", "pytest", "-q", "-p", "no:cacheprovider", rel, "--platform", "Ascend999")
    assert bad.returncode != 0
    assert "unknown platform 'Ascend999'" in bad.stderr
