"""The Ascend C reference kernels (golden/ascendc/): pyasc v1 kernels with the golden interface.

Each file must be interchangeable with its golden for the harness: the same OP, DTYPE, TOLERANCE and
CASES, the very same ``make_inputs`` and ``reference`` (so the harness checks its numbers against the
golden's reference at the golden's tolerances), and every case passing on every platform the registry
lists it for, with launches that run clean. The registry names each reference on the cells of its
golden. The elementwise references' tail (a 32-byte window ending at the last element, loaded before
any store) is checked where a mistake would show: one element past a whole block, in place.
"""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

import asc.runtime.config as config
from test_goldens import _as_tuple, _copy, _literal, _module, _to_float64, compare, launch_reports, simulator  # noqa: F401

REPO = Path(__file__).resolve().parents[2]
REFS = REPO / "golden" / "ascendc"
FILES = sorted(p for p in REFS.glob("*.py") if not p.name.startswith("_"))
ALLOWED_IMPORTS = {"asc", "asc.lib.host", "asc.lib.runtime", "asc.runtime.config", "numpy", "torch", "math", "argparse", "logging",
                   "typing"}


def _cells():
    return yaml.safe_load((REPO / "capabilities.yaml").read_text())["cells"]


def _function_source(path: Path, name: str) -> str:
    tree = ast.parse(path.read_text())
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return ast.dump(node)


def _case_params():
    by_file = {}
    for c in _cells():
        if c.get("ascendc"):
            by_file.setdefault(c["ascendc"], []).append(c["platform"])
    params = []
    for path in FILES:
        for platform in by_file.get(f"golden/ascendc/{path.name}", []):
            for case in _literal(path, "CASES"):
                params.append(pytest.param(path, case["id"], platform, id=f"{path.stem}-{case['id']}-{platform}"))
    return params


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_interface_is_the_goldens(path):
    golden = REPO / "golden" / "kernels" / path.name
    assert golden.is_file(), f"{path.name} has no golden of the same name"
    for name in ("OP", "DTYPE", "TOLERANCE", "CASES"):
        assert _literal(path, name) == _literal(golden, name), f"{path.name}: {name} differs from the golden's"
    for name in ("make_inputs", "reference"):
        assert _function_source(path, name) == _function_source(golden, name), \
            f"{path.name}: {name} differs from the golden's (the harness compares both against one reference)"
    module = _module(path)
    assert callable(getattr(module, f"test_{module.OP}_{module.DTYPE}", None))
    imports = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            imports |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imports.add(node.module)
    assert imports <= ALLOWED_IMPORTS, f"{path.name} imports {sorted(imports - ALLOWED_IMPORTS)}"


def test_the_registry_names_every_reference_on_its_goldens_cells():
    named = {}
    for c in _cells():
        if c.get("ascendc"):
            assert (REPO / c["ascendc"]).is_file(), f"{c['id']}: {c['ascendc']} not found"
            assert Path(c["ascendc"]).name == Path(c["golden"]).name, f"{c['id']}: the reference of another golden"
            named.setdefault(c["ascendc"], set()).add(c["platform"])
    golden_platforms = {}
    for c in _cells():
        golden_platforms.setdefault(Path(c["golden"]).name, set()).add(c["platform"])
    for path in FILES:
        rel = f"golden/ascendc/{path.name}"
        assert named.get(rel) == golden_platforms[path.name], f"{rel} is not named on every cell of its golden"


@pytest.mark.parametrize("path, case_id, platform", _case_params())
def test_case(path, case_id, platform, simulator, launch_reports):
    config.set_platform(config.Backend.Model, config.Platform(platform))
    module = _module(path)
    case = next(c for c in module.CASES if c["id"] == case_id)
    inputs = _as_tuple(module.make_inputs(case))
    expected = module.reference(*_copy(inputs))
    problems = compare(module.launch(*inputs), expected, float(case.get("atol", module.TOLERANCE["atol"])),
                       float(case.get("rtol", module.TOLERANCE["rtol"])))
    assert not problems, f"{path.name} case {case_id}: " + "; ".join(problems)
    warned = [w for r in launch_reports for w in r["warnings"]]
    assert launch_reports and not warned, f"{path.name} case {case_id} on {platform}: {warned}"


