"""End-to-end test of the generated dashboard in headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium). The session fixture installs what is missing with
install_browser.sh; if that fails the tests fail with its output."""

from __future__ import annotations

import datetime as dt
import fcntl
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import dashboard_fixture_repo as fx  # noqa: E402
from asc_harness.report import dashboard  # noqa: E402

REPO_ROOT = HERE.parents[1]
ARTIFACTS = REPO_ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="session")
def browser_installed():
    """Run install_browser.sh once per machine at a time (xdist workers share a lock)."""
    lock_path = Path(tempfile.gettempdir()) / "asc-dashboard-install-browser.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            proc = subprocess.run(["bash", str(HERE / "install_browser.sh"), sys.executable],
                                  capture_output=True, text=True, timeout=900)
        except (OSError, subprocess.TimeoutExpired) as exc:
            pytest.fail(f"could not run tests/dashboard/install_browser.sh: {exc}", pytrace=False)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    if proc.returncode != 0:
        pytest.fail("installing the browser test's dependencies failed "
                    f"(tests/dashboard/install_browser.sh exit {proc.returncode}):\n"
                    f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}", pytrace=False)
    try:
        import selenium  # noqa: F401
    except ImportError as exc:  # pragma: no cover - install_browser.sh checks this too
        pytest.fail(f"selenium is not importable after install_browser.sh: {exc}", pytrace=False)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("dashboard-e2e")
    # Dated from the current time, so the pages show realistic ages.
    repo = fx.build(root / "repo", now=dt.datetime.now(dt.timezone.utc).replace(microsecond=0))
    out = root / "site"
    assert dashboard.main(["--capabilities", str(repo.capabilities), "--out", str(out)]) == 0
    reg = yaml.safe_load(repo.capabilities.read_text())
    return {"repo": repo, "out": out, "registry": reg}


