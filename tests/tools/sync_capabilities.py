#!/usr/bin/env python3
"""Entry point for `python tests/tools/sync_capabilities.py`; see asc_harness.store.sync_capabilities.

Runs under the repository's .venv interpreter when the current one lacks the harness dependencies.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    from asc_harness.store.sync_capabilities import main
except ImportError as exc:
    venv = os.path.realpath(os.path.join(HERE, os.pardir, os.pardir, ".venv"))
    venv_python = os.path.join(venv, "bin", "python")
    if os.path.exists(venv_python) and os.path.realpath(sys.prefix) != venv:
        os.execv(venv_python, [venv_python, os.path.abspath(__file__), *sys.argv[1:]])
    sys.exit(f"sync_capabilities: missing dependency ({exc}); run 'make setup' first")

if __name__ == "__main__":
    sys.exit(main())
