"""The surface report: signature comparison, the corpus scan, this engine's probe (always run), and the
report against a real pyasc-dev (skipped unless PYASC_DEV_PYTHON names its interpreter)."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from asc_harness.conform import surface

REQ = "<required>"


def p(name, kind="POSITIONAL_OR_KEYWORD", default=REQ):
    return [name, kind, default]


def test_signatures_compare_by_name_kind_and_default():
    up = [p("src"), p("dst"), p("offsets")]
    assert surface.compare_params(up, [p("src"), p("dst"), p("offsets")]) == "same"
    # a renamed keyword is an API difference: a call atomic_add(src=..., dst=...) would fail here
    assert surface.compare_params(up, [p("tile"), p("tensor"), p("offsets")]).startswith("differs")
    assert surface.compare_params(up, [p("src"), p("dst"), p("offsets"), p("loc", default="None")]) == \
        "extension: here also loc"
    assert surface.compare_params(up, [p("src"), p("dst"), p("offsets", default="None")]) == \
        "extension: here also a default for offsets"
    assert surface.compare_params([p("shape"), p("hf32", "KEYWORD_ONLY", "False")],
                                  [p("shape"), p("hf32", "POSITIONAL_OR_KEYWORD", "False")]).startswith("differs")
    assert surface.compare_params(up, [p("src"), p("dst")]).startswith("differs")
    assert surface.compare_params(None, None) == "n/a"


@pytest.fixture
def corpus(tmp_path):
    (tmp_path / "ops").mkdir()
    (tmp_path / "ops" / "a.py").write_text(textwrap.dedent('''
        from asc.experimental import asctile
        EXPECT = "accept"

        @asctile.jit(debug=True)
        def k(x_ptr, n: int):
            x = asctile.global_tensor(x_ptr, [n])
            t = asctile.copy_in(x, [0], [8], asctile.TensorLocation.UB)
            assert n > 0
            m = min(n, 8)
            asctile.copy_out(t.exp(), x, [0])

        def run():
            k[None](1, 2)
            k[4, None](1, 2)
            max(1, 2)  # host code: not a kernel builtin
            return {}
    '''), encoding="utf-8")
    return tmp_path


def test_the_corpus_scan_finds_names_members_options_builtins_and_launch_forms(corpus):
    u = surface.scan_corpus(corpus)
    assert {"global_tensor", "copy_in", "TensorLocation", "TensorLocation.UB"} <= u.attrs
    assert "exp" in u.members and "debug" in u.jit_keywords
    assert {"assert", "min"} <= u.builtins and "max" not in u.builtins
    assert u.launch_forms == {"[None]", "[n, None]"}
    assert surface.exercised_by("TensorLocation.UB", "member", u) == (True, "ops/a")
    assert surface.exercised_by("TensorLocation.L1", "member", u) == (False, None)
    assert surface.exercised_by("LocalTensor.exp", "method", u) == (True, "ops/a")
    assert surface.exercised_by("CompileOptions.debug", "field", u)[0] is True
    assert surface.exercised_by("LaunchOptions.stream", "field", u)[0] is True
    assert surface.exercised_by("builtin max", "builtin", u)[0] is False
    assert surface.exercised_by("kernel[None]", "launch", u)[0] is True
    assert surface.exercised_by("runtime", "module", u) == (None, None)


def test_compare_reports_missing_differing_internal_and_extra_entries(corpus):
    up = {"entries": {"copy_in": {"kind": "function", "params": [p("src"), p("offsets")]},
                      "LocalTensor.to_ir": {"kind": "method", "params": []},
                      "builtin max": {"kind": "builtin", "params": None},
                      "LaunchOptions.core_num": {"kind": "field", "default": "None"},
                      "copy": {"kind": "function", "params": [p("src"), p("offsets", default="None")]}},
          "launch_forms": {"[None]": "rejected: NotImplementedError: interpreter", "[None] launcher": "accepted"}}
    here = {"entries": {"copy_in": {"kind": "function", "params": [p("src"), p("offsets")]},
                        "LaunchOptions.core_num": {"kind": "field", "default": "0"},
                        "tensor": {"kind": "function", "params": []},
                        "copy": {"kind": "function", "params": [p("src"), p("args", "VAR_POSITIONAL")]}},
            "launch_forms": {"[None]": "rejected: ValueError: Core number should be large than 0"}}
    rows, extras = surface.compare(up, here, surface.scan_corpus(corpus))
    by = {r["name"]: r for r in rows}
    assert by["copy_in"]["present"] and by["copy_in"]["signature"] == "same" and by["copy_in"]["exercised"]
    assert not by["builtin max"]["present"]
    assert by["LaunchOptions.core_num"]["signature"] == "differs: default None upstream, 0 here"
    # upstream's launcher takes kernel[None] (only its interpreter cannot run it): this engine must too
    assert not by["kernel[None]"]["present"]
    assert by["LocalTensor.to_ir"]["note"].startswith("internal")
    assert extras == [{"name": "tensor", "kind": "function"}]
    # a difference kept on purpose is reported with its reason, not as a mismatch
    assert by["copy"]["signature"].startswith("deliberate: upstream (src, offsets=None), here (src, *args)")
    assert by["copy"]["note"] == surface.DELIBERATE["copy"]
    s = surface.summarise(rows, extras)
    assert s["upstream_entries"] == 5 and s["present"] == 3 and s["missing"] == ["builtin max", "kernel[None]"]
    assert s["signatures_match"] == 1 and s["signatures_compared"] == 3
    assert s["signature_differences"] == ["LaunchOptions.core_num"] and list(s["deliberate_differences"]) == ["copy"]
    assert s["internal"] == ["LocalTensor.to_ir"]


def test_this_engines_probe_describes_the_asctile_surface():
    data = surface.run_probe(Path(sys.executable), {}, "Ascend950PR_9599", timeout_s=300)
    e = data["entries"]
    assert e["atomic_add"]["params"] == [p("src"), p("dst"), p("offsets")]
    assert e["copy_in"]["params"][3] == p("location", default="TensorLocation.Auto")
    assert e["LocalTensor.exp"]["kind"] == "method" and e["LocalTensor.exp"]["params"] == []
    assert e["TensorLocation.UB"] == {"kind": "member"}
    assert e["CompileOptions.cv_ratio"] == {"kind": "field", "default": "1"}
    assert "jit(insert_sync=)" in e and "builtin range" in e
    assert data["launch_forms"]["[n]"] == "accepted"


PYASC_DEV_PYTHON = os.environ.get("PYASC_DEV_PYTHON")


@pytest.mark.conformance
@pytest.mark.skipif(not PYASC_DEV_PYTHON, reason="no pyasc-dev interpreter configured (set PYASC_DEV_PYTHON to "
                                                 "~/.cache/asc-embedded/pyasc-dev/bin/python; make conformance)")
def test_surface_report_against_pyasc_dev():
    python = surface.pyasc_interpreter(PYASC_DEV_PYTHON, None, False)
    root = Path(__file__).resolve().parents[2]
    report = surface.build_report(python, root / "conformance" / "corpus", "Ascend950PR_9599")
    by = {r["name"]: r for r in report["upstream"]}
    for name in ("atomic_add", "atomic_max", "atomic_min", "copy_in", "copy_out", "global_tensor"):
        assert by[name]["present"] and by[name]["signature"] == "same", by[name]
    assert by["kernel[n]"]["present"] and by["kernel[n, None]"]["present"]
    s = report["summary"]
    assert s["upstream_entries"] > 200 and s["present_pct"] > 90
    print(surface.figures(s))
