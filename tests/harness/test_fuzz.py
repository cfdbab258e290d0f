"""The differential fuzzer: its grammar renders kernels this engine runs to numpy's answer, disagreements are
written once as corpus cases the conformance runner loads (always run); a tiny budget against a real pyasc-dev
(skipped unless PYASC_DEV_PYTHON names its interpreter)."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asc_harness.conform import conformance, pyasc_dev
from asc_harness.conform import fuzz
from asc_harness.conform.fuzz_grammar import KernelSpec, kernel_specs, render

ADD = KernelSpec(dtype="float32", shape=(12, 2, 16), tile=4, length="annotated", loop="strided_gm_barrier",
                 edge="clip", expr=("-", ("asctile.exp", ("x",)), ("+", ("y",), ("const", 0.5))), launch="[n]",
                 blocks=3)


@settings(max_examples=60, deadline=None)
@given(kernel_specs())
def test_every_generated_kernel_is_a_well_formed_corpus_case(spec):
    source = render(spec)
    tree = ast.parse(source)
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert names == {"kernel", "run"}
    assert len(spec.shape) in (1, 2, 3) and spec.shape[-1] >= 1
    if len(spec.shape) == 1:
        assert spec.tile % 8 == 0  # a 1-D tile is whole 32-byte blocks


@settings(max_examples=40, deadline=None)
@given(kernel_specs(frozenset({"min", "call_site", "core_num_none", "rank3", "gm_barrier"})))
def test_left_out_features_are_not_generated(spec):
    source = render(spec)
    assert "min(" not in source and "ConstExpr(" not in source and "kernel[None]" not in source
    assert "gm_barrier" not in source and len(spec.shape) <= 2


def test_unknown_features_are_refused():
    @settings(max_examples=1, database=None)
    @given(kernel_specs(frozenset({"rank5"})))
    def draw(spec):
        pass

    with pytest.raises(ValueError, match="unknown grammar features: rank5"):
        draw()


def _run_here(tmp_path, spec, env=None):
    path = tmp_path / "case.py"
    path.write_text(render(spec), encoding="utf-8")
    case = conformance.Case("fuzz/case", path, "accept", tolerance=spec.tolerance)
    return conformance.run_case(case, Path(sys.executable), env or {}, "Ascend950PR_9599", 300)


def test_a_rendered_rank3_kernel_computes_numpys_answer_here(tmp_path):
    run = _run_here(tmp_path, ADD)
    if run.verdict != "accepted":  # rank-3 windows are on their way; a rank-2 kernel must run meanwhile
        assert "rank-3" in (run.text or ""), run.text
        spec = KernelSpec(**{**ADD.__dict__, "shape": (12, 16)})
        run = _run_here(tmp_path, spec)
    else:
        spec = ADD
    assert run.verdict == "accepted", run.text
    rng = np.random.default_rng(0)
    x = (rng.random(spec.shape) + 0.5).astype(np.float32)
    y = (rng.random(spec.shape) + 0.5).astype(np.float32)
    np.testing.assert_allclose(run.outputs["z"], spec.reference(x, y), rtol=1e-5, atol=1e-5)


def test_a_disagreement_is_written_once_as_a_loadable_corpus_case(tmp_path):
    entry = {"pyasc": {"verdict": "rejected", "message": "RuntimeError: 'input' dtype must be one of int32, "
                                                         "float32, got float16"},
             "here": {"verdict": "accepted", "message": None}}
    sig = fuzz.signature("verdict", entry)
    assert sig == "verdict: pyasc rejected (RuntimeError: _ dtype must be one of int_, float_, got), " \
                  "here accepted"
    finding = fuzz.Finding(sig, "verdict", 'pyasc rejected, here accepted: a """quoted""" \\ text', ADD,
                           "rejected", "accepted")
    path = fuzz.write_case(finding, tmp_path / "fuzz")
    assert fuzz.existing_signatures(tmp_path / "fuzz") == {sig}
    (case,) = conformance.load_corpus(tmp_path)
    assert case.name == f"fuzz/{path.stem}" and case.expect == "reject"
    assert case.tolerance == ADD.tolerance


def test_the_checked_in_fuzz_cases_carry_their_signature():
    root = Path(__file__).resolve().parents[2]
    directory = root / "conformance" / "corpus" / "fuzz"
    files = sorted(directory.glob("*.py"))
    assert len(fuzz.existing_signatures(directory)) == len(files)


PYASC_DEV_PYTHON = os.environ.get("PYASC_DEV_PYTHON")


@pytest.mark.conformance
@pytest.mark.skipif(not PYASC_DEV_PYTHON, reason="no pyasc-dev interpreter configured (set PYASC_DEV_PYTHON to "
                                                 "~/.cache/asc-embedded/pyasc-dev/bin/python; make conformance)")
def test_a_tiny_fuzz_budget_against_pyasc_dev():
    python = pyasc_dev.pyasc_interpreter(PYASC_DEV_PYTHON, None, False)
    run = fuzz.fuzz(python, examples=4, seed_value=1, timeout_s=300,
                    without=frozenset({"min", "call_site", "core_num_none", "rank3"}))
    assert run.generated == 4 and sum(run.verdicts.values()) == 4
    for f in run.findings:  # every finding names both engines' verdicts
        assert f.signature.startswith(("verdict:", "message:", "results:", "problem:")), f.signature
