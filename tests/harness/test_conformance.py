"""The conformance runner: verdicts, messages and results compared against a stand-in for pyasc-dev, the
allow-list, exit codes and the JSON report; and the corpus itself against a real pyasc-dev virtualenv
(marker ``conformance``, skipped unless PYASC_DEV_PYTHON names its interpreter)."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from asc_harness.conform import conformance, pyasc_dev
from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import default_root

ROOT = default_root()
CORPUS = ROOT / "conformance" / "corpus"
ALLOWLIST = ROOT / "conformance" / "allowlist.yaml"

# Cases for the stand-in: plain numpy, behaving differently when run as "upstream" (ASCTILE_INTERPRET=1).
FAKE_CASES = {
    "agree.py": '''
        import numpy as np
        EXPECT = "accept"
        def run():
            return {"out": np.arange(4.0)}
    ''',
    "verdict.py": '''
        import os
        EXPECT = "accept"
        def run():
            if os.environ.get("ASCTILE_INTERPRET"):
                raise RuntimeError("upstream refuses")
            return {"out": [1.0]}
    ''',
    "message_agree.py": '''
        import os
        EXPECT = "reject"
        ERROR = "Break syntax"
        def run():
            extra = "" if os.environ.get("ASCTILE_INTERPRET") else "\\nhint: restructure the loop"
            raise SyntaxError("Break syntax is not supported in JIT function" + extra)
    ''',
    "message_differ.py": '''
        import os
        EXPECT = "reject"
        def run():
            raise ValueError("offsets must have 2 values" if os.environ.get("ASCTILE_INTERPRET") else "bad offsets")
    ''',
    "results.py": '''
        import os
        EXPECT = "accept"
        TOLERANCE = {"atol": 1e-3, "rtol": 0.0}
        def run():
            delta = 0.0011 if os.environ.get("ASCTILE_INTERPRET") else 0.0
            return {"a": [0.0, 1.0, 2.0], "b": [1.0 + delta, 5.0]}
    ''',
    "within_tolerance.py": '''
        import os
        EXPECT = "accept"
        TOLERANCE = {"atol": 1e-3, "rtol": 0.0}
        def run():
            return {"a": [1.0 + (0.0009 if os.environ.get("ASCTILE_INTERPRET") else 0.0)]}
    ''',
    "interpreter_gap.py": '''
        import os
        EXPECT = "accept"
        def _run_launcher():
            raise AttributeError("module 'asctile' has no attribute 'abs'")
        def run():
            if os.environ.get("ASCTILE_INTERPRET"):
                _run_launcher()
            return {"out": [3.0]}
    ''',
    "missed_expectation.py": '''
        EXPECT = "reject"
        ERROR = "must be integers"
        def run():
            return {"out": [0.0]}
    ''',
}


@pytest.fixture
def fake_corpus(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in FAKE_CASES.items():
        (corpus / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return corpus


@pytest.fixture
def fake_pyasc(tmp_path):
    """An interpreter that passes the oracle check: this one, with an empty asc.experimental.asctile first."""
    site = tmp_path / "fake-site" / "asc" / "experimental" / "asctile"
    site.mkdir(parents=True)
    for d in (site, site.parent, site.parent.parent):
        (d / "__init__.py").write_text("", encoding="utf-8")
    wrapper = tmp_path / "pyasc-python"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="{tmp_path / "fake-site"}" exec "{sys.executable}" "$@"\n',
                       encoding="utf-8")
    wrapper.chmod(0o755)
    return wrapper


def by_case(entries):
    return {e["case"]: e for e in entries}


def test_each_aspect_is_compared_and_only_real_disagreements_are_reported(fake_corpus, fake_pyasc):
    cases = conformance.load_corpus(fake_corpus)
    entries = by_case(conformance.run_corpus(cases, fake_pyasc, platform="Ascend950PR_9599", jobs=2,
                                             timeout_s=60))
    assert entries["agree"]["verdict"] == "agree" and entries["agree"]["results"] == "agree"
    assert entries["agree"]["disagreements"] == []
    verdict = entries["verdict"]["disagreements"]
    assert [d["aspect"] for d in verdict] == ["verdict"]
    assert verdict[0]["detail"].startswith("pyasc rejected, here accepted")
    # pyasc's message contained in ours (ours adds a hint) agrees; a different text does not
    assert entries["message_agree"]["message"] == "agree"
    assert entries["message_agree"]["expected"] == "met"
    assert entries["message_differ"]["message"] == "disagree"
    assert "'offsets must have 2 values' is not in ours" in entries["message_differ"]["disagreements"][0]["detail"]
    # 1.1e-3 apart with atol 1e-3 differs (first differing element named); 0.9e-3 apart agrees
    results = entries["results"]["disagreements"]
    assert [d["aspect"] for d in results] == ["results"]
    assert results[0]["detail"].startswith("b: 1/2 elements differ, first at [0]")
    assert entries["within_tolerance"]["results"] == "agree"
    # an error inside upstream's interpreter loop: its front end accepted, so verdicts agree, results n/a
    gap = entries["interpreter_gap"]
    assert gap["pyasc"]["verdict"] == "accepted" and gap["verdict"] == "agree"
    assert gap["results"] == "n/a" and "no attribute 'abs'" in gap["pyasc"]["interpreter_error"]
    missed = entries["missed_expectation"]
    assert missed["disagreements"] == [] and missed["expected"].startswith("expected rejected, got accepted")


def write_allowlist(path: Path, *entries: tuple[str, str, str]) -> Path:
    lines = ["entries:"]
    for case, aspect, kind in entries:
        lines += [f"  - case: {case}", f"    aspect: {aspect}", f"    kind: {kind}", "    reason: understood"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_exit_code_json_report_and_allow_list(fake_corpus, fake_pyasc, tmp_path, capsys):
    report = tmp_path / "out" / "report.json"
    allow = write_allowlist(tmp_path / "allow.yaml", ("verdict", "verdict", "engine-check"),
                            ("message_differ", "message", "engine-check"),
                            ("agree", "results", "interpreter-gap"))
    argv = ["--corpus", str(fake_corpus), "--allowlist", str(allow), "--pyasc-python", str(fake_pyasc),
            "--json", str(report), "-j", "2"]
    # results.py is not allowed and missed_expectation misses its expectation
    assert conformance.main(argv) == 1
    out = capsys.readouterr().out
    assert "results: results NOT ALLOWED: b: 1/2 elements differ" in out
    assert "verdict: verdict allowed (engine-check): pyasc rejected, here accepted" in out
    assert "note: the allow-list entry agree (results) matched no disagreement" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    s = data["summary"]
    assert (s["cases"], s["verdicts_agree"], s["messages_compared"], s["messages_agree"]) == (8, 7, 2, 1)
    assert (s["results_compared"], s["results_agree"], s["results_not_comparable"]) == (4, 3, 1)
    assert (s["disagreements"], s["allowed"], s["not_allowed"], s["expectations_missed"]) == (3, 2, 1, 1)
    # only the cases without an unlisted disagreement or missed expectation: exit 0
    assert conformance.main(argv + ["agree", "verdict", "message_*", "interpreter_gap"]) == 0


def test_cannot_run_without_an_oracle_exits_2(fake_corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PYASC_DEV_PYTHON", raising=False)
    missing = tmp_path / "nowhere" / "bin" / "python"
    assert conformance.main(["--corpus", str(fake_corpus), "--pyasc-python", str(missing)]) == 2
    assert f"cannot run {missing}" in capsys.readouterr().err
    assert conformance.main(["--corpus", str(fake_corpus), "--venv", str(tmp_path / "nowhere")]) == 2
    assert "no pyasc-dev virtualenv at" in capsys.readouterr().err


def test_bad_corpus_and_allow_list_are_user_errors(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "case.py").write_text('EXPECT = "maybe"\ndef run():\n    return {}\n', encoding="utf-8")
    with pytest.raises(HarnessError, match="EXPECT must be 'accept' or 'reject', got 'maybe'"):
        conformance.load_corpus(corpus)
    bad = tmp_path / "allow.yaml"
    bad.write_text("entries:\n  - {case: a, aspect: verdict, kind: upstream-bug, reason: x}\n", encoding="utf-8")
    with pytest.raises(HarnessError, match="kind must be one of interpreter-gap, engine-check"):
        conformance.load_allowlist(bad)
    bad.write_text("entries:\n  - {case: a, aspect: verdict, kind: engine-check, reason: ' '}\n", encoding="utf-8")
    with pytest.raises(HarnessError, match="the reason is empty"):
        conformance.load_allowlist(bad)


def test_the_checked_in_corpus_and_allow_list_are_well_formed():
    cases = {c.name: c for c in conformance.load_corpus(CORPUS)}
    # every golden kernel has an asctile port (the 14 that predate the August dialect among them)
    goldens = sorted(p.stem for p in (ROOT / "golden" / "kernels").glob("*.py") if not p.name.startswith("_"))
    april = sorted(p.stem for p in (ROOT / "golden" / "april").glob("*.py") if not p.name.startswith("_"))
    assert len(goldens) == 36 and len(april) == 14 and set(april) <= set(goldens)
    assert [n for n in goldens if f"golden/{n}" not in cases] == []
    assert {c.expect for n, c in cases.items() if n.startswith("invalid/")} == {"reject"}
    for (case, _aspect), entry in conformance.load_allowlist(ALLOWLIST).items():
        assert case in cases, f"allow-list entry for a case that does not exist: {case}"
        assert len(entry["reason"].split()) >= 5, f"allow-list entry {case}: give the reason in words"


# --------------------------------------------------------------------------------------------------
# the corpus against a real pyasc-dev (slow: two subprocesses per case)

PYASC_DEV_PYTHON = os.environ.get("PYASC_DEV_PYTHON")
_CORPUS_CASES = conformance.load_corpus(CORPUS) if CORPUS.is_dir() else []


@pytest.fixture(scope="module")
def allowed():
    return conformance.load_allowlist(ALLOWLIST)


@pytest.mark.conformance
@pytest.mark.skipif(not PYASC_DEV_PYTHON, reason="no pyasc-dev interpreter configured (set PYASC_DEV_PYTHON to "
                                                  "the python of a virtualenv with pyasc-dev; see docs/conformance.md)")
@pytest.mark.parametrize("case", _CORPUS_CASES, ids=[c.name for c in _CORPUS_CASES])
def test_corpus_case_agrees_with_pyasc_dev(case, allowed):
    python = pyasc_dev.pyasc_interpreter(PYASC_DEV_PYTHON, None, False)
    [entry] = conformance.run_corpus([case], python, platform="Ascend950PR_9599", jobs=1, timeout_s=300)
    conformance.judge([entry], allowed)
    assert not entry.get("problem"), entry.get("problem")
    assert entry["expected"] == "met", entry["expected"]
    unlisted = [f"{d['aspect']}: {d['detail']}" for d in entry["disagreements"] if not d["allowed"]]
    assert unlisted == []


@pytest.mark.conformance
@pytest.mark.skipif(not PYASC_DEV_PYTHON, reason="no pyasc-dev interpreter configured (set PYASC_DEV_PYTHON)")
def test_run_kernel_engine_pyasc_runs_an_asctile_golden_on_pyasc_dev(monkeypatch):
    from asc_harness.run.runner import run_file

    monkeypatch.setenv("PYASC_PYTHON", PYASC_DEV_PYTHON)
    monkeypatch.setenv("ASCTILE_INTERPRET", "1")
    result = run_file(CORPUS / "golden" / "add_f16.py", engine="pyasc", repo=None)
    assert result["status"] == "pass", result["failure"]
    assert [c["id"] for c in result["cases"]] == ["1x128", "4x2048", "10007"]
    assert all(c["mismatches"] == 0 and c["elements"] for c in result["cases"])
    # an op the interpreter lacks fails with its own error, not as an infrastructure problem
    result = run_file(CORPUS / "golden" / "abs_f16.py", engine="pyasc", repo=None)
    assert result["status"] == "error" and result["failure"]["category"] == "runtime_error"
    assert "no attribute 'abs'" in result["failure"]["message"]


def test_disagreement_details_quote_the_error_line_not_the_hint_or_the_blocks():
    text = ("KernelRuntimeError: at k.py:3:4:\n    x = copy_in(...)\nload of tensor 'x' reads rows beyond the tensor\n"
            "in block(s) [0] of 1\nhint: stop the row loop at the row count")
    assert conformance._one_line(text) == "load of tensor 'x' reads rows beyond the tensor"


def test_a_pending_case_still_fails_and_the_report_names_the_work_it_waits_for(tmp_path, fake_pyasc, capsys):
    corpus = tmp_path / "pending-corpus"
    corpus.mkdir()
    (corpus / "waits.py").write_text(textwrap.dedent('''
        EXPECT = "accept"
        PENDING = "transposed L0B operands are being added"
        def run():
            raise RuntimeError("transpose works on UB tiles only")
    '''), encoding="utf-8")
    (corpus / "landed.py").write_text(textwrap.dedent('''
        EXPECT = "accept"
        PENDING = "already there"
        def run():
            return {"out": [1.0]}
    '''), encoding="utf-8")
    report = tmp_path / "report.json"
    argv = ["--corpus", str(corpus), "--allowlist", str(tmp_path / "none.yaml"), "--pyasc-python", str(fake_pyasc),
            "--json", str(report)]
    assert conformance.main(argv) == 1  # pending does not pass a failing case
    out = capsys.readouterr().out
    assert "FAIL (pending)" in out and "waits: pending: transposed L0B operands are being added" in out
    assert "landed: pending" not in out  # a pending case that passes is simply ok
    assert "failing cases pending engine work 1" in out
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["pending_failing"] == 1
