"""The April 2026 goldens (golden/april/) against their August 2026 ports: same inputs, bit-identical outputs
and the same modelled ticks, on both platforms, for every quick case.

The port is the cell's golden (golden/kernels/) while the golden is the April kernel in August spellings; a
golden that has moved to a schedule the April API cannot express (a ``real_shape`` window, ``reuse_alloc``)
leaves the exact translation in golden/april/ports/, and the April kernel is compared with that.

The ports change only spellings (``tensor`` -> ``global_tensor``, ``load`` / ``store`` -> ``copy_in`` /
``copy_out``, ``asc2.range(..., parallel=True)`` -> builtin ``range`` with the default
``gm_barrier=False``, ``parallel=False`` -> ``gm_barrier=True``), which the dialect table maps onto the
same op definitions; any difference in results or ticks is a dialect bug.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import asc.runtime
import asc.runtime.config as config

REPO = Path(__file__).resolve().parents[2]
APRIL = sorted((REPO / "golden" / "april").glob("*.py"))
PORTS = REPO / "golden" / "april" / "ports"
PLATFORMS = [config.Platform.Ascend950PR_9599, config.Platform.Ascend910B1]


def _load(path: Path, tag: str):
    spec = importlib.util.spec_from_file_location(f"golden_{tag}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _f64(value):
    return value.detach().to(dtype=__import__("torch").float64).numpy() if hasattr(value, "detach") \
        else np.asarray(value, dtype=np.float64)


def _run(module, case):
    out = module.launch(*module.make_inputs(case))
    outs = out if isinstance(out, tuple) else (out,)
    return [_f64(o) for o in outs], asc.runtime.last_launch_report()["ticks"]


def _port(path: Path) -> Path:
    """The August translation of an April golden: its own file in ports/ once the golden has moved on."""
    kept = PORTS / path.name
    return kept if kept.is_file() else REPO / "golden" / "kernels" / path.name


def test_every_april_golden_has_an_august_port():
    assert len(APRIL) == 14
    for path in APRIL:
        port = _port(path)
        assert port.is_file(), f"{path.name} has no August port in golden/kernels/ or golden/april/ports/"
        assert "global_tensor" in port.read_text() and "asc2.tensor(" not in port.read_text()
        assert "asc2.tensor(" in path.read_text() and "global_tensor" not in path.read_text()
        assert (REPO / "golden" / "kernels" / path.name).is_file(), f"{path.name}: the cell has no golden"
    # a kept translation is only for an April golden, and says which one it translates
    for kept in sorted(PORTS.glob("*.py")):
        assert (REPO / "golden" / "april" / kept.name).is_file(), f"ports/{kept.name} translates no April golden"
        assert f"golden/april/{kept.name}" in kept.read_text().split("\n", 1)[0]


@pytest.mark.parametrize("platform", PLATFORMS, ids=[p.value for p in PLATFORMS])
@pytest.mark.parametrize("path", APRIL, ids=[p.stem for p in APRIL])
def test_april_and_august_versions_agree(path, platform):
    april, august = _load(path, "april"), _load(_port(path), "august")
    assert april.CASES == august.CASES and april.TOLERANCE == august.TOLERANCE
    config.set_platform(config.Backend.Model, platform)
    try:
        for case in (c for c in april.CASES if not c.get("full_only")):
            (outs_a, ticks_a), (outs_b, ticks_b) = _run(april, case), _run(august, case)
            assert len(outs_a) == len(outs_b)
            for a, b in zip(outs_a, outs_b):
                np.testing.assert_array_equal(a, b, err_msg=f"{path.name} case {case['id']}: outputs differ")
            assert ticks_a == ticks_b, f"{path.name} case {case['id']}: {ticks_a} ticks (April) vs {ticks_b} (August)"
    finally:
        config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
