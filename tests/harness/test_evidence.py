"""Evidence records: building, schema validation, naming, provenance, atomic and concurrent writes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import pytest

from asc_harness.store.evidence import RECORD_NAME_RE, EvidenceError, build_record, validate_record, write_record
from asc_harness.store.evidence_read import iter_records, load_record

from conftest import ABS, ADD, PLATFORM, git


def test_record_is_valid_and_named_by_contract(ws):
    path = ws.record(ABS, ticks=42)
    rel = path.relative_to(ws.root).as_posix()
    assert rel.startswith(f"evidence/{ABS}/golden-")
    assert RECORD_NAME_RE.match(path.name)
    rec = load_record(path)
    assert rec["kernel"] == "golden/kernels/abs_f16.py"
    assert len(rec["kernel_sha256"]) == 64
    assert rec["cases"][0]["ticks"] == 42
    prov = rec["provenance"]
    assert prov["harness_commit"] == git(ws.root, "rev-parse", "HEAD").strip()
    assert prov["harness_dirty"] is False
    assert prov["engine"] == "embedded" and prov["engine_version"] == "0.1.0" and prov["seed"] == 2026
    assert rec["started_at"].endswith("Z")
    assert "/tmp" not in json.dumps(rec)  # repo-relative only


def test_dirty_flag_ignores_evidence_and_registry(ws):
    from asc_harness.store.evidence import harness_git_state

    ws.record(ABS)
    (ws.root / "capabilities.yaml").write_text(ws.text() + "\n# edited\n")
    assert harness_git_state(ws.root)[1] is False
    (ws.root / "golden/kernels/abs_f16.py").write_text("# changed\n")
    assert harness_git_state(ws.root)[1] is True


def test_absolute_paths_are_relativized(ws):
    result = {"status": "error", "failure": {"category": "runtime_error",
                                               "message": f"boom in {ws.root}/golden/kernels/abs_f16.py"},
              "runtime_verified": True, "cases": [], "engine": "embedded", "backend": "Model",
              "platform": PLATFORM}
    rec = build_record(result, cell=ABS, root=ws.root, kernel=ws.root / "golden/kernels/abs_f16.py")
    assert rec["failure"]["message"] == "boom in golden/kernels/abs_f16.py"
    assert validate_record(rec) == []


def test_kernel_outside_repo_is_refused(ws, tmp_path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text("")
    with pytest.raises(EvidenceError.__mro__[1], match="outside the repository"):
        build_record({"status": "pass", "cases": []}, cell=ABS, root=ws.root, kernel=outside)


def _valid(ws):
    return json.loads(ws.record(ABS).read_text())


@pytest.mark.parametrize("mutate, path, fragment", [
    (lambda r: r.update(colour="red"), "colour", "unknown field"),
    (lambda r: r["provenance"].update(engine="tpu"), "provenance.engine", "not one of"),
    (lambda r: r.update(status="fail", failure={"category": "bad", "message": "x"}), "failure.category", "not one of"),
    (lambda r: r.update(failure={"category": "timeout", "message": "x"}), "failure", "not of type 'null'"),
    (lambda r: r["cases"][0].update(mismatches=-1), "cases[0].mismatches", "minimum"),
    (lambda r: r.update(kernel="/abs/path.py"), "kernel", "Repository-relative"),
    (lambda r: r.update(cell="abs/float32/" + PLATFORM), "cell", "does not match"),
    (lambda r: r.pop("provenance"), "provenance", "missing required field"),
    (lambda r: r["cases"][0].update(status="fail"), "cases[0].status", "passing record"),
])
def test_invalid_records_name_the_field(ws, mutate, path, fragment):
    rec = _valid(ws)
    mutate(rec)
    issues = validate_record(rec)
    assert any(i.path == path and fragment in i.message for i in issues), [str(i) for i in issues]
    with pytest.raises(EvidenceError, match="refusing to write"):
        write_record(rec, ws.evidence)


def test_unreadable_records_are_reported_not_fatal(ws):
    good = ws.record(ABS)
    bad = good.with_name("golden-20260101T000000000000Z-beef.json")
    bad.write_text('{"schema_version": 1, "kind": ')
    with pytest.raises(EvidenceError, match=r":1:\d+: invalid JSON"):
        load_record(bad)
    loaded = list(iter_records(ws.evidence, root=ws.root))
    assert [r.path.name for r in loaded] == [bad.name, good.name]  # ordered by the name's timestamp
    assert loaded[0].error and not loaded[0].valid and loaded[1].valid


def test_record_in_the_wrong_directory_is_flagged(ws):
    path = ws.record(ABS)
    wrong = ws.evidence / ADD / path.name
    wrong.parent.mkdir(parents=True)
    path.rename(wrong)
    (rec,) = list(iter_records(ws.evidence, root=ws.root))
    assert "stored under" in rec.error


WRITER = textwrap.dedent("""
    import json, sys
    from asc_harness.store.evidence import write_record
    record = json.loads(open(sys.argv[1]).read())
    sys.stdin.readline()          # start together
    for i in range(int(sys.argv[3])):
        record["wall_time_s"] = float(i)
        write_record(record, sys.argv[2])
