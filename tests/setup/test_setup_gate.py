"""The gates (.ci/gate), their exit codes, and the make targets that call them.

The gate's logic is exercised in a throw-away repository: a copy of .ci/gate, a Makefile whose
`setup` does nothing, a stand-in `.venv/bin/python` that fakes pytest and otherwise runs the real
interpreter, and stand-in console scripts that log their arguments and exit with a chosen code.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GATE = REPO / ".ci" / "gate"
BASH = shutil.which("bash") or "/bin/bash"
REAL_PYTHON = Path(sys.executable).resolve()
TOOLS = ("run_kernel", "check_capabilities", "nightly")


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHON", "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "ASC_AGENT_COMMAND", "ASC_REPLAY")
           and not k.startswith("FAKE_")}
    env.update(extra)
    return env


def run_gate(gate: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([BASH, str(gate), *args], env=env if env is not None else clean_env(),
                          capture_output=True, text=True, timeout=120)


def bin_dir(tmp_path: Path, links: dict[str, str]) -> Path:
    """A directory to use as the whole PATH, holding only the given programs."""
    d = tmp_path / "bin"
    d.mkdir()
    for name, target in links.items():
        (d / name).symlink_to(target)
    return d


# --- usage and environment (the real .ci/gate; it exits before doing any work) ---------------

def test_gate_is_executable():
    assert os.access(GATE, os.X_OK)


def test_no_argument_prints_usage_and_exits_2():
    r = run_gate(GATE)
    assert r.returncode == 2
    assert "usage: .ci/gate pr|merge|nightly" in r.stderr


def test_unknown_gate_prints_usage_and_exits_2():
    r = run_gate(GATE, "everything")
    assert r.returncode == 2
    assert "unknown gate 'everything'" in r.stderr
    assert "usage:" in r.stderr


def test_help_exits_0():
    r = run_gate(GATE, "--help")
    assert r.returncode == 0
    assert "exit codes" in r.stderr


@pytest.mark.parametrize("gate", ["pr", "merge", "nightly"])
def test_missing_python_exits_2_naming_it(tmp_path, gate):
    path = bin_dir(tmp_path, {"make": shutil.which("make")})
    r = run_gate(GATE, gate, env=clean_env(PATH=str(path)))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "environment missing: python3" in r.stderr
    assert "make" not in r.stderr


def test_missing_make_exits_2_naming_it(tmp_path):
    path = bin_dir(tmp_path, {"python3": str(REAL_PYTHON)})
    r = run_gate(GATE, "pr", env=clean_env(PATH=str(path)))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "environment missing: make" in r.stderr
    assert "python3" not in r.stderr


def test_nothing_at_all_names_everything_missing(tmp_path):
    path = bin_dir(tmp_path, {})
    r = run_gate(GATE, "pr", env=clean_env(PATH=str(path)))
    assert r.returncode == 2
    assert "environment missing: python3" in r.stderr
    assert "environment missing: make" in r.stderr


def test_python_without_venv_module_exits_2(tmp_path):
    fake = tmp_path / "fakepython"
    fake.write_text("#!/bin/sh\necho 'No module named ensurepip' >&2\nexit 1\n")
    fake.chmod(0o755)
    path = bin_dir(tmp_path, {"python3": str(fake), "make": shutil.which("make")})
    r = run_gate(GATE, "pr", env=clean_env(PATH=str(path)))
    assert r.returncode == 2
    assert "python3 >= 3.10 with the venv module" in r.stderr
    assert "No module named ensurepip" in r.stderr


def test_python_variable_chooses_the_interpreter(tmp_path):
    path = bin_dir(tmp_path, {"make": shutil.which("make")})
    r = run_gate(GATE, "pr", env=clean_env(PATH=str(path), PYTHON="python3.99"))
    assert r.returncode == 2
    assert "environment missing: python3.99" in r.stderr


# --- the gate's steps, in a throw-away repository ---------------------------------------------

FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pytest" ]; then
    shift 2
    echo "${ASC_REPLAY:+ASC_REPLAY=$ASC_REPLAY }pytest $*" >> "$FAKE_LOG"
    exit "${FAKE_RC_pytest:-0}"
fi
PYTHONPATH="@SITE@" exec "@PYTHON@" "$@"
"""