@pytest.mark.parametrize("n", [17, 16 * 70 + 3, 1024 * 48 + 15])
def test_in_place_tail_is_added_once(n, simulator, launch_reports):
    """The tail window overlaps elements the last tile already updated in place; loaded first, they are
    added once (loaded after the stores, they would get y twice; loaded unordered, the race detector
    stops the launch)."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    module = _module(REFS / "add_inplace_f16.py")
    x = torch.arange(n, dtype=torch.float32).remainder(97).to(torch.float16)
    y = torch.ones(n, dtype=torch.float16)
    out = module.launch(x, y)
    assert torch.equal(out, x + y)
    assert not [w for r in launch_reports for w in r["warnings"]]


def test_apply_adam_updates_each_element_once_past_a_whole_block(simulator):
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    module = _module(REFS / "apply_adam_f32.py")
    case = {"id": "tail", "shape": [8 * 300 + 7]}
    inputs = module.make_inputs(case)
    assert not compare(module.launch(*inputs), module.reference(*_copy(inputs)), 1e-6, 1e-5)


def test_a_tensor_shorter_than_one_block_is_refused_with_the_size():
    module = _module(REFS / "abs_f16.py")
    with pytest.raises(ValueError, match="at least 16 elements .* got 15"):
        module.tiling(15)


def test_every_core_gets_whole_blocks_and_at_least_two_tiles():
    module = _module(REFS / "add_f16.py")
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    for n in (16, 100003, 25_600_000):
        cores, core_len, aligned_len, tile_len = module.tiling(n)
        assert core_len % module.ALIGN == 0 and tile_len % module.ALIGN == 0
        assert (cores - 1) * core_len < aligned_len <= cores * core_len       # no core without work
        assert tile_len <= module.MAX_TILE and (core_len <= tile_len * 2 or tile_len == module.MAX_TILE)
    assert module.tiling(25_600_000, max_cores=20)[0] == 20
    assert np.isclose(module.tiling(100003)[2], 100000)


@pytest.mark.parametrize("cols", [65, 64 * 64 + 1, 8 * 1024])
def test_reduce_folds_count_the_tail_repeat_once(cols, simulator, launch_reports):
    """WholeReduceSum folds a row by 64-lane repeats with the tail masked: one element past a repeat (65),
    past two folds' worth (4097) and a full tile of repeats (8192) each sum every element exactly once."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    module = _module(REFS / "reduce_sum_f32.py")
    x = np.ones((3, cols), dtype=np.float32)
    x[:, -1] = 1000.0                     # a dropped or doubled last element moves the sum by 1000
    assert np.array_equal(module.launch(x), np.full(3, cols - 1 + 1000.0, dtype=np.float32))
    assert not [w for r in launch_reports for w in r["warnings"]]


@pytest.mark.parametrize("shape", [(17, 17), (16, 33), (33, 1)])
def test_transpose_blocks_one_past_the_edge(shape, simulator, launch_reports):
    """A 16 x 16 block one row or one column past the edge stores only its valid part, at the right place."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    module = _module(REFS / "transpose_f16.py")
    x = torch.arange(shape[0] * shape[1], dtype=torch.float32).reshape(shape).to(torch.float16)
    assert torch.equal(module.launch(x), x.T.contiguous())
    assert not [w for r in launch_reports for w in r["warnings"]]


def test_rms_norm_spans_column_tiles_one_past_a_tile(simulator, launch_reports):
    """A row one column longer than a tile is two tiles; the mean divides by the real column count."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    module = _module(REFS / "rms_norm_f32.py")
    cols = module.TILE_COLS + 1
    x = torch.ones((2, cols), dtype=torch.float32)
    x[:, -1] = 3.0
    gamma = torch.ones(cols, dtype=torch.float32)
    expected = module.reference(x, gamma, module.EPS)
    assert torch.allclose(module.launch(x, gamma, module.EPS), expected, rtol=1e-6, atol=0)
    assert not [w for r in launch_reports for w in r["warnings"]]
