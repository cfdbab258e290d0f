"""The v1 differential: its classification of verdict pairs, its message matching, the numpy reference of the
call forms, the corpus generator over upstream's docstrings and the fuzzer's drawing (always run, on fixtures);
this engine against the committed v1 corpus (always run: no pyasc-dev needed); the differential against a real
pyasc-dev (skipped unless PYASC_DEV_PYTHON names its interpreter)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from asc_harness.conform import v1_corpus, v1_diff, v1_forms, v1_fuzz

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "conformance" / "v1"
PYASC_DEV_PYTHON = os.environ.get("PYASC_DEV_PYTHON")
DISPATCH = ("CodegenError: RuntimeError: No viable candidates were found to dispatch add()\nProvided arguments:\n"
            "  (..., int, int, )")


def case(here=None, expect=None, differs=None):
    return v1_diff.Case("t/x", Path("x.py"), expect, here, differs, {"atol": 0, "rtol": 0})


def ran(z, ref):
    return {"verdict": "accepted", "message": None, "arrays": {"out.z": np.asarray(z), "ref.z": np.asarray(ref)}}


def refused(message):
    return {"verdict": "rejected", "message": message}


UP_OK = {"verdict": "accepted", "message": None}


# -- classification ------------------------------------------------------------------------------------------
def test_both_accept_and_one_element_off_numpy_is_a_numbers_disagreement():
    e = v1_diff.classify(case(), UP_OK, ran([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]))
    assert e["outcome"] == "agree" and not v1_diff.failed(e)
    e = v1_diff.classify(case(), UP_OK, ran([1.0, 2.0, 3.5], [1.0, 2.0, 3.0]))
    assert e["outcome"] == "numbers" and "1/3 elements differ from numpy, first at [2]" in e["detail"]
    assert v1_diff.failed(e)


def test_a_refusal_by_a_stated_hardware_rule_agrees_and_any_other_refusal_of_an_accepted_call_does_not():
    mask = "ValueError: k.py:28: mask 128 is outside [1, 64] for 4-byte elements\nhint: one repeat covers 64"
    e = v1_diff.classify(case(), UP_OK, refused(mask))
    assert e["outcome"] == "hardware-rule" and "mask beyond the lanes of one repeat" in e["detail"]
    e = v1_diff.classify(case(), UP_OK, refused("TypeError: k.py:3: Invalid dst data type, got int16, expect one"))
    assert e["outcome"] == "device-rule"
    e = v1_diff.classify(case(), UP_OK, refused("TypeError: k.py:3: add: unexpected arguments ['repeat_time']"))
    assert e["outcome"] == "verdict" and v1_diff.failed(e)


def test_upstream_rejecting_what_runs_here_is_a_verdict_disagreement_unless_kept_on_purpose():
    e = v1_diff.classify(case(), refused(DISPATCH), ran([1.0], [1.0]))
    assert e["outcome"] == "verdict" and "No viable candidates were found to dispatch add()" in e["detail"]
    assert v1_diff.failed(e)
    kept = v1_diff.classify(case(differs="an extension"), refused(DISPATCH), ran([1.0], [1.0]))
    assert not v1_diff.failed(kept)


def test_both_refusing_agree_only_when_the_messages_name_the_same_mistake():
    ours = "TypeError: k.py:28: add: the mask form needs mask, repeat_times and repeat_params"
    assert v1_diff.classify(case(), refused(DISPATCH), refused(ours))["outcome"] == "same-mistake"
    # another instruction's name is another mistake
    other = "TypeError: k.py:28: sub: the mask form needs mask, repeat_times and repeat_params"
    assert v1_diff.classify(case(), refused(DISPATCH), refused(other))["outcome"] == "message"
    # a dtype refusal names the same operand and type, or it is not the same mistake
    up = "TypeError: Invalid dst data type, got int16, expect {'src': ['float16'], 'dst': ['float16']}"
    assert v1_diff.same_mistake(up, "TypeError: k.py:3: Invalid dst data type, got int16, expect one of float16")
    assert not v1_diff.same_mistake(up, "TypeError: k.py:3: Invalid src0 data type, got int16, expect one of")
    # copy is a plain function: Python's own messages for its signature
    assert v1_diff.same_mistake("TypeError: copy() missing 2 required positional arguments: 'repeat_time' and "
                                "'repeat_params'", "TypeError: k.py:27: copy has no count form")
    assert v1_diff.same_mistake("TypeError: copy() got an unexpected keyword argument 'params'",
                                "TypeError: k.py:28: copy: unexpected arguments  ['params']")
    assert not v1_diff.same_mistake("TypeError: copy() got an unexpected keyword argument 'params'",
                                    "TypeError: k.py:28: copy: unexpected arguments  ['count']")
    # duplicate's dispatcher names its module
    dup = "RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_duplicate()"
    assert v1_diff.same_mistake(dup, "TypeError: k.py:27: duplicate: unexpected arguments  ['repeat_time']")


def test_a_missing_keyword_is_the_same_mistake_and_an_earlier_stated_rule_explains_another_refusal():
    up = "CodegenError: TypeError: set_vector_mask() missing 1 required keyword-only argument: 'mode'"
    assert v1_diff.same_mistake(up, "TypeError: k.py:9: set_vector_mask() missing required keyword argument 'mode'")
    assert not v1_diff.same_mistake(up, "TypeError: k.py:9: set_vector_mask() missing required keyword argument "
                                        "'dtype'")
    # two mistakes: this engine stops at set_vector_mask's length, pyasc's front end at axpy's arguments
    e = v1_diff.classify(case(), refused("RuntimeError: No viable candidates were found to dispatch axpy()"),
                         refused("ValueError: k.py:27: set_vector_mask: len 129 is outside [1, 128] for int16"))
    assert e["outcome"] == "hardware-rule" and "before pyasc's" in e["detail"]
    e = v1_diff.classify(case(), refused("RuntimeError: No viable candidates were found to dispatch axpy()"),
                         refused("TypeError: k.py:27: sub: unexpected arguments"))
    assert e["outcome"] == "message"


def test_this_engine_is_held_to_the_cases_recorded_verdict_without_pyasc_dev():
    e = v1_diff.classify(case(here="reject"), None, ran([1.0], [1.0]))
    assert v1_diff.failed(e) and "the case expects rejected" in e["notes"][0]
    assert not v1_diff.failed(v1_diff.classify(case(here="accept"), None, ran([1.0], [1.0])))


def test_upstream_changing_its_verdict_is_noted():
    e = v1_diff.classify(case(here="accept", expect="reject"), UP_OK, ran([1.0], [1.0]))
    assert any("pyasc-dev now accepted" in n for n in e["notes"])


def test_the_figures_count_each_side():
    entries = [v1_diff.classify(case(), UP_OK, ran([1.0], [1.0])),
               v1_diff.classify(case(), refused(DISPATCH), refused("add: unexpected arguments")),
               v1_diff.classify(case(), UP_OK, refused("x: mask 200 is outside [1, 128] for 2-byte"))]
    s = v1_diff.summarise(entries)
    assert (s["pyasc_accepted"], s["accepted_agree"], s["accepted_run"], s["pyasc_rejected"],
            s["rejected_agree"], s["failing"]) == (2, 2, 1, 1, 1, 0)
    assert "pyasc-dev accepts 2, of which here 2 agree (1 run with numpy's numbers" in v1_diff.figures(s)


# -- the call forms and their reference --------------------------------------------------------------------
def test_the_mask_int_reference_touches_exactly_the_active_lanes_with_strides():
    spec = {"op": "add", "dtype": "float32", "form": "mask_int", "mask": 9, "repeat_times": 2,
            "strides": [[2, 16], [1, 8], [1, 8]], "call": []}
    dst = v1_forms.indices(spec)[0]
    # 8 float32 per block: lane 8 is block 1, which starts 2 blocks (16 elements) in; repeat 1 starts at 128
    assert dst.tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 16, 128, 129, 130, 131, 132, 133, 134, 135, 144]
    arrays = {"x": np.ones(256, np.float32), "y": np.ones(256, np.float32), "z0": np.zeros(256, np.float32)}
    z = v1_forms.reference(spec, arrays)["z"]
    assert z[16] == 2 and z[8] == 0 and z[17] == 0 and z.sum() == 2 * 18


def test_counter_mode_processes_the_count_across_repeats_and_mask_lists_select_bits():
    spec = {"op": "abs", "dtype": "float16", "form": "counter", "mask": 129, "repeat_times": 1,
            "strides": [[1, 8], [1, 8]], "call": []}
    assert v1_forms.indices(spec)[0].tolist() == list(range(129))     # one past a repeat of 128
    spec = {"op": "abs", "dtype": "float16", "form": "mask_list", "mask": [0, 1 << 63], "repeat_times": 1,
            "strides": [[1, 8], [1, 8]], "call": []}
    assert v1_forms.indices(spec)[0].tolist() == [127]               # bit 127: the last lane


def test_half_precision_rounds_once_and_integer_scalars_truncate_toward_zero():
    spec = {"op": "adds", "dtype": "int16", "form": "count", "count": 2, "scalar": -1.5, "call": []}
    arrays = {"x": np.array([5, -5] + [0] * 126, np.int16), "y": np.zeros(128, np.int16),
              "z0": np.zeros(128, np.int16)}
    assert v1_forms.reference(spec, arrays)["z"][:2].tolist() == [4, -6]
    spec = {"op": "mul_add_dst", "dtype": "float16", "form": "count", "count": 1, "call": []}
    h = np.float16
    arrays = {"x": np.full(128, h(1 + 2 ** -10)), "y": np.full(128, h(1 + 2 ** -10)),
              "z0": np.full(128, h(-(1 + 2 ** -9)))}
    # in float32 (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20, a half subnormal; a product rounded to half first loses it
    assert v1_forms.reference(spec, arrays)["z"][0] == h(2 ** -20) != 0


def test_a_destination_reading_call_whose_repeats_overlap_is_undefined():
    spec = {"op": "axpy", "dtype": "float16", "form": "mask_int", "mask": 67, "repeat_times": 3, "scalar": 3,
            "strides": [[1, 2], [2, 4]], "call": []}
    assert not v1_forms.defined(spec)
    spec["strides"] = [[1, 8], [2, 4]]
    assert v1_forms.defined(spec)
    assert v1_forms.defined(dict(spec, op="add", strides=[[1, 2], [1, 8], [1, 8]]))


def test_the_register_form_sets_the_mask_first_and_the_reference_reads_it():
    spec = {"op": "abs", "dtype": "float32", "form": "register", "mask": 0, "repeat_times": 2,
            "register": {"high": 0, "low": 0b101, "mode": "NORMAL"}, "is_set_mask": False,
            "strides": [[1, 8], [1, 8]], "call": [[None, "mask"], [None, "repeat_times"], [None, "params"],
                                                  ["is_set_mask", "is_set_mask"]]}
    assert v1_forms.indices(spec)[0].tolist() == [0, 2, 64, 66]
    assert v1_forms.call_text(spec)[1:] == [
        "asc.set_vector_mask(0x0, 0x5, dtype=asc.float32, mode=asc.MaskMode.NORMAL)",
        "asc.abs(dst, src0, 0, 2, params, is_set_mask=False)", "asc.reset_mask()"]
    spec["register"] = {"len": 65, "mode": "COUNTER"}
    assert v1_forms.indices(spec)[0].tolist() == list(range(65))
    assert v1_forms.call_text(spec)[1] == "asc.set_mask_count()"


def test_rendering_spells_the_call_as_the_spec_says():
    spec = {"op": "axpy", "dtype": "float16", "form": "mask_int", "mask": 128, "repeat_times": 4, "scalar": 2.0,
            "strides": [[1, 8], [1, 8]], "call": [["mask", "mask"], ["repeat_time", "repeat_times"],
                                                  ["repeat_params", "params"]]}
    assert v1_forms.call_text(spec) == ["params = asc.UnaryRepeatParams(1, 1, 8, 8)",
                                        "asc.axpy(dst, src0, 2.0, mask=128, repeat_time=4, repeat_params=params)"]
    spec = dict(spec, form="counter", mask=300, call=[[None, "mask"], [None, "repeat_times"], [None, "params"]])
    assert v1_forms.call_text(spec)[1:] == ["asc.set_mask_count()", "asc.axpy(dst, src0, 2.0, 300, 4, params)",
                                            "asc.set_mask_norm()"]


# -- the generator over upstream's docstrings ------------------------------------------------------------------
UTILS = '''
def set_binary_docstring(cpp_name=None, append_text=""):
    py_example = f"""
          mask = 256 // asc.half.sizeof()
          params = asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8)
          asc.{api_name}(dst, src0, src1, mask=mask, repeat_times=4, repeat_params=params)

          mask = [uint64_max, uint64_max]
          asc.{api_name}(dst, src0, src1,
                         mask=mask, repeat_times=4, repeat_params=params)

          asc.{api_name}(dst, src0, src1, count=512)
    """

def set_binary_scalar_docstring():
    py_example = f""" """

def set_unary_docstring():
    py_example = f""" """

def axpy_docstring():
    py_example = """
        asc.axpy(dst, src, 2.0, mask=128, repeat_time=4, repeat_params=params)
    """

def duplicate_docstring():
    py_example = """ """
'''


def test_the_generator_turns_each_docstring_example_into_a_spec_of_its_spelling(tmp_path):
    basic = tmp_path / "asc" / "language" / "basic"
    basic.mkdir(parents=True)
    (basic / "utils.py").write_text(UTILS)
    (basic / "vec_binary.py").write_text('@set_binary_docstring(cpp_name="Sub")\ndef sub(dst, src0, src1):\n  pass\n')
    for name in ("vec_binary_scalar.py", "vec_unary.py"):
        (basic / name).write_text("")
    calls = v1_corpus.doc_calls(tmp_path)
    assert sorted(calls) == ["axpy", "duplicate", "sub"] and len(calls["sub"]) == 3
    specs = [v1_corpus.spec_of("sub", "float16", c) for c in calls["sub"]]
    assert [s["form"] for s in specs] == ["mask_int", "mask_list", "count"]
    assert specs[0]["mask"] == 128 and specs[1]["mask"] == [(1 << 64) - 1] * 2 and specs[2]["count"] == 512
    axpy = v1_corpus.spec_of("axpy", "float16", calls["axpy"][0])
    assert axpy["call"][1] == ["repeat_time", "repeat_times"] and axpy["scalar"] == 2.0
    written = v1_corpus.generate(tmp_path, tmp_path / "out")
    assert len(written) == 3 * 3 + 3                      # sub's 3 examples and axpy's 1, in 3 dtypes
    assert "asc.sub(dst, src0, src1, count=512)" in (tmp_path / "out" / "sub_int16_2.py").read_text()


# -- the fuzzer -------------------------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(v1_fuzz.form_specs())
def test_every_drawn_form_renders_a_kernel_whose_operands_hold_its_reach(spec):
    source = v1_forms.render(spec, "t")
    compile(source, "case.py", "exec")
    assert f"asc.{spec['op']}(" in source
    n = v1_forms.extent(spec)
    assert all(ix.size == 0 or ix.max() < n for ix in v1_forms.indices(spec))


def test_a_disagreement_is_written_once_as_a_case_the_differential_loads(tmp_path):
    spec = {"op": "add", "dtype": "float16", "form": "mask_int", "mask": 100, "repeat_times": 2,
            "strides": [[1, 8]] * 3, "call": [[None, "mask"], [None, "repeat_times"]]}
    entry = {"outcome": "verdict", "pyasc": "rejected", "here": "accepted", "detail": "pyasc rejects: ...",
             "pyasc_message": DISPATCH, "here_message": None}
    sig = v1_fuzz.signature(spec, entry)
    path = v1_fuzz.write_case(spec, entry, sig, tmp_path)
    assert v1_fuzz.existing_signatures(tmp_path) == {sig}
    (loaded,) = v1_diff.load_corpus(tmp_path)
    assert loaded.expect == "reject" and loaded.path == path


def test_cases_running_upstreams_kernel_tests_load_only_where_the_sources_are(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "u.py").write_text('UPSTREAM_TEST = "test/kernels/test_x.py"\nEXPECT = "accept"\n'
                                         "def run():\n    return {}\n")
    with pytest.raises(Exception, match="no v1 case"):
        v1_diff.load_corpus(tmp_path / "c")                        # no sources: nothing to run
    (tmp_path / "up" / "test" / "kernels").mkdir(parents=True)
    (tmp_path / "up" / "test" / "kernels" / "test_x.py").write_text("def test_x(backend):\n    pass\n")
    assert [c.name for c in v1_diff.load_corpus(tmp_path / "c", upstream=tmp_path / "up")] == ["u"]


# -- this engine against the committed corpus (no pyasc-dev) ------------------------------------------------
def test_this_engine_meets_every_committed_v1_case_and_numpy():
    upstream = v1_diff.upstream_sources(ROOT)           # upstream's kernel tests too, when the sources are here
    cases = v1_diff.load_corpus(CORPUS, upstream=upstream)
    assert len(cases) >= 300
    entries = v1_diff.run_cases(cases, None, upstream=upstream)
    bad = [f"{e['case']}: {e['notes']}" for e in entries if v1_diff.failed(e)]
    assert not bad, "\n".join(bad[:10])
    assert sum(e["here"] == "accepted" for e in entries) >= 150      # most run, and were checked against numpy


# -- against pyasc-dev ---------------------------------------------------------------------------------------
@pytest.mark.conformance
@pytest.mark.skipif(not PYASC_DEV_PYTHON, reason="no pyasc-dev interpreter configured (set PYASC_DEV_PYTHON to "
                                                 "~/.cache/asc-embedded/pyasc-dev/bin/python; make conformance)")
def test_the_differential_agrees_with_pyasc_dev_on_the_docstring_corpus_and_a_fuzz_budget():
    python = Path(PYASC_DEV_PYTHON)
    upstream = v1_diff.upstream_sources(ROOT)
    cases = v1_diff.load_corpus(CORPUS, ["docs/add_*", "docs/axpy_*", "fuzz/*", "upstream/*test_vadd*"], upstream)
    entries = v1_diff.run_cases(cases, python, upstream=upstream)
    assert not [e for e in entries if v1_diff.failed(e)]
    assert {e["pyasc"] for e in entries} == {"accepted", "rejected"}
    specs, found = v1_fuzz.fuzz(python, 12, 11)
    assert len(found) == len(specs) > 0
    assert all(e["outcome"] in v1_diff.AGREEING for e in found), [e["detail"] for e in found]


# -- the Ascend C reference kernels as cases -------------------------------------------------------------------
def test_every_reference_is_a_case_on_each_platform_the_registry_lists_it_for():
    import yaml

    cells = yaml.safe_load((ROOT / "capabilities.yaml").read_text())["cells"]
    pairs = {(Path(c["ascendc"]).stem, c["platform"]) for c in cells if c.get("ascendc")}
    cases = v1_diff.reference_cases(ROOT)
    assert sorted(c.name for c in cases) == sorted(f"ascendc/{s}@{p}" for s, p in pairs)
    assert all(c.spec == f"ascendc:{c.name.split('@')[1]}:{c.path}" and c.expect == "accept" for c in cases)
    assert [c.name for c in v1_diff.reference_cases(ROOT, ["ascendc/abs_f16@Ascend910B1"])] == \
        ["ascendc/abs_f16@Ascend910B1"]
    from asc_harness.conform.v1_ascendc import KNOWN_REFUSALS
    assert {Path(c.path).stem for c in cases if c.differs} == set(KNOWN_REFUSALS)


def test_a_reference_run_here_records_each_distinct_launch_with_its_argument_types():
    sys.path.insert(0, str(ROOT / "tests" / "tools" / "asc_harness" / "conform"))
    import v1_ascendc

    out, expected, launches = v1_ascendc.run_here(str(ROOT / "golden" / "ascendc" / "abs_f16.py"), "Ascend910B1",
                                                  "v1_ref_test_abs")
    assert out["cases_passed"] == expected["cases_passed"] > 0
    assert {e["kernel"] for e in launches} == {"abs_kernel"}
    assert len({repr(e) for e in launches}) == len(launches) > 1          # one entry per distinct launch
    first = launches[0]["args"]
    assert first[:2] == [{"array": "float16"}, {"array": "float16"}] and all(type(a) is int for a in first[2:])


def test_a_struct_argument_is_recorded_by_its_fields():
    sys.path.insert(0, str(ROOT / "tests" / "tools" / "asc_harness" / "conform"))
    import v1_ascendc

    import asc

    t = asc.adv.TCubeTiling()
    t.m = 37
    assert v1_ascendc._describe(t) == {"struct": "TCubeTiling", "fields": t.as_dict()}
    assert v1_ascendc._describe(t)["fields"]["m"] == 37
    with pytest.raises(TypeError, match="cannot replay: object"):
        v1_ascendc._describe(object())
