"""Unit tests of the data the dashboard pages are built from, and of the command line."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import re
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dashboard_fixture_repo as fx  # noqa: E402
from asc_harness.report import dashboard  # noqa: E402
from asc_harness.report.dashboard import DashboardError, build_site_data  # noqa: E402


@pytest.fixture
def repo(tmp_path):
    return fx.build(tmp_path / "repo")


@pytest.fixture
def data(repo):
    return build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)


def cell(data, cid):
    return next(c for c in data["cells"] if c["id"] == cid)


A16 = f"abs/float16/{fx.P1}"


# --------------------------------------------------------------------------- matrix layout

def test_every_registry_cell_is_shown_once(repo, data):
    reg = yaml.safe_load(repo.capabilities.read_text())
    ids = [c["id"] for c in reg["cells"]]
    assert [c["id"] for c in data["cells"]] == ids
    in_rows = [cid for t in data["tiers"] for r in t["rows"] for cid in r["cells"].values() if cid]
    assert sorted(in_rows) == sorted(ids)
    assert data["summary"]["cells"] == len(ids)


def test_rows_are_operations_grouped_by_tier(data):
    tiers = {t["id"]: [r["op"] for r in t["rows"]] for t in data["tiers"]}
    assert tiers == {0: ["abs", "add", "exp", "relu"], 1: ["reduce_sum"], 2: ["softmax", "layer_norm"], 3: ["matmul"]}


def test_columns_per_dtype_and_platform_when_several(data):
    assert data["multi_platform"] is True
    assert [c["key"] for c in data["columns"]] == [
        f"float16/{fx.P1}", f"float16/{fx.P2}", f"float32/{fx.P1}", f"float32/{fx.P2}"]
    assert all(c["sublabel"] == c["platform"] for c in data["columns"])


def test_columns_per_dtype_with_one_platform(tmp_path):
    r = fx.build(tmp_path / "one", platforms=(fx.P1,))
    d = build_site_data(r.capabilities, r.evidence_dir, now=fx.NOW)
    assert d["multi_platform"] is False
    assert [c["label"] for c in d["columns"]] == ["float16", "float32"]
    assert all(c["sublabel"] is None for c in d["columns"])
    assert d["platforms"] == [fx.P1]


def test_tier_progress(data):
    t0 = next(t for t in data["tiers"] if t["id"] == 0)
    # tier 0: abs f16 (2 platforms), abs f32, add f16, add f32, exp f16, relu f16
    assert t0["total"] == 7
    assert t0["golden_confirmed"] == 4
    assert t0["generative_confirmed"] == 1
    assert t0["perf_measured"] == 1
    assert t0["confirmed"] == 1
    assert sum(t["total"] for t in data["tiers"]) == len(data["cells"])


def test_summary_counts(repo, data):
    s = data["summary"]
    assert s["golden"]["confirmed"] == 7
    assert s["golden"]["failing"] == 1
    assert s["perf"]["measured"] == 2
    assert s["records"] == sum(len(v) for v in repo.records.values()) == 17
    assert s["newest_record"] == "2026-11-22T07:00:00Z"


# --------------------------------------------------------------------------- statuses and evidence

def test_statuses_and_deciding_records(repo, data):
    c = cell(data, A16)
    assert c["status"] == {"golden": "confirmed", "generative": "confirmed", "perf": "measured"}
    g = c["decided_by"]["golden"]
    assert g["found"] and g["status"] == "pass" and g["matches_cell"]
    assert g["path"] == repo.records[A16][4]
    assert [d["status"] for d in c["decided_by"]["generative"]] == ["fail", "pass"]
    assert c["decided_by"]["perf"]["path"] == repo.records[A16][-1]
    deciding = [r["path"] for r in c["records"] if r["deciding"]]
    assert sorted(deciding) == sorted(repo.records[A16][4:])
    assert c["checks"] == []


def test_records_newest_first_with_provenance(data):
    c = cell(data, A16)
    times = [r["started_at"] for r in c["records"]]
    assert times == sorted(times, reverse=True)
    assert len(c["records"]) == 8
    r0 = c["records"][0]
    assert r0["kind"] == "perf" and r0["engine"] == "embedded"
    assert r0["provenance"]["harness_commit"] == "3f2a9c1d0e7b"
    assert r0["commit_short"] == "3f2a9c1d0e"


def test_history_oldest_first_with_ticks(data):
    c = cell(data, A16)
    golden = [h for h in c["history"] if h["kind"] == "golden"]
    assert [h["ticks"] for h in golden] == [130 + 5100, 130 + 4980, 130 + 5200, 130 + 4760, 130 + 4692]
    assert [h["status"] for h in golden] == ["pass", "pass", "fail", "pass", "pass"]
    perf = [h for h in c["history"] if h["kind"] == "perf"]
    assert perf[0]["ticks"] == 4692


def test_per_shape_cases_from_the_deciding_record(data):
    c = cell(data, A16)
    assert c["cases"]["deciding"] is True
    rows = c["cases"]["rows"]
    assert [r["shape"] for r in rows] == ["1×128", "32×4096"]
    assert rows[1]["ticks"] == 4692 and rows[1]["mismatches"] == 0 and rows[1]["elements"] == 131072
    assert rows[0]["max_abs_err"] == pytest.approx(4.8e-4)

    f = cell(data, f"add/float32/{fx.P1}")
    bad = [r for r in f["cases"]["rows"] if r["status"] == "fail"]
    assert bad and bad[0]["mismatches"] == 17


def test_per_shape_cases_carry_their_pipe_timeline_and_trace(repo, data):
    rows = cell(data, A16)["cases"]["rows"]
    small, big = rows
    # one row per busy pipe in pipe order; one slice per merged busy interval; launches one after the other
    assert list(small["timeline"]["pipes"]) == ["S", "MTE2", "V", "MTE3"] == list(big["timeline"]["pipes"])
    assert small["timeline"]["pipes"]["MTE2"] == [[10.0, 120.0]] and len(big["timeline"]["pipes"]["MTE2"]) == 4
    assert big["timeline"]["ticks"] == 650.0 and big["timeline"]["launches"] == 1
    for r in rows:  # the trace lies beside the record, linked relative to the evidence folder
        assert len(r["traces"]) == 1 and r["traces"][0].startswith(f"{A16}/traces/")
        assert (repo.evidence_dir / r["traces"][0]).is_file()
    # the older golden runs kept no trace: nothing is drawn for them
    assert all(r["timeline"] is None and r["traces"] == [] for r in cell(data, f"abs/float32/{fx.P1}")["cases"]["rows"])


def test_a_missing_trace_is_not_linked_and_a_malformed_timeline_is_corrupt_evidence(repo):
    first = build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)
    small = cell(first, A16)["cases"]["rows"][0]
    (repo.evidence_dir / small["traces"][0]).unlink()
    small, big = cell(build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW), A16)["cases"]["rows"]
    assert small["traces"] == [] and small["timeline"] is not None and len(big["traces"]) == 1
    path = repo.evidence_dir / cell(first, A16)["cases"]["path"]
    rec = json.loads(path.read_text())
    rec["cases"][1]["timeline"]["pipes"]["V"] = "busy"
    path.write_text(json.dumps(rec))
    with pytest.raises(DashboardError, match=r"corrupt evidence: .*cases\[1\]\.timeline\.pipes\.V"):
        build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)


def test_perf_values(data):
    p = cell(data, A16)["perf"]
    assert p["ticks_median"] == 4692 and p["ticks_runs"] == [4690, 4692, 4701]
    assert p["spread"] == pytest.approx(0.002) and p["deciding"]


def test_generative_attempts(data):
    a = cell(data, A16)["attempts"]
    assert [x["attempt"] for x in a] == [2, 1]
    assert a[0]["outcome"] == "pass" and a[0]["variant"] == "guided" and a[0]["cases_passed"] == 2
    assert a[1]["failure"]["category"] == "compile_error"
    assert a[1]["agent_wall_s"] == 41.5


def test_known_issues_prompts_and_source(data):
    c = cell(data, A16)
    assert c["known_issues"] == [{"text": "large shapes are slow on the embedded engine",
                                  "link": "https://example.invalid/issues/12", "since": "2026-08-11"}]
    assert set(c["prompts"]) == {"minimal", "guided"}
    assert c["golden"]["exists"] and 'OP = "abs"' in c["golden"]["source"]
    assert c["golden"]["matches_evidence"] is True
    assert c["shapes"] == ["1×128", "32×4096"]


# --------------------------------------------------------------------------- freshness

def test_freshness_and_staleness(repo):
    d = build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)
    stale = cell(d, f"add/float16/{fx.P1}")["freshness"]
    assert stale["stale"] is True and stale["age_days"] == 40.0 and stale["age_label"] == "40d"
    fresh = cell(d, A16)["freshness"]
    assert fresh["stale"] is False and fresh["newest"] == "2026-11-21T12:00:00Z" and fresh["age_label"] == "24h"
    none = cell(d, f"exp/float16/{fx.P1}")["freshness"]
    assert none == {"newest": None, "age_seconds": None, "age_days": None, "age_label": "never",
                    "stale": False, "has_evidence": False}
    assert d["summary"]["stale"] == 1

    d60 = build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW, stale_days=60)
    assert d60["summary"]["stale"] == 0
    d1 = build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW, stale_days=0.5)
    assert cell(d1, A16)["freshness"]["stale"] is True


def test_now_accepts_string_and_naive(repo):
    a = build_site_data(repo.capabilities, repo.evidence_dir, now="2026-11-22T12:00:00Z")
    b = build_site_data(repo.capabilities, repo.evidence_dir, now=dt.datetime(2026, 11, 22, 12, 0, 0))
    assert a["generated_at"] == b["generated_at"] == "2026-11-22T12:00:00Z"
    assert cell(a, A16)["freshness"] == cell(b, A16)["freshness"]
    with pytest.raises(DashboardError, match="invalid time 'yesterday'"):
        build_site_data(repo.capabilities, repo.evidence_dir, now="yesterday")


def test_default_now_is_current_time(repo):
    d = build_site_data(repo.capabilities, repo.evidence_dir)
    gen = dt.datetime.strptime(d["generated_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
    assert abs((dt.datetime.now(dt.timezone.utc) - gen).total_seconds()) < 60


# --------------------------------------------------------------------------- trust checks

def test_missing_deciding_record_is_flagged(data):
    c = cell(data, f"reduce_sum/float32/{fx.P1}")
    assert c["decided_by"]["perf"]["found"] is False
    assert any("missing from the evidence folder" in ch["text"] for ch in c["checks"])
    assert c["perf"] is None


def test_changed_golden_kernel_is_flagged(data):
    c = cell(data, f"softmax/float16/{fx.P1}")
    assert c["golden"]["matches_evidence"] is False
    assert any("changed since" in ch["text"] for ch in c["checks"])


def test_newer_run_than_the_deciding_one_is_noted(data):
    c = cell(data, f"matmul/float16/{fx.P1}")
    assert any(ch["level"] == "info" and "newer golden run" in ch["text"] for ch in c["checks"])
    # The per-shape table still shows the record the registry names.
    assert c["cases"]["deciding"] is True and c["cases"]["status"] == "pass"


def test_missing_golden_kernel_and_unbacked_status(data):
    c = cell(data, f"relu/float16/{fx.P1}")
    assert c["golden"]["exists"] is False and c["golden"]["source"] is None
    assert any("not found" in ch["text"] for ch in c["checks"])


def test_status_without_evidence_is_flagged(repo):
    reg = yaml.safe_load(repo.capabilities.read_text())
    reg["cells"][2]["evidence"]["golden"] = None     # add/float16 confirmed, now without record
    repo.capabilities.write_text(yaml.safe_dump(reg))
    d = build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)
    c = cell(d, f"add/float16/{fx.P1}")
    assert any("names no evidence record" in ch["text"] for ch in c["checks"])
    # The newest golden run still fills the per-shape table, marked as not deciding.
    assert c["cases"] is not None and c["cases"]["deciding"] is False


def test_orphan_evidence_becomes_a_warning(repo):
    rel = repo.records[f"add/float32/{fx.P1}"][0]
    rec = json.loads((repo.evidence_dir / rel).read_text())
    rec.update(cell=f"gone/float16/{fx.P1}", op="gone", dtype="float16")
    orphan = repo.evidence_dir / "gone/float16" / fx.P1
    orphan.mkdir(parents=True)
    (orphan / "golden-20261101T000000000000Z-beef.json").write_text(json.dumps(rec))
    d = build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)
    assert any("1 evidence record(s) for 'gone/float16/" in w and "not in the registry" in w for w in d["warnings"])
    assert len(d["cells"]) == len(repo.cells)


@pytest.mark.parametrize("content, message", [
    ("{not json", "invalid JSON"),
    (json.dumps({"schema_version": 1, "kind": "golden", "cell": f"abs/float16/{fx.P1}", "status": "pass"}),
     "invalid evidence record"),
])
def test_corrupt_evidence_is_an_input_error(repo, content, message):
    (repo.evidence_dir / "abs/float16" / fx.P1 / "golden-20261101T000000000000Z-beef.json").write_text(content)
    with pytest.raises(DashboardError, match=f"corrupt evidence: .*golden-20261101T000000000000Z-beef.json.*{message}"):
        build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)


def test_missing_evidence_folder_means_no_evidence(repo, tmp_path):
    d = build_site_data(repo.capabilities, tmp_path / "nowhere", now=fx.NOW)
    assert d["summary"]["records"] == 0
    assert all(not c["freshness"]["has_evidence"] for c in d["cells"])
    assert any("missing from the evidence folder" in ch["text"] for ch in cell(d, A16)["checks"])


def test_site_data_is_plain_json(data):
    # The page reads this data as JSON: no NaN/Infinity, no tuples or non-string keys that would come
    # back different from a round trip.
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text) == data
    assert data["cells"] and all(isinstance(c["slug"], str) for c in data["cells"])


def test_cell_slugs_are_unique_file_names(data):
    slugs = [c["slug"] for c in data["cells"]]
    assert len(set(slugs)) == len(slugs)
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+", s) for s in slugs)
    assert dashboard.cell_slug("abs/float16/Ascend950PR_9599") == "abs--float16--Ascend950PR_9599"
    assert dashboard.cell_slug("a b/../c") == "a_b--_--c"


# --------------------------------------------------------------------------- registry errors

@pytest.mark.parametrize("text, message", [
    (None, "capabilities file not found"),
    ("cells: [", "invalid YAML"),
    ("- 1\n- 2\n", "not a mapping"),
    ("schema_version: 2\ncells: []\n", "is not valid: "),
])
def test_registry_errors(tmp_path, text, message):
    path = tmp_path / "capabilities.yaml"
    if text is not None:
        path.write_text(text)
    with pytest.raises(DashboardError, match=re.escape(message)):
        build_site_data(path, tmp_path / "evidence")


@pytest.mark.parametrize("edit, message", [
    (lambda reg: reg["cells"][0].pop("platform"), "cells[0].platform: missing required field"),
    (lambda reg: reg["cells"].append(dict(reg["cells"][0])), "duplicate cell id"),
    (lambda reg: reg["operations"][0].update(tier=9), "tier 9 is not defined in tiers"),
    (lambda reg: reg["cells"][0].update(golden_status="weird"), "golden_status"),
])
def test_registry_rules_are_the_harness_rules(repo, edit, message):
    reg = yaml.safe_load(repo.capabilities.read_text())
    edit(reg)
    repo.capabilities.write_text(yaml.safe_dump(reg, sort_keys=False))
    with pytest.raises(DashboardError, match=re.escape(message)):
        build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)


# --------------------------------------------------------------------------- charts

def test_series_svg_is_valid_and_plots_every_point():
    pts = [{"value": v, "label": f"2026-11-{10 + i}T00:00:00Z", "status": s}
           for i, (v, s) in enumerate([(5000, "pass"), (5200, "fail"), (4700, "pass")])]
    svg = dashboard.render_series_svg(pts, title="ticks")
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{ns}circle")) == 3
    assert root.find(f"{ns}path") is not None
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")
    assert dashboard.render_series_svg([{"value": None}], title="x") == ""
    one = ET.fromstring(dashboard.render_series_svg(pts[:1], title="x"))
    assert len(one.findall(f"{ns}circle")) == 1


def test_timeline_svg_has_a_mark_per_run(data):
    hist = cell(data, A16)["history"]
    root = ET.fromstring(dashboard.render_timeline_svg(hist))
    assert len(root.findall("{http://www.w3.org/2000/svg}rect")) == len(hist)
    assert dashboard.render_timeline_svg([]) == ""


def test_pipes_svg_draws_a_row_per_pipe_and_a_slice_per_interval(data):
    big = cell(data, A16)["cases"]["rows"][1]
    svg = dashboard.render_pipes_svg(big["timeline"], case_id=big["id"])
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    rows = [g for g in root.iter(f"{ns}g") if g.get("class") == "pipe-row"]
    assert [g.get("data-pipe") for g in rows] == ["S", "MTE2", "V", "MTE3"]
    assert [len(g.findall(f"{ns}rect")) for g in rows] == [1, 4, 4, 4]
    width = float(root.get("width"))
    xs = [(float(r.get("x")), float(r.get("width"))) for g in rows for r in g.findall(f"{ns}rect")]
    assert all(0 < x and x + w <= width for x, w in xs)
    last_store = rows[3].findall(f"{ns}rect")[-1]  # the last store ends the schedule: the right edge
    assert float(last_store.get("x")) + float(last_store.get("width")) == pytest.approx(width - 16, abs=0.01)
    assert "650 ticks" in root.get("aria-label")
    assert dashboard.render_pipes_svg({"ticks": 0, "pipes": {"V": [[0, 1]]}}, case_id="x") == ""


# --------------------------------------------------------------------------- command line and site

def run_main(argv, capsys):
    code = dashboard.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_renders_a_complete_offline_site(repo, tmp_path, capsys):
    out = tmp_path / "site"
    code, stdout, _ = run_main(["--capabilities", repo.capabilities, "--out", out], capsys)
    assert code == 0, stdout
    assert "12 cells" in stdout and "tier 0 elementwise" in stdout
    assert (out / "index.html").is_file()
    pages = sorted(p.name for p in (out / "cells").glob("*.html"))
    assert len(pages) == len(repo.cells)
    assert (out / "assets" / "dashboard.css").is_file() and (out / "assets" / "pygments.css").is_file()
    data = json.loads((out / "site-data.json").read_text())
    assert len(data["cells"]) == len(repo.cells)
    # Every record a page links to is copied into the site.
    for rels in repo.records.values():
        for rel in rels:
            assert (out / "evidence" / rel).is_file()

    for page in [out / "index.html", *(out / "cells").glob("*.html")]:
        html = page.read_text()
        for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
            if ref.startswith("https://example.invalid/"):  # a known-issue link from the registry
                continue
            assert not re.match(r"^[a-z]+:", ref) and not ref.startswith("//"), f"{page.name}: {ref}"
            target = ref.split("#")[0]
            if target:
                assert (page.parent / target).resolve().exists(), f"{page.name}: broken link {ref}"
        assert "@import" not in html and "url(http" not in html
    for asset in (out / "assets").iterdir():
        text = asset.read_text()
        assert "http://" not in text and "https://" not in text, asset.name


def test_cell_page_content(repo, tmp_path, capsys):
    out = tmp_path / "site"
    assert run_main(["--capabilities", repo.capabilities, "--out", out], capsys)[0] == 0
    html = (out / "cells" / f"abs--float16--{fx.P1}.html").read_text()
    assert 'id="evidence-table"' in html and 'id="cases-table"' in html
    assert html.count("<svg") >= 3                              # golden, perf, timeline
    assert 'class="highlight"' in html and '<span class="kn">import</span>' in html
    assert "large shapes are slow" in html and "Write a pyasc kernel computing abs" in html
    assert "compile_error" in html
    # each case: its per-pipe timeline drawn, its Chrome trace copied into the site and linked
    assert html.count('class="chart pipes"') == 2 and 'id="pipe-timelines"' in html
    links = re.findall(r'class="trace-link" href="([^"]+)"', html)
    assert len(links) == 2
    for link in links:
        trace = json.loads(gzip.decompress((out / "cells" / link).resolve().read_bytes()))
        assert {e["cat"] for e in trace["traceEvents"] if e["ph"] == "X"} == {"S", "MTE2", "V", "MTE3"}
    assert "trace-link" not in (out / "cells" / f"abs--float32--{fx.P1}.html").read_text()


def test_cli_replaces_its_own_site_only(repo, tmp_path, capsys):
    out = tmp_path / "site"
    assert run_main(["--capabilities", repo.capabilities, "--out", out], capsys)[0] == 0
    (out / "leftover.txt").write_text("x")
    assert run_main(["--capabilities", repo.capabilities, "--out", out], capsys)[0] == 0
    assert not (out / "leftover.txt").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site.")]

    foreign = tmp_path / "docs"
    foreign.mkdir()
    (foreign / "notes.md").write_text("mine")
    code, _, err = run_main(["--capabilities", repo.capabilities, "--out", foreign], capsys)
    assert code == 2 and "refusing to replace" in err
    assert (foreign / "notes.md").read_text() == "mine"


@pytest.mark.parametrize("argv, message", [
    (["--capabilities", "{tmp}/none.yaml"], "capabilities file not found"),
    (["--capabilities", "{cap}", "--evidence-dir", "{tmp}/none"], "evidence folder not found"),
    (["--capabilities", "{cap}", "--out", "{cap}"], "not a folder"),
])
def test_cli_user_errors(repo, tmp_path, capsys, argv, message):
    argv = [a.format(tmp=tmp_path, cap=repo.capabilities) for a in argv]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "site")]
    code, _, err = run_main(argv, capsys)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("dashboard: error: ") and message in err
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("argv", [["--stale-days", "0"], ["--stale-days", "x"], ["--port", "70000"], ["--bogus"]])
def test_cli_bad_options(argv, capsys):
    with pytest.raises(SystemExit, match="^2$") as exc:
        dashboard.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("dashboard: error:") and err.count("\n") == 1 and "(see dashboard --help)" in err


def test_serve_binds_localhost(repo, tmp_path):
    out = tmp_path / "site"
    proc = subprocess.Popen(
        [sys.executable, "-m", "asc_harness.report.dashboard", "--capabilities", str(repo.capabilities),
         "--out", str(out), "--serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = None
        deadline = time.time() + 20
        while time.time() < deadline and url is None:
            line = proc.stdout.readline()
            if not line:
                break
            m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            if m:
                url = m.group(1)
        assert url, f"no serving line; stderr: {proc.stderr.read() if proc.poll() is not None else ''}"
        with urllib.request.urlopen(url + "index.html", timeout=10) as resp:
            assert resp.status == 200 and b"Capability matrix" in resp.read()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()


def test_launch_warnings_are_counted_per_cell_and_listed_on_its_page(repo, tmp_path):
    from asc_harness.report.dashboard_render import write_site

    first = build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)
    assert cell(first, A16)["launch_warnings"] == 0
    path = repo.evidence_dir / cell(first, A16)["cases"]["path"]
    rec = json.loads(path.read_text())
    rec["cases"][1]["warnings"] = [
        {"kind": "UndefinedStoreWarning", "where": "abs_f16.py:40", "message": "store to 'out' writes 3 undefined <x>"},
        {"kind": "UncoveredOutputWarning", "where": None, "message": "'out': 1 of 8 element(s) were never written"}]
    path.write_text(json.dumps(rec))
    data = build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)
    c = cell(data, A16)
    assert c["launch_warnings"] == 2 and [len(r["warnings"]) for r in c["cases"]["rows"]] == [0, 2]
    site = write_site(data, tmp_path / "site")
    page = (site / c["page"]).read_text()
    assert "Launch warnings (2)" in page
    assert "<strong>UndefinedStoreWarning</strong>: store to &#39;out&#39; writes 3 undefined &lt;x&gt;" in page
    index = (site / "index.html").read_text()
    badge = re.search(r'title="(\d+) launch warning\(s\) in the golden run', index)
    assert badge and badge.group(1) == "2" and index.count("launch warning(s) in the golden run") == 1


# --------------------------------------------------------------------------- Ascend C reference runs

def _with_reference_run(repo, ticks):
    """Link a run of an Ascend C reference kernel (kind ascendc) to abs/float32 (golden ticks 150, 9100)."""
    c = next(c for c in repo.cells if c["id"] == f"abs/float32/{fx.P1}")
    c["ascendc"] = "golden/ascendc/abs_float32.py"
    c["evidence"]["ascendc"] = repo.record(c, "ascendc", fx.NOW - dt.timedelta(hours=1), ticks=ticks)
    repo.write_registry()
    return c["id"]


def test_reference_ratio_per_shape_with_worst_median_and_platform_summary(repo, tmp_path, capsys):
    cid = _with_reference_run(repo, ticks=(165, 6300))                 # 165 / 150 = 1.1, 6300 / 9100 = 0.69
    d = build_site_data(repo.capabilities, repo.evidence_dir, now=fx.NOW)
    ref = cell(d, cid)["reference"]
    assert [r["ratio"] for r in ref["rows"]] == [1.1, 0.6923] and ref["worst"] == 0.6923
    assert ref["median"] == 0.8962 and ref["below_gate"] is True
    assert cell(d, A16)["reference"] is None and cell(d, A16)["reference_kernel"] is None
    summary = d["summary"]["reference"]
    assert summary["with_kernel"] == 1 and summary["with_ratio"] == 1
    p1 = next(p for p in summary["platforms"] if p["platform"] == fx.P1)
    assert p1["cells"] == 1 and p1["min"] == 0.6923 and p1["below_gate"] == 1
    # the golden's per-shape cases still come from its own record, not the newer reference run
    assert [r["ticks"] for r in cell(d, cid)["cases"]["rows"]] == [150, 9100]
    out = tmp_path / "site"
    code, stdout, _ = run_main(["--capabilities", repo.capabilities, "--out", out], capsys)
    assert code == 0, stdout
    index = (out / "index.html").read_text()
    assert "vs C</span><span class=\"b-val\">0.69</span>" in index and "1 below 0.7" in index
    page = (out / cell(d, cid)["page"]).read_text()
    assert "32×4096</td><td>6,300</td><td>9,100</td><td>0.69</td>" in page.replace(" ", " ")