FAKE_TOOL = """#!/bin/sh
echo "@NAME@ $*" >> "$FAKE_LOG"
exit "${FAKE_RC_@NAME@:-0}"
"""


# The kernel tests again, every recorded launch replayed next to a full run.
_REPLAY_CHECK = "ASC_REPLAY=verify pytest -n auto -q -p no:cacheprovider tests/compiler"


class FakeRepo:
    def __init__(self, root: Path, tools=TOOLS, goldens=("abs_f16.py", "relu_f32.py"),
                 setup_ok: bool = True):
        self.root = root
        (root / ".ci").mkdir(parents=True)
        shutil.copy2(GATE, root / ".ci" / "gate")
        (root / "Makefile").write_text("setup:\n\t@%s\n" % ("true" if setup_ok else "false"))
        bindir = root / ".venv" / "bin"
        bindir.mkdir(parents=True)
        site = root / "site-packages"
        dist = site / "fake_harness-0.0.0.dist-info"
        dist.mkdir(parents=True)
        (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-harness\nVersion: 0.0.0\n")
        (site / "fake_harness.py").write_text("def main():\n    return 0\n")
        (dist / "entry_points.txt").write_text(
            "[console_scripts]\n" + "".join(f"{t} = fake_harness:main\n" for t in tools))
        py = bindir / "python"
        py.write_text(FAKE_PYTHON.replace("@SITE@", str(site)).replace("@PYTHON@", str(REAL_PYTHON)))
        py.chmod(0o755)
        for t in tools:
            f = bindir / t
            f.write_text(FAKE_TOOL.replace("@NAME@", t))
            f.chmod(0o755)
        kernels = root / "golden" / "kernels"
        kernels.mkdir(parents=True)
        (kernels / "__init__.py").write_text("")
        (kernels / "_common.py").write_text("")
        for g in goldens:
            (kernels / g).write_text("")
        self.log = root / "calls.log"

    def run(self, gate: str, **env: str) -> subprocess.CompletedProcess:
        r = run_gate(self.root / ".ci" / "gate", gate, env=clean_env(FAKE_LOG=str(self.log), **env))
        return r

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []


def last_line(r: subprocess.CompletedProcess) -> str:
    return r.stdout.strip().splitlines()[-1]


def test_pr_runs_the_three_checks_and_passes(tmp_path):
    repo = FakeRepo(tmp_path / "repo")
    r = repo.run("pr")
    assert r.returncode == 0, r.stdout + r.stderr
    assert repo.calls() == [
        "pytest -n auto -q tests",
        _REPLAY_CHECK,
        "check_capabilities --soft-runtime",
        "run_kernel --quick --perf-gate --strict-warnings -v Ascend950PR_9599 golden/kernels/abs_f16.py "
        "golden/kernels/relu_f32.py",
    ]
    assert "CI gate pr: PASSED" in r.stdout
    assert last_line(r) == "gate: 4 passed, 0 failed, 0 skipped"


def test_merge_adds_strict_capabilities_and_full_shapes(tmp_path):
    repo = FakeRepo(tmp_path / "repo")
    r = repo.run("merge")
    assert r.returncode == 0, r.stdout + r.stderr
    assert repo.calls() == [
        "pytest -n auto -q tests",
        _REPLAY_CHECK,
        "check_capabilities --soft-runtime",
        "check_capabilities ",
        "run_kernel --strict-warnings -v Ascend950PR_9599 golden/kernels/abs_f16.py golden/kernels/relu_f32.py",
    ]
    assert last_line(r) == "gate: 5 passed, 0 failed, 0 skipped"


def test_nightly_without_agent_runs_nightly_only(tmp_path):
    repo = FakeRepo(tmp_path / "repo")
    r = repo.run("nightly")
    assert r.returncode == 0, r.stdout + r.stderr
    assert repo.calls() == ["nightly "]
    assert "ASC_AGENT_COMMAND is not set" in r.stdout


def test_nightly_with_agent_adds_generative(tmp_path):
    repo = FakeRepo(tmp_path / "repo")
    r = repo.run("nightly", ASC_AGENT_COMMAND="my-agent {prompt_file} {workspace}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert repo.calls() == ["nightly ", "nightly --generative"]


@pytest.mark.parametrize("rc", ["1", "2", "5"])
def test_failing_test_suite_fails_the_gate(tmp_path, rc):
    """pytest's 5 (nothing collected) is a failure like any other non-zero code."""
    repo = FakeRepo(tmp_path / "repo")
    r = repo.run("pr", FAKE_RC_pytest=rc)
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"test suite: FAILED with exit code {rc}" in r.stdout
    assert "CI gate pr: FAILED" in r.stdout
    assert f"replay check: FAILED with exit code {rc}" in r.stdout
    # the remaining checks still run and are counted
    assert len(repo.calls()) == 4
    assert last_line(r) == "gate: 2 passed, 2 failed, 0 skipped"


@pytest.mark.parametrize("tool", ["check_capabilities", "run_kernel"])
def test_failing_tool_fails_the_gate(tmp_path, tool):
    repo = FakeRepo(tmp_path / "repo")
    r = repo.run("pr", **{f"FAKE_RC_{tool}": "1"})
    assert r.returncode == 1
    assert "CI gate pr: FAILED" in r.stdout


def test_failing_nightly_fails_the_gate(tmp_path):
    repo = FakeRepo(tmp_path / "repo")
    r = repo.run("nightly", FAKE_RC_nightly="1")
    assert r.returncode == 1


def test_setup_failure_is_an_environment_problem(tmp_path):
    repo = FakeRepo(tmp_path / "repo", setup_ok=False)
    r = repo.run("pr")
    assert r.returncode == 2
    assert "make setup failed" in r.stderr
    assert repo.calls() == []


def test_missing_tools_fail_the_gate(tmp_path):
    repo = FakeRepo(tmp_path / "repo", tools=(), goldens=())
    r = repo.run("pr")
    assert r.returncode == 1
    assert "check_capabilities is not installed" in r.stderr
    assert "run_kernel is not installed" in r.stderr
    r = repo.run("nightly")
    assert r.returncode == 1
    assert "nightly is not installed" in r.stderr


def test_console_script_without_its_module_counts_as_missing(tmp_path):
    """An installed console script whose module does not exist is not available."""
    repo = FakeRepo(tmp_path / "repo")
    (tmp_path / "repo" / "site-packages" / "fake_harness.py").unlink()
    r = repo.run("pr")
    assert r.returncode == 1
    assert "run_kernel is not installed" in r.stderr
    assert repo.calls() == ["pytest -n auto -q tests", _REPLAY_CHECK]


# --- make targets and CI entry point ----------------------------------------------------------

@pytest.mark.parametrize("target, command", [
    ("test", ".ci/gate pr"),
    ("pr-gate", ".ci/gate pr"),
    ("merge-gate", ".ci/gate merge"),
    ("nightly", ".ci/gate nightly"),
    ("run", ".ci/gate nightly"),
])
def test_make_targets_call_the_gate(target, command):
    r = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(REPO), target],
                       capture_output=True, text=True, timeout=60, env=clean_env())
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines() == [command]


def test_make_setup_keeps_the_venv_bootstrap():
    makefile = (REPO / "Makefile").read_text()
    torch = makefile.index("pip install --quiet torch==2.13.0")
    project = makefile.index("pip install --quiet -e '.[dev,cluster]'")
    assert torch < project
    assert "$(STAMP): pyproject.toml" in makefile


def test_ci_runs_the_pr_gate():
    run = (REPO / ".ci" / "run").read_text()
    assert "make test" in run
    assert os.access(REPO / ".ci" / "run", os.X_OK)
