#!/usr/bin/env bash
# Install what the browser test needs: Debian's chromium + chromium-driver and the
# selenium Python package. Idempotent: does nothing when everything is present.
# Usage: install_browser.sh [PYTHON]   (default: the python on PATH)
set -euo pipefail

PY="${1:-python3}"

need_apt=0
[ -x /usr/bin/chromium ] || need_apt=1
[ -x /usr/bin/chromedriver ] || need_apt=1

if [ "$need_apt" = 1 ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            SUDO="sudo -n"
        else
            echo "install_browser.sh: chromium/chromedriver missing and not root (no sudo)" >&2
            exit 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    echo "install_browser.sh: installing chromium and chromium-driver with apt-get" >&2
    $SUDO apt-get update -qq >&2 || { echo "install_browser.sh: apt-get update failed" >&2; exit 1; }
    $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver >&2 \
        || { echo "install_browser.sh: apt-get install chromium chromium-driver failed" >&2; exit 1; }
fi

for bin in /usr/bin/chromium /usr/bin/chromedriver; do
    if [ ! -x "$bin" ]; then
        echo "install_browser.sh: $bin still missing after apt-get install" >&2
        exit 1
    fi
done

if ! "$PY" -c "import selenium" >/dev/null 2>&1; then
    echo "install_browser.sh: installing selenium with pip" >&2
    "$PY" -m pip install --quiet "selenium>=4.10" >&2 \
        || { echo "install_browser.sh: pip install selenium failed (python: $PY)" >&2; exit 1; }
fi
"$PY" -c "import selenium" || { echo "install_browser.sh: selenium not importable after pip install" >&2; exit 1; }
echo "install_browser.sh: ok" >&2
