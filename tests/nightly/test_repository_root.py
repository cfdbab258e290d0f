"""One repository-root rule for every tool: --root, else the git work tree of the current directory.

Two clones share one virtualenv (this one, installed from neither of them): a tool started inside a
clone reads and writes only that clone, whichever clone the package was installed from.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nightly_helpers import build_repo, git  # noqa: E402

BIN = Path(sys.executable).parent


def tool(name: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / name), *args], cwd=cwd, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(root).parts}


@pytest.fixture
def clones(tmp_path):
    first = build_repo(tmp_path / "first", {"abs": "good"})
    second = tmp_path / "second"
    git(tmp_path, "clone", "-q", str(first.root), str(second))
    git(second, "config", "user.email", "nightly-tests@example.invalid")
    git(second, "config", "user.name", "nightly tests")
    return first.root, second


def test_a_nightly_in_the_second_clone_writes_only_there(clones):
    first, second = clones
    before = files(first)
    sub = second / "golden" / "kernels"            # any directory inside the clone will do
    proc = tool("nightly", "-n", "0", cwd=sub)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert files(first) == before
    records = sorted((second / "evidence").glob("abs/float16/*/golden-*.json"))
    assert len(records) == 1
    assert "golden_status: confirmed" in (second / "capabilities.yaml").read_text()
    assert (second / "site" / "index.html").is_file() and (second / ".nightly" / "state.json").is_file()
    assert not (first / "site").exists() and not (first / ".nightly").exists()


@pytest.mark.parametrize("name, args", [
    ("matrix", []), ("check_capabilities", ["--soft-runtime"]), ("sync_capabilities", ["--dry-run"]),
    ("generate", ["--list"]), ("nightly", ["--list"]), ("dashboard", []),
])
def test_every_tool_reads_the_clone_it_runs_in(clones, name, args):
    first, second = clones
    text = (second / "capabilities.yaml").read_text().replace('description: "abs"', 'description: "second"')
    text = text.replace("Write abs: y = |x| on float16.", "Write the second clone's abs.")
    (second / "capabilities.yaml").write_text(text)
    before = files(first)
    proc = tool(name, *args, cwd=second)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert files(first) == before
    if name == "dashboard":
        assert "Write the second clone" in next((second / "site" / "cells").glob("abs*.html")).read_text()


@pytest.mark.parametrize("name", ["nightly", "generate", "matrix", "check_capabilities", "sync_capabilities",
                                  "dashboard"])
def test_outside_any_repository_is_exit_2_with_one_line(tmp_path, name):
    outside = tmp_path / "nowhere"
    outside.mkdir()
    proc = tool(name, cwd=outside)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "not inside a harness repository" in proc.stderr
    assert "Traceback" not in proc.stderr and list(outside.iterdir()) == []


def test_root_option_selects_the_repository_from_anywhere(clones, tmp_path):
    first, second = clones
    before = files(first)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    proc = tool("nightly", "--root", str(second), "-n", "0", "--no-dashboard", cwd=outside)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(list((second / "evidence").glob("abs/float16/*/golden-*.json"))) == 1
    assert files(first) == before and list(outside.iterdir()) == []


def test_root_without_a_registry_is_exit_2(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = tool("matrix", "--root", str(empty), cwd=tmp_path)
    assert proc.returncode == 2
    assert "capabilities file not found" in proc.stderr and "--root" not in proc.stdout
    proc = tool("matrix", "--root", str(tmp_path / "missing"), cwd=tmp_path)
    assert proc.returncode == 2 and "not a directory" in proc.stderr
