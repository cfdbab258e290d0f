"""The stop handler of nightly / generate (asc_harness.common.stopping), in this process: a stop kills the
registered sandboxed process groups before it raises, and is forgotten once the command is over."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from asc_harness.common import stopping


def test_a_stop_kills_the_running_groups_then_raises_and_is_forgotten_afterwards():
    before = signal.getsignal(signal.SIGTERM)
    child = subprocess.Popen(["sleep", "600"], start_new_session=True)
    stopping.register_group(child.pid)
    try:
        with pytest.raises(KeyboardInterrupt), stopping.handling_stops():
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(6000):  # the handler runs between two bytecodes, long before this ends
                time.sleep(0.01)
        assert child.wait(timeout=60) == -signal.SIGKILL
        assert not stopping.stop_requested()  # a caller's later runs (a test's next nightly) start afresh
        assert signal.getsignal(signal.SIGTERM) is before
    finally:
        stopping.unregister_group(child.pid)
        child.kill()
        child.wait()
