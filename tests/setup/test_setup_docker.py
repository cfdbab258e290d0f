"""docker/: the Dockerfile passes hadolint, the shell scripts pass shellcheck, and docker/install.sh
really installs both virtualenvs (the image cannot be built here: there is no Docker engine)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCKER = REPO / "docker"
DOCKERFILE = DOCKER / "Dockerfile"
INSTALL = DOCKER / "install.sh"
SCRIPTS = [REPO / ".ci" / "gate", REPO / ".ci" / "run", INSTALL, DOCKER / "entrypoint.sh"]
CONSOLE_SCRIPTS = ("run_kernel", "check_capabilities", "sync_capabilities", "nightly", "generate",
                   "dashboard", "matrix")


def dev_tool(name: str) -> str:
    """A tool from the dev extras: next to this interpreter, else on PATH."""
    candidate = Path(sys.executable).parent / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    assert found, f"{name} is not installed: it comes with the dev extras (pip install -e '.[dev]')"
    return found


# --- lint ------------------------------------------------------------------------------------

def test_hadolint_passes():
    cmd = [dev_tool("hadolint"), "--no-color", "--failure-threshold", "style"]
    config = REPO / ".hadolint.yaml"
    if config.exists():
        cmd += ["--config", str(config)]
    r = subprocess.run(cmd + [str(DOCKERFILE)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_hadolint_exceptions_are_justified():
    """Every inline `hadolint ignore` has a comment right above it saying why."""
    lines = DOCKERFILE.read_text().splitlines()
    for i, line in enumerate(lines):
        if "hadolint ignore" in line:
            assert i > 0 and lines[i - 1].startswith("#") and "hadolint" not in lines[i - 1], line


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(REPO)))
def test_shellcheck_passes(script):
    r = subprocess.run([dev_tool("shellcheck"), "--shell=bash", str(script)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(REPO)))
def test_scripts_are_strict_and_executable(script):
    assert script.stat().st_mode & 0o111
    assert script.read_text().startswith("#!/usr/bin/env bash\n")


# --- what the Dockerfile promises --------------------------------------------------------------

def dockerfile() -> str:
    return DOCKERFILE.read_text()


def test_base_image_is_a_build_argument_defaulting_to_cann_9():
    m = re.search(r"^ARG CANN_BASE_IMAGE=(\S+)$", dockerfile(), re.M)
    assert m, "CANN_BASE_IMAGE build argument missing"
    assert "cann" in m.group(1) and "9.0.0" in m.group(1)
    froms = re.findall(r"^FROM (\S+)", dockerfile(), re.M)
    assert froms and all(f == "${CANN_BASE_IMAGE}" for f in froms)


def test_pyasc_and_project_get_their_own_venvs():
    text = dockerfile()
    assert "ARG PYASC_SOURCE=" in text
    assert "--pyasc-venv /opt/venv/pyasc --pyasc-source /tmp/pyasc" in text
    assert "--project-venv /opt/venv/project" in text
    assert "PYASC_PYTHON=/opt/venv/pyasc/bin/python" in text
    assert "COPY docker/install.sh /usr/local/bin/asc-install" in text


def test_simulator_libraries_are_on_the_library_path():
    text = dockerfile()
    assert "ARG ASC_PLATFORM=Ascend950PR_9599" in text
    assert re.search(r"LD_LIBRARY_PATH=\$\{ASCEND_HOME_PATH\}/tools/simulator/\$\{ASC_PLATFORM\}/lib", text)


def test_runs_as_a_non_root_user_with_an_asc2_healthcheck():
    text = dockerfile()
    users = re.findall(r"^USER (\S+)", text, re.M)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r"^HEALTHCHECK .*\n?.*/opt/venv/pyasc/bin/python\", \"-c\", \"import asc2\"", text, re.M)


def test_nofile_limit_is_documented():
    assert "--ulimit nofile=65536:65536" in dockerfile()
    readme = (DOCKER / "README.md").read_text()
    assert "## Open-files limit" in readme
    assert "--ulimit nofile=65536:65536" in readme


def test_pyasc_input_is_kept_out_of_git():
    assert "/pyasc/" in (DOCKER / ".gitignore").read_text().split()


# --- install.sh --------------------------------------------------------------------------------

def install(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=timeout)


def test_install_help():
    r = install("--help")
    assert r.returncode == 0
    for option in ("--project-venv", "--pyasc-venv", "--pyasc-source", "--skip-pyasc", "--skip-project",
                   "--editable", "--find-links"):
        assert option in r.stdout


@pytest.mark.parametrize("args, message", [
    (["--bogus"], "unknown argument: --bogus"),
    (["--project-venv"], "--project-venv needs a value"),
    (["--skip-project"], "--pyasc-source is required"),
    (["--skip-project", "--skip-pyasc"], "leave nothing to do"),
    (["--skip-project", "--pyasc-source", "/nonexistent/pyasc"], "--pyasc-source not found"),
    (["--skip-pyasc", "--project-source", "/nonexistent/src"], "has no pyproject.toml"),
    (["--python", "/nonexistent/python3", "--skip-pyasc"], "interpreter not found"),
])
def test_install_bad_usage_exits_2(args, message):
    r = install(*args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert message in r.stderr


def test_install_rejects_an_unusable_pyasc_source(tmp_path):
    (tmp_path / "a.whl").write_bytes(b"")
    (tmp_path / "b.whl").write_bytes(b"")
    r = install("--skip-project", "--pyasc-source", str(tmp_path), "--pyasc-venv", str(tmp_path / "v"))
    assert r.returncode == 2
    assert "exactly one wheel (found 2)" in r.stderr
    assert not (tmp_path / "v").exists()
    (tmp_path / "notes.txt").write_text("")
    r = install("--skip-project", "--pyasc-source", str(tmp_path / "notes.txt"))
    assert r.returncode == 2
    assert "is not a wheel" in r.stderr


def fake_pyasc_wheel(directory: Path) -> Path:
    """A minimal wheel providing an `asc2` package, standing in for a built pyasc."""
    directory.mkdir(parents=True, exist_ok=True)
    wheel = directory / "pyasc-0.0.1-py3-none-any.whl"
    dist = "pyasc-0.0.1.dist-info"
    files = {
        "asc2/__init__.py": "STAND_IN = 'wheel'\n",
        f"{dist}/METADATA": "Metadata-Version: 2.1\nName: pyasc\nVersion: 0.0.1\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(f"{name},,\n" for name in files) + f"{dist}/RECORD,,\n"
    with zipfile.ZipFile(wheel, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
        z.writestr(f"{dist}/RECORD", record)
    return wheel


def fake_pyasc_source(directory: Path) -> Path:
    """A minimal source tree providing an `asc2` package, standing in for a pyasc checkout."""
    (directory / "asc2").mkdir(parents=True)
    (directory / "asc2" / "__init__.py").write_text("STAND_IN = 'source'\n")
    (directory / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n\n'
        '[project]\nname = "pyasc"\nversion = "0.0.1"\n\n[tool.setuptools]\npackages = ["asc2"]\n')
    return directory


def copy_project(dest: Path) -> Path:
    """What the image copies and installs: the project's packaging and packages."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, dest / name)
    shutil.copytree(REPO / "compiler", dest / "compiler", ignore=ignore)
    shutil.copytree(REPO / "tests" / "tools", dest / "tests" / "tools", ignore=ignore)
    return dest


