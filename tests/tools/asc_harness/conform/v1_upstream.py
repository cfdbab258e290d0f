"""Run one of upstream's v1 kernel tests (``test/kernels/**/test_*.py`` of the pyasc v1 sources) as a v1
differential case: every ``test_*`` function of the file is called with ``Backend.Model``, as upstream's
conftest does. Under pyasc-dev the launch stops at its device compiler (the front end's verdict); here the test
runs in full and its own assertions check the numbers. Standard library only (imported by the case files under
both interpreters); the sources are found through ``$V1_UPSTREAM``."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def run_test(relative: str) -> dict:
    path = Path(os.environ["V1_UPSTREAM"]) / relative
    spec = importlib.util.spec_from_file_location("upstream_" + path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import asc.runtime.config as config

    tests = [getattr(module, n) for n in sorted(vars(module)) if n.startswith("test_")]
    for test in tests:
        test(config.Backend.Model)
    import numpy as np

    return {"tests_passed": np.array(len(tests))}


def reference(relative: str) -> dict:
    """A run that returns has passed every assertion of the file's tests."""
    import numpy as np

    path = Path(os.environ["V1_UPSTREAM"]) / relative
    text = path.read_text(encoding="utf-8")
    return {"tests_passed": np.array(sum(1 for line in text.splitlines() if line.startswith("def test_")))}
