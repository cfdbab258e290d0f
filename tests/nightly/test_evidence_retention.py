"""Evidence retention: a committing nightly keeps, per cell and kind, the linked records and the latest N,
removes the older ones and their traces in its own commit, and a clean clone of the result syncs,
checks and renders the dashboard without the removed records."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from asc_harness.store import check_capabilities
from asc_harness.report import dashboard
from asc_harness.store import retention
from asc_harness.store import sync_capabilities
from asc_harness.store.evidence_read import load_record
from nightly_helpers import ASC2_GOLDEN, git, make_repo, run_nightly  # noqa: F401 - fixtures


def _trace_folders(repo, op: str) -> list[Path]:
    traces = repo.root / "evidence" / op / "float16"
    return sorted(p for p in traces.glob("*/traces/*") if p.is_dir())


def test_nightly_keeps_linked_and_latest_records_and_commits_the_removal(make_repo, run_nightly, tmp_path, capsys):
    repo = make_repo({"abs": "good", "neg": "good"})
    repo.write_golden("abs", ASC2_GOLDEN)  # a real kernel: its records carry launch traces
    repo.cap.write_text(repo.cap.read_text().replace("shapes: [[4, 8], [64]]", "shapes: [[4, 8], [1000]]", 1))
    repo.commit("an asc2 abs")
    nightly = ("-n", "0", "--no-dashboard", "--commit", "--keep-records", "1")
    for _ in range(3):
        code, out, err = run_nightly(*repo.args(*nightly))
        assert code == 0, out + err
    assert "retention: removed" in out

    for op in ("abs", "neg"):  # the latest record, which is the linked one
        (record,) = repo.records(op)
        assert repo.cell(op)["evidence"]["golden"] == record.relative_to(repo.root).as_posix()
    kept_traces = {t for c in load_record(repo.records("abs")[0])["cases"] for t in c["trace"]}
    assert [f"traces/{d.name}" for d in _trace_folders(repo, "abs")] == sorted({t.rsplit("/", 1)[0] for t in kept_traces})

    # the removal is in the nightly's commit, and nothing else is left uncommitted
    changes = git(repo.root, "show", "--no-renames", "--name-status", "--format=", "HEAD").splitlines()
    removed = [line.split("\t", 1)[1] for line in changes if line.startswith("D\t")]
    assert any(re.fullmatch(r"evidence/abs/.*/golden-.*\.json", r) for r in removed)
    assert any("/traces/" in r for r in removed) and any(r.startswith("evidence/neg/") for r in removed)
    assert git(repo.root, "status", "--porcelain", "--", "evidence", "capabilities.yaml") == ""

    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo.root), str(clone)], check=True)
    paths = ["--capabilities", str(clone / "capabilities.yaml")]
    capsys.readouterr()
    assert sync_capabilities.main([*paths, "--check"]) == 0, capsys.readouterr()
    assert check_capabilities.main(paths) == 0, capsys.readouterr()
    site = tmp_path / "site"
    assert dashboard.main([*paths, "--out", str(site)]) == 0, capsys.readouterr()
    for page in [site / "index.html", *(site / "cells").glob("*.html")]:
        for ref in re.findall(r'(?:src|href)="([^"]+)"', page.read_text()):
            target = ref.split("#")[0]
            if target and not re.match(r"^[a-z]+:", target):
                assert (page.parent / target).resolve().exists(), f"{page.name}: broken link {ref}"


def test_linked_records_stay_however_old(make_repo, run_nightly):
    repo = make_repo({"abs": "good"})
    for _ in range(3):
        code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--keep-records", "0"))
        assert code == 0, out + err
    repo.commit("the evidence")
    oldest, middle, latest = repo.records("abs")
    cell = repo.cell("abs")
    cell["evidence"]["generative"] = [oldest.relative_to(repo.root).as_posix()]  # any link counts
    records, _ = retention.plan_cell(cell, repo.root / "evidence", repo.root, keep=1)
    assert records == [middle]


def test_the_linked_reference_run_stays(make_repo, run_nightly):
    repo = make_repo({"abs": "good"})
    for _ in range(3):
        code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--keep-records", "0"))
        assert code == 0, out + err
    repo.commit("the evidence")
    oldest, middle, latest = repo.records("abs")
    cell = repo.cell("abs")
    cell["evidence"]["ascendc"] = oldest.relative_to(repo.root).as_posix()  # e.g. older than three quick runs
    records, _ = retention.plan_cell(cell, repo.root / "evidence", repo.root, keep=1)
    assert records == [middle]


def test_records_git_does_not_have_are_never_removed(make_repo, run_nightly):
    repo = make_repo({"abs": "good"})
    for _ in range(3):  # no --commit: the records stay untracked
        code, out, err = run_nightly(*repo.args("-n", "0", "--no-dashboard", "--keep-records", "1"))
        assert code == 0, out + err
    assert len(repo.records("abs")) == 3
    repo.commit("the evidence")
    cells = [repo.cell("abs")]
    planned, _ = retention.plan_cell(cells[0], repo.root / "evidence", repo.root, keep=1)
    assert len(planned) == 2  # tracked now: all but the latest (which is also the linked one)
    assert retention.main(["--capabilities", str(repo.cap), "--keep", "1"]) == 0
    assert len(repo.records("abs")) == 1
