"""Goldens that launch on every vector core of the selected platform (their ``AIV_CORES`` table, read
through ``get_soc_version()``): 48 blocks on Ascend910B1, 32 on Ascend950PR_9599.

Their table must say what this engine's platform model says (a golden sized for 32 cores on a 48-core
platform leaves a third of it idle; one sized for more cores than exist runs a second wave). The tiles are
sized for the count, so the edges are where every core holds exactly one minimum-size tile, and one
element past two maximum-size tiles a core, where the cores hold one or two tiles and the last is partial
(the maximum is ``MAX_TILE``, or ``max_tile()`` where a golden's maximum depends on the platform, as large
as its UB holds: there the largest tile must still fit).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import asc.runtime.config as config
from asc.runtime.platforms import hardware
from test_goldens import _as_tuple, _copy, _module, compare, launch_reports, simulator  # noqa: F401

KERNELS = Path(__file__).resolve().parents[2] / "golden" / "kernels"
PLATFORMS = ("Ascend950PR_9599", "Ascend910B1")
FILES = sorted(p for p in KERNELS.glob("*.py") if "\nAIV_CORES = " in p.read_text())
TILED_1D = [p for p in FILES if "\nMIN_TILE = " in p.read_text()]    # softmax bf16 tiles rows (test_row_tiles)


def _table(path, name="AIV_CORES"):
    tree = ast.parse(path.read_text())
    return next((ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)), None)


def test_the_elementwise_goldens_that_take_every_vector_core():
    assert [p.stem for p in FILES] == ["add_inplace_f16", "addcdiv_f16", "apply_adam_f32", "cast_bf16", "cast_f16",
                                       "dropout_f16", "gelu_f16", "gelu_f32", "kl_div_f32", "reciprocal_f32",
                                       "select_f16", "softmax_bf16", "tanh_f16"]
    assert [p.stem for p in FILES if p not in TILED_1D] == ["softmax_bf16"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_core_table_is_the_platform_models(path):
    assert _table(path) == {p: hardware(config.Platform(p)).aiv_cores for p in PLATFORMS}
    unroll = _table(path, "UNROLL")     # a per-platform unroll factor, where the file has one, for every platform
    assert unroll is None or sorted(unroll) == sorted(PLATFORMS)


def _edges():
    return [pytest.param(path, platform, edge, id=f"{path.stem}-{edge}-{platform}") for path in TILED_1D
            for platform in PLATFORMS for edge in ("one_min_tile_a_core", "two_max_tiles_a_core_plus_one")]


@pytest.mark.parametrize("path, platform, edge", _edges())
def test_launch_takes_every_vector_core(path, platform, edge, simulator, launch_reports):
    config.set_platform(config.Backend.Model, config.Platform(platform))
    module = _module(path)
    cores = hardware(config.Platform(platform)).aiv_cores
    largest = module.max_tile() if hasattr(module, "max_tile") else module.MAX_TILE   # by platform, where it varies
    n = cores * module.MIN_TILE if edge == "one_min_tile_a_core" else 2 * cores * largest + 1
    case = {**module.CASES[-1], "id": edge, "shape": [n]}
    inputs = _as_tuple(module.make_inputs(case))
    expected = module.reference(*_copy(inputs))
    problems = compare(module.launch(*inputs), expected, module.TOLERANCE["atol"], module.TOLERANCE["rtol"])
    assert not problems, f"{path.name} {edge} on {platform}: " + "; ".join(problems)
    assert [r["core_num"] for r in launch_reports] == [cores]
    assert not launch_reports[0]["warnings"]


def test_an_unknown_platform_names_the_table(monkeypatch):
    module = _module(KERNELS / "tanh_f16.py")
    monkeypatch.setattr(module, "get_soc_version", lambda: config.Platform.Ascend910B3)
    with pytest.raises(ValueError, match="no vector core count for Ascend910B3: add it to AIV_CORES"):
        module.core_num()
