"""The asctile ports of the golden kernels in conformance/corpus/golden/ (numpy inputs, the golden
interface): on this engine each port's launch() agrees with its own reference() within the port's
tolerance, for every case the conformance driver runs."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

CORPUS = Path(__file__).resolve().parents[2] / "conformance" / "corpus" / "golden"
PORTS = sorted(p.stem for p in CORPUS.glob("*.py"))


def load(name):
    spec = importlib.util.spec_from_file_location(f"corpus_golden_{name}", CORPUS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_golden_kernel_has_a_port():
    kernels = sorted(p.stem for p in (CORPUS.parents[2] / "golden" / "kernels").glob("*.py"))
    assert PORTS == kernels


@pytest.mark.parametrize("name", PORTS)
def test_port_matches_its_reference(name):
    mod = load(name)
    assert mod.EXPECT == "accept" and mod.OP and mod.DTYPE
    cases = [c for c in mod.CASES if not c.get("full_only")]
    assert cases
    for case in cases:
        inputs = mod.make_inputs(case)
        out, ref = mod.launch(*inputs), mod.reference(*inputs)
        outs, refs = (out, ref) if isinstance(out, tuple) else ((out,), (ref,))
        assert len(outs) == len(refs)
        for o, r in zip(outs, refs):
            assert np.shape(o) == np.shape(r), case["id"]
            np.testing.assert_allclose(np.asarray(o, np.float64), np.asarray(r, np.float64),
                                       atol=case.get("atol", mod.TOLERANCE["atol"]),
                                       rtol=case.get("rtol", mod.TOLERANCE["rtol"]), err_msg=f"{name} {case['id']}")
