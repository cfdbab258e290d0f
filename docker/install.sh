#!/usr/bin/env bash
# Creates the two virtual environments of the CANN simulator image (docker/Dockerfile):
#
#   pyasc venv    the real pyasc (with asc2) built from a source directory or installed from a
#                 wheel, plus numpy and torch for the golden kernels' host code; the harness runs
#                 kernels with it when called with --engine pyasc (PYASC_PYTHON points at its python)
#   project venv  this project (compiler, harness, console scripts) and its dependencies, with the
#                 cluster extra (dask.distributed: the image can serve as a Dask worker)
#
# It runs the same way outside Docker, e.g. to set up a host that already has CANN:
#
#   docker/install.sh --project-venv ~/venvs/asc --pyasc-venv ~/venvs/pyasc --pyasc-source ~/src/pyasc
#
# pip reads its usual PIP_* environment variables (PIP_INDEX_URL, PIP_NO_BUILD_ISOLATION, ...),
# which is the way to tune a pyasc source build.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

PYTHON=python3
PROJECT_VENV=/opt/venv/project
PROJECT_SOURCE=$(dirname "$here")
PYASC_VENV=/opt/venv/pyasc
PYASC_SOURCE=
PYASC_REQUIREMENTS="numpy torch==2.13.0"
EDITABLE=0
DO_PROJECT=1
DO_PYASC=1
PIP_ARGS=()

usage() {
    cat <<EOF
usage: docker/install.sh [options]

  --python PY                 interpreter that creates both venvs (default: python3, >= 3.10)
  --project-venv DIR          venv for this project (default: /opt/venv/project)
  --project-source DIR        this project's source tree (default: $PROJECT_SOURCE)
  --editable                  install the project in editable mode (the image does, so that a
                              checkout mounted over the source tree is what runs)
  --skip-project              do not create the project venv
  --pyasc-venv DIR            venv for pyasc (default: /opt/venv/pyasc)
  --pyasc-source PATH         pyasc with asc2: a source directory (pyproject.toml or setup.py),
                              a .whl file, or a directory holding exactly one .whl
  --pyasc-requirements SPECS  extra packages for the pyasc venv, space separated
                              (default: "$PYASC_REQUIREMENTS"; "" for none)
  --skip-pyasc                do not create the pyasc venv
  --find-links LOCATION       extra wheel location for pip (repeatable)
  --extra-index-url URL       extra package index for pip, e.g. a CPU-only torch index (repeatable)
  --no-cache                  do not keep pip's cache (for image layers)
  -h, --help                  this text

Exit codes: 0 installed and checked, 1 an installation or check failed, 2 bad usage or missing input.
EOF
}

die_usage() {
    echo "install.sh: $*" >&2
    echo "run docker/install.sh --help for the options" >&2
    exit 2
}

need_arg() {
    [ "$#" -ge 2 ] || die_usage "$1 needs a value"
}

while [ "$#" -gt 0 ]; do
    case "$1" in
        --python) need_arg "$@"; PYTHON=$2; shift 2 ;;
        --project-venv) need_arg "$@"; PROJECT_VENV=$2; shift 2 ;;
        --project-source) need_arg "$@"; PROJECT_SOURCE=$2; shift 2 ;;
        --editable) EDITABLE=1; shift ;;
        --skip-project) DO_PROJECT=0; shift ;;
        --pyasc-venv) need_arg "$@"; PYASC_VENV=$2; shift 2 ;;
        --pyasc-source) need_arg "$@"; PYASC_SOURCE=$2; shift 2 ;;
        --pyasc-requirements) need_arg "$@"; PYASC_REQUIREMENTS=$2; shift 2 ;;
        --skip-pyasc) DO_PYASC=0; shift ;;
        --find-links) need_arg "$@"; PIP_ARGS+=(--find-links "$2"); shift 2 ;;
        --extra-index-url) need_arg "$@"; PIP_ARGS+=(--extra-index-url "$2"); shift 2 ;;
        --no-cache) PIP_ARGS+=(--no-cache-dir); shift ;;
        -h | --help) usage; exit 0 ;;
        *) die_usage "unknown argument: $1" ;;
    esac
