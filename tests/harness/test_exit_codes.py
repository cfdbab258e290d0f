"""Exit codes as documented (0 ok, 1 a check failed, 2 cannot run), decided up front: every bad input
(corrupt registry, corrupt evidence, a missing golden file, a bad option, an engine or platform that is
not there) exits 2 with one clear line and writes nothing."""

from __future__ import annotations

import importlib
import json
import sys
import tomllib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "nightly"))

from nightly_helpers import AGENT, PLATFORM, build_repo  # noqa: E402

AGENT_CMD = f"{sys.executable} {AGENT} {{prompt_file}} {{workspace}} --sequence good"
RECORD_DIR = f"evidence/abs/float16/{PLATFORM}"
BAD_RECORD = f"{RECORD_DIR}/golden-20260101T000000000000Z-beef.json"


def _corrupt_yaml(root: Path) -> None:
    (root / "capabilities.yaml").write_text("cells: [\n")


def _corrupt_schema(root: Path) -> None:
    cap = root / "capabilities.yaml"
    cap.write_text(cap.read_text().replace("golden_status: pending", "golden_status: sideways", 1))


def _corrupt_record_json(root: Path) -> None:
    (root / RECORD_DIR).mkdir(parents=True, exist_ok=True)
    (root / BAD_RECORD).write_text("{not json")


def _corrupt_record_schema(root: Path) -> None:
    (root / RECORD_DIR).mkdir(parents=True, exist_ok=True)
    (root / BAD_RECORD).write_text(json.dumps({"schema_version": 1, "kind": "golden", "cell": f"abs/float16/{PLATFORM}"}))


def _missing_golden(root: Path) -> None:
    (root / "golden" / "kernels" / "abs_f16.py").unlink()


CORRUPTIONS = {
    "invalid YAML": (_corrupt_yaml, "invalid YAML"),
    "schema violation": (_corrupt_schema, "is not valid"),
    "record not JSON": (_corrupt_record_json, "corrupt evidence"),
    "record off schema": (_corrupt_record_schema, "corrupt evidence"),
    "golden file missing": (_missing_golden, "abs_f16.py"),
}

# tool, arguments, the corruptions it must refuse with exit 2
TOOLS = {
    "nightly": (["-n", "0"], list(CORRUPTIONS)),
    "generate": (["--agent-command", AGENT_CMD, "--attempts", "1", "--allow-host-only"], list(CORRUPTIONS)),
    "matrix": ([], ["invalid YAML", "schema violation", "record not JSON", "record off schema"]),
    "dashboard": ([], ["invalid YAML", "schema violation", "record not JSON", "record off schema"]),
    "sync_capabilities": ([], ["invalid YAML", "schema violation", "record not JSON", "record off schema"]),
    "run_kernel": (["--cells", "abs", "--evidence"], ["invalid YAML", "schema violation", "golden file missing"]),
    "check_capabilities": ([], ["invalid YAML"]),
}


SCRIPTS = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]["scripts"]


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def call(tool: str, argv: list[str], capsys) -> tuple[int, str, str]:
    """Runs the console script ``tool`` in-process (its ``main`` as pyproject.toml names it)."""
    module, _, func = SCRIPTS[tool].partition(":")
    try:
        code = getattr(importlib.import_module(module), func)([str(a) for a in argv])
    except SystemExit as exc:  # argparse
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_one_clear_error(tool: str, err: str, message: str) -> None:
    assert "Traceback" not in err
    assert err.count(f"{tool}: error:") == 1 and err.count("\n") == 1, err
    assert message in err, err


@pytest.fixture
def repo(tmp_path):
    return build_repo(tmp_path / "repo", {"abs": "good"})


@pytest.mark.parametrize("tool, corruption", [(t, c) for t, (_a, cs) in TOOLS.items() for c in cs])
def test_corrupt_input_exits_2_up_front_and_writes_nothing(repo, capsys, tool, corruption):
    corrupt, message = CORRUPTIONS[corruption]
    corrupt(repo.root)
    before = snapshot(repo.root)
    code, out, err = call(tool, ["--root", repo.root, *TOOLS[tool][0]], capsys)
    assert code == 2, out + err
    assert_one_clear_error(tool, err, message)
    assert snapshot(repo.root) == before
    assert not (repo.root / ".nightly").exists() and not (repo.root / "site").exists()