def test_install_pyasc_from_a_wheel_directory(tmp_path):
    fake_pyasc_wheel(tmp_path / "wheels")
    venv = tmp_path / "pyasc-venv"
    r = install("--skip-project", "--pyasc-venv", str(venv), "--pyasc-source", str(tmp_path / "wheels"),
                "--pyasc-requirements", "")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"PYASC_PYTHON={venv}/bin/python" in r.stdout
    out = subprocess.run([str(venv / "bin" / "python"), "-c", "import asc2; print(asc2.STAND_IN)"],
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "wheel"


def test_install_both_venvs_as_the_image_does(tmp_path):
    """The image's two steps for real: pyasc from a source tree (with a host-side requirement), and
    this project installed editable from a copy of its tree."""
    source = copy_project(tmp_path / "asc-embedded")
    pyasc = fake_pyasc_source(tmp_path / "pyasc")
    pyasc_venv, project_venv = tmp_path / "venv-pyasc", tmp_path / "venv-project"
    r = install("--pyasc-venv", str(pyasc_venv), "--pyasc-source", str(pyasc),
                "--pyasc-requirements", "numpy",
                "--project-venv", str(project_venv), "--project-source", str(source), "--editable")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "install.sh: asc2 from" in r.stdout

    check = subprocess.run(
        [str(pyasc_venv / "bin" / "python"), "-c", "import asc2, numpy; print(asc2.STAND_IN)"],
        capture_output=True, text=True, timeout=60)
    assert check.stdout.strip() == "source", check.stderr

    check = subprocess.run(
        [str(project_venv / "bin" / "python"), "-c",
         "import asc, asc2, asc_harness, torch; print(asc.__file__); print(torch.__version__)"],
        capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    asc_file, torch_version = check.stdout.split()
    assert Path(asc_file).is_relative_to(source / "compiler")  # editable, from the copied tree
    assert torch_version.startswith("2.13.0")
    for tool in CONSOLE_SCRIPTS:
        assert (project_venv / "bin" / tool).exists(), tool
