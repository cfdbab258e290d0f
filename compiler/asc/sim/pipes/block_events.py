"""Flags between blocks, kept in a GM workspace as Ascend C keeps them (32 bytes, one int32 used, per flag):

- ``ib_set`` / ``ib_wait`` (block index i, event e; word ``(e * blocks + i) * 8``): a set waits until the word
  is 0 and writes 1, a wait waits until it is 1 and writes 0 (one set per wait, the waiter consuming it);
- ``notify_next_block`` / ``wait_pre_block`` (word ``b * 8`` counts block b's notifies): block b > 0 waits
  until block b - 1 has notified more often than b has, block 0 until block ``blocks - 1`` has notified as
  often as block 0 (so the blocks pass in turn, 0, 1, ..., as the deterministic-compute pattern needs).

A wait that is satisfied orders the waiter after everything the setter did before its set (the GM race
checks read it through ``GmRaces.clocks``) and starts its pipes no earlier than the set plus a sync. The
words are the workspace's own GM values, so a workspace that was not zeroed behaves as on the device."""
from __future__ import annotations

from ...ir.faults import PipeHangError, located


class BlockEvents:
    def __init__(self, phaser):
        self.phaser = phaser
        self.launch = phaser.launch
        self.tokens = {}           # flag -> (happens-before token, tick of the set)
        self.notifies = {}         # (workspace, block) -> its notifies so far

    def _set(self, b, key):
        eng = self.phaser.engines[b]
        self.tokens[key] = (self.launch.gm_races.clocks.release(b), max(eng.timing.free))
        self.phaser.signalled()

    def _acquire(self, b, key):
        got = self.tokens.get(key)
        if got is None:     # a word the workspace held before the launch: nothing to order after
            return
        token, tick = got
        self.launch.gm_races.clocks.acquire(b, token)
        tm = self.phaser.engines[b].timing
        t = tick + self.launch.hw.sync
        tm.free = [max(f, t) for f in tm.free]

    # -- ib_set / ib_wait ---------------------------------------------------------------------------------
    def ib_set(self, b, words, i, key, what, loc):
        self.phaser.wait_until(b, lambda: int(words[i]) == 0, loc,
                               f"{what} to be taken (ib_set waits until its GM word is 0)")
        words[i] = 1
        self._set(b, key)

    def ib_wait(self, b, words, i, key, what, loc):
        self.phaser.wait_until(b, lambda: int(words[i]) == 1, loc, f"{what} (an ib_set)")
        words[i] = 0
        self._acquire(b, key)
        self.phaser.signalled()      # a set waiting for the word to clear may go on

    # -- notify_next_block / wait_pre_block -------------------------------------------------------------
    def notify_next(self, b, words, base, ws):
        words[base + 8 * b] += 1
        n = self.notifies[(ws, b)] = self.notifies.get((ws, b), 0) + 1
        self._set(b, (ws, b, n))

    def wait_pre(self, b, words, base, ws, blocks, loc):
        prev = (b - 1) % blocks
        own, mine = base + 8 * b, self.notifies.get((ws, b), 0)
        if b:
            ready = lambda: int(words[base + 8 * prev]) > int(words[own])       # noqa: E731
            need = mine + 1
        else:
            ready = lambda: int(words[base + 8 * prev]) == int(words[own])      # noqa: E731
            need = mine
        self.phaser.wait_until(b, ready, loc, f"block {prev}'s notify_next_block (its notify number {need})")
        if need and prev != b:
            self._acquire(b, (ws, prev, need))


class Alone:
    """The phaser of a one-block launch: a wait nothing has satisfied yet never will be."""

    def __init__(self, launch, engine):
        self.launch, self.engines = launch, {engine.block_idx: engine}
        self.events = BlockEvents(self)

    def wait_until(self, b, ready, loc, what):
        if not ready():
            raise located(PipeHangError, loc, f"block {b} waits for {what}, and no other block runs in this "
                          "launch: on the device it waits for ever",
                          "pair every wait with a set another block reaches (the same workspace, block index "
                          "and event id), with the workspace zeroed before the launch", "PipeHangError")

    def signalled(self):
        pass