@pytest.fixture(scope="module")
def driver(browser_installed, tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")   # never let Selenium fetch a driver or browser
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    opts.add_argument("--window-size=1400,1000")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        drv = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    except Exception as exc:
        pytest.fail(f"could not start headless Chromium through {CHROMEDRIVER}: {exc}", pytrace=False)
    drv.set_page_load_timeout(30)
    yield drv
    drv.quit()


def _visible(driver, css):
    return [e for e in driver.find_elements("css selector", css) if e.is_displayed()]


def _wait(pred, timeout=5.0):
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


def _console_errors(driver):
    try:
        logs = driver.get_log("browser")
    except Exception:
        return []
    return [e["message"] for e in logs if e.get("level") == "SEVERE"]


def _screenshot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    width = driver.get_window_size()["width"]
    driver.set_window_size(width, min(max(height + 140, 800), 8000))
    path = ARTIFACTS / name
    assert driver.save_screenshot(str(path)), f"screenshot {path} not written"
    driver.set_window_size(width, 1000)
    return path


def _matching_cells(driver):
    return [e for e in _visible(driver, ".cell[data-cell]") if "dim" not in e.get_attribute("class").split()]


def test_index_shows_every_registry_cell(driver, site):
    index = (site["out"] / "index.html").as_uri()
    driver.get(index)
    n = len(site["registry"]["cells"])
    assert driver.title.startswith("Capability matrix")
    cells = _visible(driver, ".cell[data-cell]")
    assert len(cells) == n
    assert {c.get_attribute("data-cell") for c in cells} == {c["id"] for c in site["registry"]["cells"]}
    assert len(_matching_cells(driver)) == n
    assert driver.find_element("id", "visible-count").get_attribute("data-shown") == str(n)
    # Three distinct badges in every cell.
    for c in cells:
        dims = [b.get_attribute("class") for b in c.find_elements("css selector", ".badge")]
        assert len(dims) == 3 and "b-golden" in dims[0] and "b-generative" in dims[1] and "b-perf" in dims[2]
    # Per-tier progress cards.
    assert len(_visible(driver, ".tier-card")) == len(site["registry"]["tiers"])
    assert _console_errors(driver) == []
    _screenshot(driver, "dashboard-index.png")


def test_filters_change_rows_and_are_kept_in_the_url(driver, site):
    from selenium.webdriver.support.ui import Select

    index = (site["out"] / "index.html").as_uri()
    driver.get(index)
    rows_before = len(_visible(driver, "tr.op-row"))
    assert rows_before == len(site["registry"]["operations"])

    Select(driver.find_element("id", "f-status")).select_by_value("failing")
    assert _wait(lambda: len(_visible(driver, "tr.op-row")) < rows_before)
    failing = {c["op"] for c in site["registry"]["cells"]
               if "failing" in (c["golden_status"], c["generative_status"])}
    shown_ops = {r.get_attribute("data-op") for r in _visible(driver, "tr.op-row")}
    assert shown_ops == failing
    assert len(_matching_cells(driver)) == sum(
        "failing" in (c["golden_status"], c["generative_status"]) for c in site["registry"]["cells"])
    assert "status=failing" in driver.current_url

    # The filtered view is shareable: a fresh load of the URL shows the same rows.
    url = driver.current_url
    driver.get("about:blank")
    driver.get(url)
    assert _wait(lambda: {r.get_attribute("data-op") for r in _visible(driver, "tr.op-row")} == failing)
    assert Select(driver.find_element("id", "f-status")).first_selected_option.get_attribute("value") == "failing"

    # Narrow to golden only, then search.
    Select(driver.find_element("id", "f-dim")).select_by_value("golden")
    assert _wait(lambda: {r.get_attribute("data-op") for r in _visible(driver, "tr.op-row")} == {"add"})
    driver.find_element("id", "f-reset").click()
    assert _wait(lambda: len(_visible(driver, "tr.op-row")) == rows_before)
    box = driver.find_element("id", "f-q")
    box.send_keys("reduce")
    assert _wait(lambda: [r.get_attribute("data-op") for r in _visible(driver, "tr.op-row")] == ["reduce_sum"])
    assert "q=reduce" in driver.current_url

    # Platform filter hides the other platform's columns and cells.
    driver.get(index + f"#platform={fx.P2}")
    assert _wait(lambda: {c.get_attribute("data-platform") for c in _matching_cells(driver)} == {fx.P2})
    heads = [h.text for h in _visible(driver, "section.tier:not([hidden]) th.col-head")]
    assert heads and all(fx.P2 in h for h in heads)
    _screenshot(driver, "dashboard-index-filtered.png")

    # A tier filter from the URL.
    driver.get(index + "#tier=2")
    assert _wait(lambda: [s.get_attribute("data-tier") for s in _visible(driver, "section.tier")] == ["2"])
    assert _console_errors(driver) == []


def test_cell_page_evidence_table(driver, site):
    repo = site["repo"]
    cid = f"abs/float16/{fx.P1}"
    driver.get((site["out"] / "index.html").as_uri())
    driver.find_element("css selector", f'.cell[data-cell="{cid}"]').click()
    assert _wait(lambda: driver.current_url.endswith(f"cells/abs--float16--{fx.P1}.html"))
    assert cid in driver.find_element("css selector", ".crumbs").text

    rows = _visible(driver, "#evidence-table tbody tr")
    assert len(rows) == len(repo.records[cid])
    deciding = [r for r in rows if "deciding" in r.get_attribute("class").split()]
    assert len(deciding) == 4                                  # golden, 2 generative, perf
    kinds = [r.get_attribute("data-kind") for r in rows]
    assert kinds.count("golden") == 5 and kinds.count("generative") == 2 and kinds.count("perf") == 1
    assert [r.get_attribute("data-status") for r in rows if r.get_attribute("data-kind") == "golden"].count("fail") == 1

    cases = _visible(driver, "#cases-table tbody tr")
    assert len(cases) == 2 and "4,692" in cases[1].text
    # each case's per-pipe timeline: one row per busy pipe, its slices laid out left to right inside the chart
    charts = _visible(driver, "#pipe-timelines svg.pipes")
    assert [c.get_attribute("data-case") for c in charts] == ["1x128", "32x4096"]
    for chart, slices in zip(charts, ([1, 1, 1, 1], [1, 4, 4, 4])):
        pipe_rows = chart.find_elements("css selector", "g.pipe-row")
        assert [r.get_attribute("data-pipe") for r in pipe_rows] == ["S", "MTE2", "V", "MTE3"]
        assert [len(r.find_elements("css selector", "rect.slice")) for r in pipe_rows] == slices
        box = chart.rect
        ys = []
        for r in pipe_rows:
            rects = [e.rect for e in r.find_elements("css selector", "rect.slice")]
            assert all(box["x"] <= e["x"] and e["x"] + e["width"] <= box["x"] + box["width"] + 0.5 for e in rects)
            assert [e["x"] for e in rects] == sorted(e["x"] for e in rects) and all(e["width"] > 0 for e in rects)
            ys.append(rects[0]["y"])
        assert ys == sorted(ys) and len(set(ys)) == len(ys)     # rows stacked in pipe order
    # ... and its Chrome trace, linked from the table and copied into the site
    links = [a.get_attribute("href") for a in driver.find_elements("css selector", "#cases-table a.trace-link")]
    assert len(links) == 2 and all(h.startswith("file://") and h.endswith(".json.gz") for h in links)
    for href in links:
        trace = json.loads(gzip.decompress(Path(urllib.parse.unquote(urllib.parse.urlparse(href).path)).read_bytes()))
        assert any(e.get("ph") == "X" and e.get("cat") == "MTE2" for e in trace["traceEvents"])
    assert len(_visible(driver, "#history svg")) >= 3
    assert _visible(driver, "#source .highlight")
    assert "confirmed" in driver.find_element("id", "statuses").text

    # The linked evidence record opens from the site folder.
    link = rows[0].find_element("css selector", "a.rec-link").get_attribute("href")
    assert link.startswith("file://") and "/evidence/" in link
    assert _console_errors(driver) == []
    _screenshot(driver, "dashboard-cell.png")

    # A stale cell and a cell with evidence warnings.
    driver.get((site["out"] / "cells" / f"add--float16--{fx.P1}.html").as_uri())
    assert "stale" in driver.find_element("id", "freshness").text
    driver.get((site["out"] / "cells" / f"reduce_sum--float32--{fx.P1}.html").as_uri())
    assert "missing from the evidence folder" in driver.find_element("id", "checks").text
