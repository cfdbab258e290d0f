"""The v1 surface report: overload-aware signature comparison, the scan of the v1 tests, this engine's probe
(always run), and the report against a real pyasc-dev (skipped unless PYASC_DEV_PYTHON names its interpreter)."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from asc_harness.conform import surface_v1 as sv

REQ = "<required>"


def p(name, kind="POSITIONAL_OR_KEYWORD", default=REQ):
    return [name, kind, default]


def test_a_signature_accepts_an_overload_by_place_name_and_default():
    assert sv.accepts([p("dst"), p("src"), p("count")], [p("dst"), p("src"), p("count")])
    # a renamed parameter: the keyword call upstream allows fails here
    assert not sv.accepts([p("dst"), p("src"), p("n")], [p("dst"), p("src"), p("count")])
    # upstream dispatching *args on types: the place counts, the name only as a keyword
    assert sv.accepts([p("dtype", default="None"), p("tensor", default="None")], [p("tensor")], by_type=True)
    assert not sv.accepts([p("dtype", default="None"), p("tensor", default="None")], [p("tensor")])
    # an upstream default this engine lacks (or spells differently) is a difference
    assert not sv.accepts([p("event")], [p("event", default="HardEvent.V_S")])
    assert sv.accepts([p("event", default="HardEvent.V_S")], [p("event", default="HardEvent.V_S")])
    # a parameter required here that the overload does not pass
    assert not sv.accepts([p("dst"), p("src"), p("mask")], [p("dst"), p("src")])
    assert sv.accepts([p("dst"), p("args", "VAR_POSITIONAL")], [p("dst"), p("src"), p("count")])


def test_signatures_are_compared_against_every_overload():
    up = {"params": [p("args", "VAR_POSITIONAL"), p("kwargs", "VAR_KEYWORD")],
          "overloads": [[p("dtype")], [p("tensor")]]}
    assert sv.compare_signature(up, {"params": [p("dtype", default="None"), p("tensor", default="None")]}) == \
        "overloads 2/2"
    assert sv.compare_signature(up, {"params": [p("dtype")]}) == "overloads 1/2: differs in the others"
    assert sv.compare_signature({"params": up["params"]}, {"params": [p("t")]}).startswith("unknown")
    assert sv.compare_signature({"params": [p("prop")]}, {"params": [p("name")]}) == \
        "differs: upstream (prop), here (name)"
    assert sv.matching("overloads 2/2") and not sv.matching("overloads 1/2: differs in the others")


def test_only_tests_that_check_numbers_count_as_exercising(tmp_path):
    (tmp_path / "test_v1_a.py").write_text(textwrap.dedent('''
        import asc
        from asc.language.fwk import TBufPool
        def test():
            t = asc.TPipe()
            t.alloc_event_id(asc.HardEvent.V_S)
            np.testing.assert_array_equal(1, 1)
    '''))
    (tmp_path / "test_v1_b.py").write_text("import asc\nasc.mmad(1)\nx.release_event_id(0)\n")
    files = sv.v1_test_files(tmp_path)
    assert [f.name for f in files] == ["test_v1_a.py"]
    names, members = sv.scan_tests(files)
    assert {"TPipe", "HardEvent", "TBufPool"} <= set(names) and "mmad" not in names
    assert sv.exercised("fwk.TPipe.alloc_event_id", "method", names, members) == (True, "test_v1_a.py")
    assert sv.exercised("fwk.TPipe.release_event_id", "method", names, members) == (False, None)
    assert sv.exercised("core.HardEvent.V_S", "member", names, members)[0] is True
    assert sv.exercised("basic.mmad", "function", names, members)[0] is False


def test_compare_reports_refused_members_and_missing_names():
    up = {"entries": {"basic.mmad": {"kind": "function", "params": [p("dst")]},
                      "core.pad_t": {"kind": "enum"}, "core.pad_t.PAD_NONE": {"kind": "member"},
                      "fwk.TPipe.to_ir": {"kind": "method", "params": []},
                      "fwk.TBuf.enque": {"kind": "method", "params": [p("tensor")]}}}
    here = {"entries": {"basic.mmad": {"kind": "unsupported"}, "core.pad_t": {"kind": "unsupported"},
                        "fwk.TBuf.enque": {"kind": "missing"}}}
    rows = sv.compare(up, here, {}, {})
    s = sv.summarise(rows)
    assert s["not_supported"] == ["basic.mmad", "core.pad_t", "core.pad_t.PAD_NONE"]
    assert s["missing"] == ["fwk.TBuf.enque"] and s["upstream_entries"] == 4


def test_this_engines_probe_resolves_names_where_upstream_code_imports_them(tmp_path):
    names = tmp_path / "names.json"
    names.write_text(json.dumps({"basic": ["data_copy", "load_image_to_local"], "fwk": ["TPipe"],
                                 "core": ["HardEvent"]}))
    data = sv.run_probe(Path(sys.executable), tmp_path, names)
    e = data["entries"]
    assert e["basic.load_image_to_local"] == {"kind": "unsupported"}
    assert e["basic.data_copy"]["kind"] == "function" and e["basic.data_copy"]["path"] is True
    assert e["fwk.TPipe.alloc_event_id"]["params"] == [p("event", default="HardEvent.V_S")]
    assert e["core.HardEvent.MTE2_V"] == {"kind": "member"}


PYASC_DEV_PYTHON = os.environ.get("PYASC_DEV_PYTHON")


@pytest.mark.conformance
@pytest.mark.skipif(not PYASC_DEV_PYTHON, reason="no pyasc-dev interpreter configured (set PYASC_DEV_PYTHON to "
                                                 "~/.cache/asc-embedded/pyasc-dev/bin/python; make conformance)")
def test_v1_surface_report_against_pyasc_dev():
    python = sv.pyasc_interpreter(PYASC_DEV_PYTHON, None, False)
    root = Path(__file__).resolve().parents[2]
    report = sv.build_report(python, root / "tests" / "compiler")
    by = {r["name"]: r for r in report["upstream"]}
    for name in ("fwk.TPipe.alloc_event_id", "fwk.TPipe.release_event_id", "fwk.TPipe.init_buffer",
                 "basic.set_flag", "basic.scalar_get_sff_value", "fwk.TQueBind.alloc_tensor"):
        assert by[name]["present"] and sv.matching(by[name]["signature"]), by[name]
    s = report["summary"]
    assert s["upstream_entries"] > 500 and s["by_package"]["fwk"]["present"] >= 40
    print(sv.figures(s))
