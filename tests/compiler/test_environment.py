"""The engine's switches are read at every launch: a change between two launches takes effect."""
import os

import numpy as np

import asc
import asc2
from asc.runtime.environment import getenv


def test_getenv_follows_every_change_made_through_os_environ(monkeypatch):
    monkeypatch.delenv("ASC_TEST_SWITCH", raising=False)
    assert getenv("ASC_TEST_SWITCH", "dflt") == "dflt"
    monkeypatch.setenv("ASC_TEST_SWITCH", "off")
    assert getenv("ASC_TEST_SWITCH", "dflt") == "off"
    os.environ["ASC_TEST_SWITCH"] = "ümlaut\udcff"       # decoded as os.environ decodes it
    assert getenv("ASC_TEST_SWITCH") == os.environ["ASC_TEST_SWITCH"]
    os.environ["ASC_TEST_SWITCH"] = ""                    # set but empty is not unset
    assert getenv("ASC_TEST_SWITCH", "dflt") == ""
    del os.environ["ASC_TEST_SWITCH"]
    assert getenv("ASC_TEST_SWITCH") is None


def test_getenv_reads_a_replaced_os_environ(monkeypatch):
    monkeypatch.setattr(os, "environ", {"ASC_TEST_SWITCH": "from the replacement"})
    assert getenv("ASC_TEST_SWITCH") == "from the replacement"
    assert getenv("ASC_OTHER", "dflt") == "dflt"


@asc2.jit
def _fill(out_ptr: asc.GlobalAddress):
    out_gm = asc2.tensor(out_ptr, [8])
    asc2.store(asc2.full([8], 1.0, dtype=asc.float32), out_gm, offsets=[0])


def test_a_switch_set_between_two_launches_takes_effect(monkeypatch):
    """ASC_TIMELINE set for the second of three launches of one structure records that launch's timeline
    only (the first launch's recording is not reused for it, nor is the switch remembered after it)."""
    out = np.zeros(8, np.float32)
    monkeypatch.delenv("ASC_CHECKS", raising=False)
    _fill[2](out)
    assert _fill.last_launch is not None
    monkeypatch.setenv("ASC_TIMELINE", "1")
    _fill[2](out)
    assert "timeline" in _fill.last_launch       # read at this launch, not at the first
    monkeypatch.delenv("ASC_TIMELINE")
    _fill[2](out)
    assert "timeline" not in _fill.last_launch
    np.testing.assert_array_equal(out, np.ones(8, np.float32))
