"""Blocks that wait for each other (``sync_all``, and the flags of ``block_events.py``): each block's body runs
in a thread of its own, one block at a time, in block order, as blocks run everywhere else in this engine.
A block waiting for a flag no block has set yet hands over to the next block that can run (on the device
every block of the launch runs at once, so a block may wait for a later one); it runs again, in block
order, once the flag is set. A block reaching a barrier hands
over to the next block; when every block has arrived, they go on in block order, each starting after the
slowest one arrived (plus a sync), and GM accesses made before the barrier are ordered before those made
after it (the cross-block race checks start afresh). A block that ends while others wait at a barrier, or
an error in any block, ends the launch."""
from __future__ import annotations

import threading

from ...ir.faults import PipeHangError, located
from ...ir.pipe_ops import pop_block, push_block
from ...ir.registry import PIPES


class _Stop(BaseException):
    """Unwinds a waiting block's thread once the launch has failed (never seen by the user)."""


class Phaser:
    def __init__(self, launch, engines):
        self.launch, self.engines = launch, engines
        self.cv = threading.Condition()
        self.state = ["ready"] * len(engines)      # ready -> running -> (waiting -> ready ...) -> done
        self.turn = 0
        self.where = {}                             # waiting block -> (file, line) of its barrier
        self.waits = {}                             # blocked block -> (condition, what it waits for)
        self.error = None
        self._events = None

    @property
    def events(self):
        """The launch's inter-block flags (``block_events.BlockEvents``)."""
        if self._events is None:
            from .block_events import BlockEvents
            self._events = BlockEvents(self)
        return self._events

    # -- the blocks' side ---------------------------------------------------------------------------------
    def barrier(self, b, loc):
        """Block ``b`` waits at a barrier until every block has reached one."""
        with self.cv:
            self.state[b], self.where[b] = "waiting", loc
            self._hand_over()
            self.cv.wait_for(lambda: self.error is not None or (self.turn == b and self.state[b] == "ready"))
            if self.error is not None:
                raise _Stop
            self.state[b] = "running"

    def wait_until(self, b, ready, loc, what):
        """Block ``b`` goes on once ``ready()`` holds (checked again each time it runs: another waiter may
        have taken what it waited for)."""
        with self.cv:
            while not ready():
                self.state[b], self.where[b], self.waits[b] = "blocked", loc, (ready, what)
                self._hand_over()
                self.cv.wait_for(lambda: self.error is not None or (self.turn == b and self.state[b] == "ready"))
                if self.error is not None:
                    raise _Stop
                self.state[b] = "running"

    def signalled(self):
        """A block set a flag: blocked blocks whose condition now holds are ready (they run in block order
        when the running block hands over)."""
        with self.cv:
            for i in list(self.waits):
                if self.waits[i][0]():
                    del self.waits[i]
                    self.state[i] = "ready"

    def _body(self, b, run):
        with self.cv:
            self.cv.wait_for(lambda: self.error is not None or self.turn == b)
            if self.error is not None:
                return
            self.state[b] = "running"
        push_block(self.engines[b])
        try:
            run(b)
        except _Stop:
            return
        except BaseException as e:   # noqa: BLE001  (handed to the launching thread)
            with self.cv:
                self.error = self.error or e
                self.cv.notify_all()
            return
        finally:
            pop_block()
        with self.cv:
            self.state[b] = "done"
            self._hand_over()

    # -- scheduling (under self.cv) ----------------------------------------------------------------------
    def _hand_over(self):
        """The next block to run: the next ready one in block order; else, every block at the barrier, all of
        them (the barrier opens); else a block waits for ever."""
        n = len(self.state)
        nxt = next((i for i in range(n) if self.state[i] == "ready"), None)
        if nxt is None:
            waiting = [i for i in range(n) if self.state[i] == "waiting"]
            blocked = [i for i in range(n) if self.state[i] == "blocked"]
            if blocked:
                self._deadlock(blocked, waiting)
            elif waiting and len(waiting) == n:
                self._open()
                nxt = 0
            elif waiting:
                done = [i for i in range(n) if self.state[i] == "done"]
                f, line = self.where[waiting[0]]
                self.error = located(
                    PipeHangError, (f, line),
                    f"sync_all: block(s) {', '.join(map(str, waiting))} wait here for every block, and block(s) "
                    f"{', '.join(map(str, done))} ended without reaching a sync_all: on the device they wait for "
                    "ever", "every block of the launch must call sync_all the same number of times",
                    "PipeHangError")
        if nxt is not None:
            self.turn = nxt
        self.cv.notify_all()

    def _deadlock(self, blocked, waiting):
        """No block can run: the first blocked one's wait is a hang, naming what every block is doing."""
        first = blocked[0]
        done = [i for i in range(len(self.state)) if self.state[i] == "done"]
        others = [f"block {i} waits for {self.waits[i][1]}" for i in blocked[1:]]
        if waiting:
            others.append(f"block(s) {', '.join(map(str, waiting))} wait at sync_all")
        if done:
            others.append(f"block(s) {', '.join(map(str, done))} ended")
        self.error = located(
            PipeHangError, self.where[first],
            f"block {first} waits for {self.waits[first][1]}, which no block sets any more"
            f"{' (' + '; '.join(others) + ')' if others else ''}: on the device it waits for ever",
            "pair every wait with a set another block reaches (the same workspace, block index and event id), "
            "with the workspace zeroed before the launch", "PipeHangError")

    def _open(self):
        """Every block arrived: each goes on after the slowest one (plus a sync), GM ordered across the
        barrier."""
        self.launch.gm_races.barrier()
        t = max(max(e.timing.free) for e in self.engines) + self.launch.hw.sync
        for e in self.engines:
            e.timing.free = [t] * len(PIPES)
        for i in range(len(self.state)):
            self.state[i] = "ready"
        self.where.clear()

    # -- the launching thread ------------------------------------------------------------------------------
    def run(self, run):
        """Run ``run(b)`` for every block, each in its thread; raises the first error."""
        threads = [threading.Thread(target=self._body, args=(b, run), name=f"block {b}", daemon=True)
                   for b in range(len(self.engines))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if self.error is not None:
            raise self.error
