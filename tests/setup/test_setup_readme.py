"""Every command shown in README.md is a known one, and says where it is exercised.

When a command is added to the README, add it to KNOWN_COMMANDS with the test or CI step that runs it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
SHELL_LANGS = {"", "sh", "bash", "shell", "console"}

# command (as written in the README) -> where it is exercised
KNOWN_COMMANDS = {
    "make run": "the nightly gate (.ci/gate nightly); target checked in test_setup_gate.py",
    "make test": "CI: .ci/run runs it; target checked in test_setup_gate.py",
    "make dashboard": "runs the dashboard console script after set-up; target checked here",
    ". .venv/bin/activate": "the virtualenv that make setup creates",
    "run_kernel -v Ascend950PR_9599 golden/kernels/abs_f16.py":
        "the PR gate runs run_kernel on every golden kernel",
    ".ci/gate pr": "CI (via make test); test_setup_gate.py",
    ".ci/gate merge": "test_setup_gate.py",
    ".ci/gate nightly": "make run; test_setup_gate.py",
    "matrix": "tests/harness (matrix on the committed registry) and the nightly gate, which prints it",
    "check_capabilities --soft-runtime": "the PR gate (.ci/gate pr)",
    "nightly --cells 'abs/*/*' --no-dashboard": "tests/nightly (the --cells filter); make run runs nightly",
    "nightly --scheduler local:4 --no-dashboard": "tests/nightly/test_nightly_cluster.py (local:N); bench/cluster.py",
    "run_kernel --evidence -v Ascend950PR_9599 golden/kernels/abs_f16.py":
        "tests/harness (run_kernel --evidence writes a record)",
    "sync_capabilities": "the nightly gate runs it after the cell runs; tests/harness",
    "check_capabilities": "the merge gate (.ci/gate merge); tests/harness",
    "PYASC_PYTHON=/opt/venv/pyasc/bin/python run_kernel --engine pyasc -v Ascend950PR_9599 "
    "golden/kernels/abs_f16.py":
        "needs a CANN toolchain: the image's PYASC_PYTHON is set up by docker/install.sh, "
        "which test_setup_docker.py runs",
    "make conformance": "needs pyasc-dev from the package index: run by hand; tests/harness/test_conformance.py "
                        "tests the runner, and its corpus tests run when PYASC_DEV_PYTHON is set",
    "ASCTILE_INTERPRET=1 PYASC_PYTHON=~/.cache/asc-embedded/pyasc-dev/bin/python run_kernel --engine pyasc "
    "conformance/corpus/golden/add_f16.py":
        "tests/harness/test_conformance.py (marker conformance, when PYASC_DEV_PYTHON is set)",
}


def readme_commands(text: str) -> list[str]:
    """Shell commands in fenced code blocks: one per line, continuations joined, comments dropped."""
    commands: list[str] = []
    in_block, lang, pending = False, "", ""
    for line in text.splitlines():
        fence = re.match(r"^\s*```(\S*)", line)
        if fence:
            if in_block:
                in_block = False
            else:
                in_block, lang = True, fence.group(1).lower()
            continue
        if not in_block or lang not in SHELL_LANGS:
            continue
        stripped = line.strip()
        if stripped.startswith("$ "):
            stripped = stripped[2:]
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1].strip() + " "
            continue
        commands.append(" ".join((pending + stripped).split()))
        pending = ""
    return commands


def makefile_targets() -> set[str]:
    return set(re.findall(r"^([A-Za-z][\w-]*):", (REPO / "Makefile").read_text(), re.M))


def console_scripts() -> set[str]:
    text = (REPO / "pyproject.toml").read_text()
    section = re.search(r"^\[project\.scripts\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    assert section, "pyproject.toml has no [project.scripts]"
    return set(re.findall(r"^([\w-]+)\s*=", section.group(1), re.M))


def program_of(command: str) -> str:
    words = command.split()
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):  # leading VAR=value assignments
        words = words[1:]
    return words[0]


def test_parser_handles_blocks_comments_and_continuations():
    text = "x\n```sh\n# c\n$ make a\nfoo \\\n  --bar\n```\n```python\nprint()\n```\n"
    assert readme_commands(text) == ["make a", "foo --bar"]


def test_readme_shows_the_two_set_up_commands_first():
    commands = readme_commands(README.read_text())
    assert commands[:2] == ["make run", "make test"]


@pytest.mark.parametrize("command", readme_commands(README.read_text()))
def test_every_readme_command_is_known(command):
    assert command in KNOWN_COMMANDS, (
        f"README command not in KNOWN_COMMANDS of {Path(__file__).name}: {command!r}; "
        "add it with the test or CI step that exercises it")


def test_no_stale_known_commands():
    shown = set(readme_commands(README.read_text()))
    assert set(KNOWN_COMMANDS) <= shown, sorted(set(KNOWN_COMMANDS) - shown)


@pytest.mark.parametrize("command", sorted(KNOWN_COMMANDS))
def test_known_commands_name_real_programs(command):
    program = program_of(command)
    words = command.split()
    if program == "make":
        assert words[1] in makefile_targets(), command
    elif program == ".":
        assert words[1] == ".venv/bin/activate"
    elif program.startswith((".ci/", "docker/")):
        path = REPO / program
        assert path.is_file() and path.stat().st_mode & 0o111, command
        if program == ".ci/gate":
            assert words[1] in ("pr", "merge", "nightly")
    else:
        assert program in console_scripts(), command
