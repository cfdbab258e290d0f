"""Shared set-up of the compiler tests: the simulator platform, a private kernel cache, helpers."""
from __future__ import annotations

import pytest

import asc.runtime.config as config

PLATFORM = config.Platform.Ascend950PR_9599


@pytest.fixture(autouse=True, scope="module")
def _private_cache(tmp_path_factory):
    """Keep the on-disk kernel cache of these tests out of the user's home (and out of other suites)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("PYASC_CACHE_DIR", str(tmp_path_factory.mktemp("kernel-cache")))
    yield
    mp.undo()


@pytest.fixture(autouse=True)
def _platform():
    """Every test starts on the simulator with the platform the project targets; the previous selection is
    restored afterwards."""
    state = config.STATE
    saved = (state.backend, state.platform, state.device_id, state.explicit)
    config.set_platform(config.Backend.Model, PLATFORM)
    yield
    state.backend, state.platform, state.device_id, state.explicit = saved
