"""Flags between blocks, kept in a GM workspace as Ascend C keeps them (32 bytes, one int32 used, per flag):

- ``ib_set`` / ``ib_wait`` (block index i, event e; word ``(e * blocks + i) * 8``): a set waits until the word
  is 0 and writes 1, a wait waits until it is 1 and writes 0 (one set per wait, the waiter consuming it);
- ``notify_next_block`` / ``wait_pre_block`` (word ``b * 8`` counts block b's notifies): block b > 0 waits
  until block b - 1 has notified more often than b has, block 0 until block ``blocks - 1`` has notified as
  often as block 0 (so the blocks pass in turn, 0, 1, ..., as the deterministic-compute pattern needs).

- ``cross_core_set_flag`` / ``cross_core_wait_flag`` (flag id, a counter per core): mode 0 over every block
  of the launch, mode 1 over the two vector cores of a MIX group; a wait goes on once every core of its
  scope has set the flag as often as this core has waited for it, plus one (a barrier in two halves), and a
  core's counter holds at most 15 sets not yet waited for. The set fires on its pipe once that pipe's
  earlier instructions are done, so every earlier GM access of the block must be ordered before that pipe.

A wait that is satisfied orders the waiter after everything the setter did before its set (the GM race
checks read it through ``GmRaces.clocks``) and starts its pipes no earlier than the set plus a sync. The
words are the workspace's own GM values, so a workspace that was not zeroed behaves as on the device."""
from __future__ import annotations

from ...ir.faults import PipeHangError, located
from ...ir.registry import PIPES

_S = PIPES.index("S")
CROSS_CORE_COUNTS = 15      # sets a core's counter of one flag id holds


class BlockEvents:
    def __init__(self, phaser):
        self.phaser = phaser
        self.launch = phaser.launch
        self.tokens = {}           # flag -> (happens-before token, tick of the set)
        self.notifies = {}         # (workspace, block) -> its notifies so far
        self.cc_sets = {}          # cross-core flag -> {block: its sets so far}
        self.cc_taken = {}         # (cross-core flag, block) -> its waits so far

    def _set(self, b, key, tick=None):
        eng = self.phaser.engines[b]
        self.tokens[key] = (self.launch.gm_races.clocks.release(b), max(eng.timing.free) if tick is None else tick)
        self.phaser.signalled()

    def _acquire(self, b, key, once=True):
        """``once``: the set is waited for by one block (ib_set, notify_next_block), else by every core of
        its scope (cross_core_set_flag)."""
        got = self.tokens.pop(key, None) if once else self.tokens.get(key)
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
        self.phaser.wait_until(b, lambda: int(words[i]) == 1, loc, f"an ib_set of {what}")
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


    # -- cross_core_set_flag / cross_core_wait_flag ---------------------------------------------------------
    def cross_set(self, b, flag, pipe):
        """Block ``b`` sets ``flag`` (a (mode, id, scope) key) on ``pipe``: None, or (message, hint) of a set
        the hardware refuses or that does not cover an earlier GM access."""
        eng = self.phaser.engines[b]
        p = PIPES.index(pipe) if pipe in PIPES else None
        if p is not None and self.launch.checks:
            for buf, lo, hi, q, m, write in eng.gm_tracker.items:
                if q != p and q != _S and eng.seen[p][q] < m:     # the scalar unit's reads are done at issue
                    name, qn, _, line = eng.ops[m]
                    return (f"cross_core_set_flag on PIPE_{pipe} fires once PIPE_{pipe}'s earlier instructions are "
                            f"done, and nothing orders the {name} on {qn} at line {line} ({'writing' if write else 'reading'} "
                            f"GM '{buf}') before them: the other cores may go on before it completes",
                            f"set the flag on PIPE_{qn}, or order line {line} before it (set_flag / wait_flag, "
                            "pipe_barrier)")
        sets = self.cc_sets.setdefault(flag, {})
        n = sets[b] = sets.get(b, 0) + 1
        rounds = min(sets.get(x, 0) for x in flag[2])
        for y in flag[2]:
            if rounds - self.cc_taken.get((flag, y), 0) > CROSS_CORE_COUNTS:
                sets[b] -= 1
                return (f"cross_core_set_flag({flag[1]}): block {y}'s counter of the flag would hold "
                        f"{CROSS_CORE_COUNTS + 1} sets not yet waited for; the hardware counts to {CROSS_CORE_COUNTS}",
                        "wait for the flag before setting it again")
        tm = eng.timing
        fired = tm.set_flag(p)[0] if p is not None else \
            max(max(tm.free), max(tm.pipe_done)) + self.launch.hw.sync      # PIPE_ALL: every pipe done
        self._set(b, ("cc", flag, b, n), fired)
        return None

    def cross_wait(self, b, flag, loc):
        sets = self.cc_sets.setdefault(flag, {})
        k = self.cc_taken.get((flag, b), 0) + 1
        scope = flag[2]
        self.phaser.wait_until(b, lambda: min(sets.get(x, 0) for x in scope) >= k, loc,
                               f"cross_core_set_flag({flag[1]}) (mode {flag[0]}) of block(s) "
                               f"{', '.join(map(str, scope))} (set number {k})")
        self.cc_taken[(flag, b)] = k
        for x in scope:
            if x != b:
                self._acquire(b, ("cc", flag, x, k), once=False)


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