""")


def test_two_concurrent_writers_lose_nothing(ws, tmp_path):
    template = tmp_path / "record.json"
    template.write_text(json.dumps(_valid(ws)))
    for p in (ws.evidence / ABS).glob("*.json"):
        p.unlink()
    n = 60
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(template), str(ws.evidence), str(n)],
                              stdin=subprocess.PIPE, text=True) for _ in range(2)]
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    for p in procs:
        p.stdin.close()
        assert p.wait(timeout=60) == 0
    files = sorted((ws.evidence / ABS).iterdir())
    assert len(files) == 2 * n
    assert all(RECORD_NAME_RE.match(f.name) for f in files)  # no temporary files left behind
    walls = sorted(load_record(f)["wall_time_s"] for f in files)
    assert walls == sorted([float(i) for i in range(n)] * 2)


def test_perf_block():
    from asc_harness.store.evidence import perf_block

    assert perf_block([101, 99, 100]) == {"ticks_median": 100, "ticks_runs": [101, 99, 100], "spread": 0.02}
    assert perf_block([]) == {"ticks_median": None, "ticks_runs": [], "spread": None}


def test_case_numbers_that_are_not_finite_are_stored_as_null_and_case_details_are_kept(ws):
    sandbox_dir = "/tmp/asc-run-1234"
    result = {"status": "fail", "runtime_verified": True, "engine": "embedded", "backend": "Model",
              "platform": PLATFORM, "seed": 7, "wall_time_s": 1.23456789, "sandbox_dirs": [sandbox_dir],
              "failure": {"category": "numeric_mismatch", "message": f"case big: see {sandbox_dir}/out.npy"},
              "cases": [{"id": "big", "shape": [4, 8], "status": "fail", "atol": 1e-3, "rtol": 1e-3,
                         "max_abs_err": float("inf"), "max_rel_err": float("nan"), "mismatches": 3,
                         "elements": 32, "ticks": 9, "wall_s": float("-inf"), "roofline": 0.25,
                         "message": f"3 of 32 outside the tolerance ({ws.root}/golden/kernels/abs_f16.py)"}]}
    rec = build_record(result, cell=ABS, root=ws.root, kernel=ws.root / "golden/kernels/abs_f16.py", seed=11)
    (case,) = rec["cases"]
    assert case["max_abs_err"] is None and case["max_rel_err"] is None and case["wall_s"] is None
    assert case["atol"] == 1e-3 and case["mismatches"] == 3 and case["ticks"] == 9 and case["roofline"] == 0.25
    assert case["message"] == "3 of 32 outside the tolerance (golden/kernels/abs_f16.py)"
    assert rec["failure"]["message"] == "case big: see <workdir>/out.npy"
    assert rec["provenance"]["seed"] == 11 and rec["wall_time_s"] == 1.234568
    assert validate_record(rec) == []
    json.dumps(rec, allow_nan=False)              # the file is strict JSON


@pytest.mark.parametrize("bad,more", [(3, ""), (5, " (and 2 more)")])
def test_corrupt_evidence_stops_a_writer_up_front_naming_three_records(ws, bad, more):
    from asc_harness.store.evidence_read import require_valid_evidence

    good = ws.record(ABS)
    require_valid_evidence(ws.evidence, root=ws.root)        # all valid: nothing to say
    for i in range(bad):
        good.with_name(f"golden-2026010{i + 1}T000000000000Z-beef.json").write_text("{")
    with pytest.raises(EvidenceError, match=re.escape(f"corrupt evidence ({bad} record(s)); fix or remove them")) as e:
        require_valid_evidence(ws.evidence, root=ws.root)
    text = str(e.value)
    assert text.count("invalid JSON") == 3 and text.endswith("invalid JSON: Expecting property name enclosed in "
                                                              "double quotes" + more)


def test_readers_select_records_by_cell_and_kind_oldest_first(ws):
    g1 = ws.record(ABS)
    p1 = ws.record(ABS, kind="perf")
    g2 = ws.record(ABS, status="fail")
    ws.record(ADD, kind="generative")
    names = lambda recs: [r.path.name for r in recs]                   # noqa: E731
    assert names(iter_records(ws.evidence, root=ws.root, cell=ABS)) == [g1.name, p1.name, g2.name]
    assert names(iter_records(ws.evidence, root=ws.root, cell=ABS, kinds=["golden"])) == [g1.name, g2.name]
    assert names(iter_records(ws.evidence, root=ws.root, kinds=["perf"])) == [p1.name]
    assert len(list(iter_records(ws.evidence, root=ws.root))) == 4
    assert list(iter_records(ws.evidence / "missing", root=ws.root)) == []


@pytest.mark.parametrize("kind,named", [("golden", "perf"), ("perf", "golden"), ("generative", "golden")])
def test_a_record_whose_kind_differs_from_its_file_name_is_flagged(ws, kind, named):
    path = ws.record(ADD if kind == "generative" else ABS, kind=kind)
    renamed = path.rename(path.with_name(path.name.replace(kind, named, 1)))
    (rec,) = iter_records(ws.evidence, root=ws.root)
    assert rec.path == renamed and not rec.valid
    assert rec.error == f"{renamed}: record kind {kind!r} does not match its file name"


def test_records_are_readable_by_everyone_and_not_executable(ws):
    import stat

    path = ws.record(ABS)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644    # not the 0600 of a fresh temporary file


def test_a_result_that_does_not_say_it_ran_is_recorded_as_not_runtime_verified(ws):
    rec = build_record({"status": "pass", "cases": [], "platform": PLATFORM}, cell=ABS, root=ws.root)
    assert rec["runtime_verified"] is False and rec["status"] == "pass"


def test_case_warnings_are_recorded_relativized_and_checked_by_the_schema(ws):
    warning = {"kind": "UndefinedStoreWarning", "where": "abs_f16.py:12",
               "message": f"store to 'out' writes 3 undefined element(s): the tile loaded at {ws.root}/golden/kernels/"
                          "abs_f16.py:11:8 with pad_value=None"}
    case = {"id": "1x128", "shape": [1, 128], "status": "pass", "atol": 0.001, "rtol": 0.001, "max_abs_err": 0.0,
            "max_rel_err": 0.0, "mismatches": 0, "elements": 128, "ticks": 7, "wall_s": 0.1, "warnings": [warning]}
    result = {"status": "pass", "failure": None, "runtime_verified": True, "cases": [case], "engine": "embedded",
              "backend": "Model", "platform": PLATFORM}
    rec = build_record(result, cell=ABS, root=ws.root, kernel=ws.root / "golden/kernels/abs_f16.py")
    (w,) = rec["cases"][0]["warnings"]
    assert w["message"].endswith("the tile loaded at golden/kernels/abs_f16.py:11:8 with pad_value=None")
    assert validate_record(rec) == []
    w["kind"] = "a warning"
    assert [i.path for i in validate_record(rec)] == ["cases[0].warnings[0].kind"]