@pytest.mark.parametrize("corruption", ["schema violation", "record off schema"])
def test_check_capabilities_reports_inconsistent_input_as_a_failed_check(repo, capsys, corruption):
    CORRUPTIONS[corruption][0](repo.root)
    code, out, err = call("check_capabilities", ["--root", repo.root], capsys)
    assert code == 1 and "Traceback" not in out + err


@pytest.mark.parametrize("tool, argv, message", [
    ("matrix", ["--format", "bogus"], "--format 'bogus': not a table format"),
    ("nightly", ["-n", "bogus"], "-n/--workers must be a number or 'auto'"),
    ("nightly", ["--timeout", "0"], "--timeout must be positive"),
    ("nightly", ["--resume"], "nothing to resume"),
    ("nightly", ["--platform", "Nowhere"], "no cell in the registry on platform Nowhere"),
    ("nightly", ["--bogus"], "unrecognized arguments: --bogus"),
    ("generate", ["--attempts", "0", "--agent-command", AGENT_CMD], "--attempts must be >= 1"),
    ("generate", [], "no agent command"),
    ("dashboard", ["--port", "70000"], "port out of range"),
    ("run_kernel", ["--timeout", "-1", "golden/kernels/abs_f16.py"], "--timeout must be positive"),
    ("run_kernel", ["no/such/kernel.py"], "kernel file not found"),
])
def test_bad_options_exit_2_and_write_nothing(repo, capsys, monkeypatch, tool, argv, message):
    monkeypatch.delenv("ASC_AGENT_COMMAND", raising=False)
    monkeypatch.chdir(repo.root)
    before = snapshot(repo.root)
    code, out, err = call(tool, argv, capsys)
    assert code == 2, out + err
    assert_one_clear_error(tool, err, message)
    assert snapshot(repo.root) == before and not (repo.root / ".nightly").exists()


def test_a_corrupt_resume_state_exits_2(repo, capsys):
    state = repo.root / ".nightly" / "state.json"
    state.parent.mkdir()
    state.write_text("{half a state")
    code, out, err = call("nightly", ["--root", repo.root, "--resume"], capsys)
    assert code == 2
    assert_one_clear_error("nightly", err, "state.json is unreadable")
    assert state.read_text() == "{half a state"


def test_an_unknown_sandbox_setting_exits_2(repo, capsys, monkeypatch):
    from asc_harness.run import confinement, sandbox

    monkeypatch.setenv("ASC_SANDBOX", "bogus")
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    code, out, err = call("nightly", ["--root", repo.root, "-n", "0"], capsys)
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    assert code == 2
    assert_one_clear_error("nightly", err, "ASC_SANDBOX='bogus': expected auto, bubblewrap or process-tree")
    assert not (repo.root / ".nightly").exists()


def test_run_kernel_refuses_an_unknown_platform_once(repo, capsys):
    files = [repo.root / "golden/kernels/abs_f16.py", repo.root / "golden/kernels/abs_f16.py"]
    code, out, err = call("run_kernel", ["-v", "Ascend000", *files], capsys)
    assert code == 2 and out == ""
    assert_one_clear_error("run_kernel", err, "unknown platform 'Ascend000' for the embedded engine; known: ")
    assert "Ascend950PR_9599" in err


def test_run_kernel_refuses_the_pyasc_engine_without_pyasc_python_once(repo, capsys, monkeypatch):
    monkeypatch.delenv("PYASC_PYTHON", raising=False)
    files = [repo.root / "golden/kernels/abs_f16.py", repo.root / "golden/kernels/abs_f16.py"]
    code, out, err = call("run_kernel", ["--engine", "pyasc", *files], capsys)
    assert code == 2 and out == ""
    assert_one_clear_error("run_kernel", err, "--engine pyasc needs PYASC_PYTHON")


def test_nightly_with_a_failing_cell_exits_1_and_a_passing_one_0(tmp_path, capsys):
    ok = build_repo(tmp_path / "ok", {"abs": "good"})
    code, out, err = call("nightly", ["--root", ok.root, "-n", "0", "--no-dashboard"], capsys)
    assert code == 0, out + err
    bad = build_repo(tmp_path / "bad", {"abs": "wrong"})
    code, out, err = call("nightly", ["--root", bad.root, "-n", "0", "--no-dashboard"], capsys)
    assert code == 1, out + err