done

[ "$DO_PROJECT" = 1 ] || [ "$DO_PYASC" = 1 ] || die_usage "--skip-project and --skip-pyasc together leave nothing to do"

command -v "$PYTHON" >/dev/null 2>&1 || die_usage "interpreter not found: $PYTHON"
"$PYTHON" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null ||
    die_usage "$PYTHON must be Python >= 3.10 with the venv module"

log() {
    echo "install.sh: $*"
}

make_venv() {
    local dir=$1
    log "creating venv $dir"
    "$PYTHON" -m venv "$dir"
    # pip itself is not upgraded: the pip that ensurepip ships installs everything needed here.
}

pip_install() {
    local venv=$1
    shift
    "$venv/bin/python" -m pip install --disable-pip-version-check --quiet "${PIP_ARGS[@]}" "$@"
}

# Resolves --pyasc-source to what pip installs: a source directory or a wheel file.
resolve_pyasc_source() {
    local src=$1 wheels=()
    if [ -f "$src" ]; then
        case "$src" in
            *.whl) echo "$src"; return 0 ;;
            *) die_usage "--pyasc-source file is not a wheel: $src" ;;
        esac
    fi
    [ -d "$src" ] || die_usage "--pyasc-source not found: $src"
    if [ -f "$src/pyproject.toml" ] || [ -f "$src/setup.py" ]; then
        echo "$src"
        return 0
    fi
    shopt -s nullglob
    wheels=("$src"/*.whl)
    shopt -u nullglob
    if [ "${#wheels[@]}" -eq 1 ]; then
        echo "${wheels[0]}"
        return 0
    fi
    die_usage "--pyasc-source $src holds neither a pyasc source tree (pyproject.toml or setup.py) nor exactly one wheel (found ${#wheels[@]})"
}

if [ "$DO_PYASC" = 1 ]; then
    [ -n "$PYASC_SOURCE" ] || die_usage "--pyasc-source is required (or pass --skip-pyasc)"
    pyasc_target=$(resolve_pyasc_source "$PYASC_SOURCE")
fi
if [ "$DO_PROJECT" = 1 ]; then
    [ -f "$PROJECT_SOURCE/pyproject.toml" ] || die_usage "--project-source has no pyproject.toml: $PROJECT_SOURCE"
fi

if [ "$DO_PYASC" = 1 ]; then
    make_venv "$PYASC_VENV"
    read -r -a reqs <<<"$PYASC_REQUIREMENTS"
    log "installing pyasc from $pyasc_target${PYASC_REQUIREMENTS:+ with $PYASC_REQUIREMENTS}"
    pip_install "$PYASC_VENV" "${reqs[@]}" "$pyasc_target"
    log "checking that asc2 imports in $PYASC_VENV"
    "$PYASC_VENV/bin/python" -c 'import asc2; print("install.sh: asc2 from", asc2.__file__)'
fi

if [ "$DO_PROJECT" = 1 ]; then
    make_venv "$PROJECT_VENV"
    if [ "$EDITABLE" = 1 ]; then
        log "installing the project from $PROJECT_SOURCE (editable)"
        pip_install "$PROJECT_VENV" -e "${PROJECT_SOURCE}[cluster]"
    else
        log "installing the project from $PROJECT_SOURCE"
        pip_install "$PROJECT_VENV" "${PROJECT_SOURCE}[cluster]"
    fi
    log "checking the project venv"
    "$PROJECT_VENV/bin/python" -c 'import asc, asc2, asc_harness'
    for tool in run_kernel check_capabilities sync_capabilities nightly generate dashboard matrix; do
        [ -x "$PROJECT_VENV/bin/$tool" ] || {
            echo "install.sh: console script $tool missing from $PROJECT_VENV/bin" >&2
            exit 1
        }
    done
fi

log "done"
[ "$DO_PYASC" = 0 ] || log "PYASC_PYTHON=$PYASC_VENV/bin/python"
[ "$DO_PROJECT" = 0 ] || log "tools in $PROJECT_VENV/bin"
