"""Hardware tables per platform family: capacities, core counts, clock and the tick model's parameters.

Capacities follow pyasc's launcher (UB 192 KiB on C220, 248 KiB on C310) and public Ascend headers
(L1 512 KiB, L0A / L0B 64 KiB, L0C 128 KiB on C220 and 256 KiB on C310). The tick parameters drive the
per-block pipe schedule (``sim/schedule.py``); each table records, per number, where it comes from and
how far to trust it (``SOURCES``). "fitted" numbers were fitted to camodel ``Total tick`` measurements
(``bench/ticks_calibration.py`` prints the rows and the errors), "spec" ones come from the calibration
notes of the hardware (perf-calibration §3), "guess" ones are physically plausible but unmeasured.
Vector costs model the default build, which behaves as vector-function fusion on (C310): adjacent vector
calls share one call overhead (``sim/schedule.py``).
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, replace

from .config import CompilationArch, Platform, platform_to_arch

KiB = 1024


@dataclass(frozen=True)
class Hardware:
    arch: CompilationArch
    ub_bytes: int
    l1_bytes: int
    l0a_bytes: int
    l0b_bytes: int
    l0c_bytes: int
    vector_bytes: int         # one vector repeat
    aiv_cores: int
    aic_cores: int
    # AI-core clock (one tick is one core cycle): profiled durations are ticks / clock_mhz microseconds.
    # No public source gives either
    # SoC's core clock (docs/simulator.md). C310: 1650 MHz, inferred from a real-NPU measurement of
    # add_inplace [32, 4096] float32 (2.8 us, skill-stack evidence add_inplace_reuse_alloc0_hw.json) against
    # its ~4 700 camodel ticks (shared/spec/perf-calibration.md §1.2). C220: 1800 MHz, the commonly quoted
    # Ascend 910B AI-core clock (perf-calibration.md, "unverified").
    clock_mhz: float
    # tick model (sim/schedule.py)
    launch_ticks: float       # fixed launch floor
    block_stagger: float      # later blocks of a wave start (and so end) this much later each
    scalar_op: float
    scalar_gm: float          # scalar read / write of global memory
    scalar_float_math: float  # scalar float division, square root, exp, log
    issue: float              # scalar-unit ticks to issue one instruction to another pipe
    loop_trip: float          # scalar loop control per trip
    sync: float               # set_flag / wait_flag between two pipes
    mte2_setup: float         # a DMA occupies its engine setup + bytes / rate; its data lands latency later
    mte2_latency: float
    mte2_bytes_per_tick: float
    mte3_setup: float
    mte3_latency: float
    mte3_bytes_per_tick: float
    dma_burst: float          # GM access granularity: a DMA moves whole bursts of this many bytes
    store_partial: float      # a store that covers part of a burst reads the burst back first (RMW)
    dma_length_modulus: float # a store given a negative length (its window starts past the end of its
                              # tensor) moves that length modulo this many bytes (the length field's
                              # width); 0: not modelled
    mte1_latency: float
    mte1_bytes_per_tick: float
    fix_latency: float
    fix_bytes_per_tick: float
    vector_issue: float       # issue overhead of one vector call (one vector function when fused)
    vector_op: float          # pipeline latency of one vector op (dependent ops inside a fused function)
    vector_repeat: float
    vf_fusion: bool           # adjacent vector calls fuse into one vector function (C310 default build)
    vector_chain: float       # a vector call reading the previous one's result waits for it to drain
                              # (pipe_barrier(PIPE_V) between dependent vector calls, InsertSync on C220)
    tile_alloc: float         # scalar work to allocate, queue and free one on-chip tile (0: static allocation)
    vector_to_scalar: float   # V -> S read-back of a vector-produced scalar (stalls the scalar unit)
    cube_to_vector: float     # hand-off of a cube result to the vector unit
    loop_barrier: float       # MTE3 -> MTE2 barrier at the end of a non-parallel loop trip (0: none)
    cold_fetch: float         # fetching one op's instructions into the cold instruction cache, the
                              # first time the op (or an unrolled clone of it) runs in a launch
    interleave_clones: bool   # the unrolled clones' instruction streams are interleaved (a read-back in
                              # one clone does not hold back the loads of the next)
    release_at_body_end: bool # a buffer is released at the end of its loop's (unrolled) body, once its reader's
                              # pipe has finished everything the body issued to it (False: after its reader)
    icache_instrs: float      # loop body instructions (x unroll factor) the instruction cache holds
    icache_miss: float        # per trip, per body size beyond the cache
    mmad_issue: float
    mmad_macs_per_tick: float
    vector_weights: tuple = ()  # (op kind, weight in simple vector calls): transcendentals expand to several

    def __hash__(self):
        # The table keys the launch's schedule and replay memos: its fields are hashed once, not per launch.
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple(getattr(self, f) for f in self.__dataclass_fields__))
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce_ex__(self, protocol):
        # A platform's own table is pickled by name: a kernel read back from the on-disk cache (whose entries
        # are keyed by this package's sources, so the table is the same) keys its memos (schedules, capacity
        # checks) with this process's table object, which lookups match by identity, not field by field. A
        # tuned copy (calibration) is pickled by value.
        if _BUILTIN.get(self.arch) is self:
            return builtin_table, (self.arch,)
        return object.__reduce_ex__(self, protocol)

    def __getstate__(self):   # (a string's hash differs between processes: a pickled table hashes afresh)
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    def dma_busy(self, runs, each, store=False, setups=1) -> float:
        """Engine occupancy of ``setups`` DMAs moving ``runs`` contiguous runs of ``each`` bytes: the setup,
        plus whole bursts of each run at the engine's rate; a store covering part of a burst reads it back
        first. A DMA whose length is clamped at zero (a window past the end of its tensor) moves no burst
        and still pays its setup."""
        moved = runs * math.ceil(each / self.dma_burst) * self.dma_burst
        if store:
            partial = self.store_partial if each % self.dma_burst else 0.0
            return setups * (self.mte3_setup + partial) + moved / self.mte3_bytes_per_tick
        return setups * self.mte2_setup + moved / self.mte2_bytes_per_tick

    def vector_busy(self, repeats, kind=None) -> float:
        """Pipe occupancy of one vector call of ``repeats`` 256-byte repeats: the call's issue overhead plus
        weight * (the op's pipeline latency + one tick per repeat), the weight of ``kind`` (1: a simple op; a
        heavier call counts as that many dependent instructions, each pair separated by the drain
        ``vector_chain``)."""
        w = self.vector_weight(kind)
        chain = (w - 1.0) * self.vector_chain if w > 1.0 else 0.0
        return self.vector_issue + w * (self.vector_op + max(1, repeats) * self.vector_repeat) + chain

    def l0_load_busy(self, nbytes) -> float:
        """MTE1 occupancy of moving ``nbytes`` from L1 into L0A / L0B."""
        return self.mte1_latency + nbytes / self.mte1_bytes_per_tick

    def fixpipe_busy(self, nbytes) -> float:
        """FIX occupancy of moving ``nbytes`` of results out of L0C."""
        return self.fix_latency + nbytes / self.fix_bytes_per_tick

    def mmad_busy(self, m, k, n, in_bytes=2) -> float:
        """Cube occupancy of one m x k x n mmad: the MAC rate is quoted for 2-byte inputs; 4-byte inputs take
        twice as long."""
        return self.mmad_issue + m * k * n / self.mmad_macs_per_tick * (2 if in_bytes == 4 else 1)

    def vector_weight(self, kind) -> float:
        for k, w in reversed(self.vector_weights):  # later entries override
            if k == kind:
                return w
        return 1.0


# Weights of vector calls that expand to several simple ones (perf-calibration §5: guesses, not fitted,
# except where a platform's table overrides them).
_WEIGHTS = (("exp", 2.0), ("exp2", 2.0), ("log", 2.0), ("log2", 2.0), ("sqrt", 2.0), ("rsqrt", 2.0), ("div", 2.0),
            ("tanh", 6.0), ("erf", 8.0), ("sin", 6.0), ("cos", 6.0), ("tan", 8.0), ("sinh", 6.0), ("cosh", 6.0),
            ("softmax", 7.0), ("rms_norm", 6.0), ("reduce", 1.0), ("compare", 1.0), ("select", 1.0))

_C310 = Hardware(
    CompilationArch.C310, ub_bytes=248 * KiB, l1_bytes=512 * KiB, l0a_bytes=64 * KiB, l0b_bytes=64 * KiB,
    l0c_bytes=256 * KiB, vector_bytes=256, aiv_cores=32, aic_cores=16, clock_mhz=1650.0,
    launch_ticks=1520.0, block_stagger=30.0, scalar_op=1.0, scalar_gm=60.0, scalar_float_math=250.0, issue=2.0,
    loop_trip=6.0, sync=81.0,
    mte2_setup=245.0, mte2_latency=200.0, mte2_bytes_per_tick=24.5, mte3_setup=227.0, mte3_latency=104.0,
    mte3_bytes_per_tick=15.9, dma_burst=128.0, store_partial=0.0, dma_length_modulus=0.0,
    mte1_latency=40.0, mte1_bytes_per_tick=128.0, fix_latency=386.0, fix_bytes_per_tick=32.0,
    vector_issue=13.2, vector_op=5.7, vector_repeat=1.0, vf_fusion=True, vector_chain=0.0, tile_alloc=0.0,
    vector_to_scalar=358.0, cube_to_vector=300.0, loop_barrier=150.0,
    cold_fetch=72.0, interleave_clones=True, release_at_body_end=False, icache_instrs=48.0, icache_miss=600.0, mmad_issue=20.0,
    mmad_macs_per_tick=4096.0, vector_weights=_WEIGHTS)

_C220 = Hardware(
    CompilationArch.C220, ub_bytes=192 * KiB, l1_bytes=512 * KiB, l0a_bytes=64 * KiB, l0b_bytes=64 * KiB,
    l0c_bytes=128 * KiB, vector_bytes=256, aiv_cores=48, aic_cores=24, clock_mhz=1800.0,
    launch_ticks=1064.3, block_stagger=41.0, scalar_op=1.0, scalar_gm=60.0, scalar_float_math=40.0, issue=2.0,
    loop_trip=6.0, sync=22.0,
    mte2_setup=233.1, mte2_latency=0.0, mte2_bytes_per_tick=41.6, mte3_setup=256.0, mte3_latency=50.0,
    mte3_bytes_per_tick=57.4, dma_burst=512.0, store_partial=479.0, dma_length_modulus=2.0 ** 21,
    mte1_latency=40.0, mte1_bytes_per_tick=128.0, fix_latency=165.0, fix_bytes_per_tick=32.0,
    vector_issue=25.2, vector_op=0.0, vector_repeat=1.0, vf_fusion=False, vector_chain=52.1, tile_alloc=0.0,
    vector_to_scalar=147.9, cube_to_vector=800.0, loop_barrier=0.0,
    cold_fetch=389.7, interleave_clones=False, release_at_body_end=True, icache_instrs=48.0, icache_miss=600.0, mmad_issue=20.0,
    mmad_macs_per_tick=4096.0,
    vector_weights=_WEIGHTS + (("reduce", 5.7), ("compare", 3.0), ("select", 3.0), ("softmax", 3.0), ("erf", 13.0)))

_TABLES = {CompilationArch.C310: _C310, CompilationArch.C220: _C220}
_BUILTIN = dict(_TABLES)   # (``tuned`` swaps entries of _TABLES for a while; these stay)


def builtin_table(arch):
    """The platform table of ``arch`` this package defines (what a pickled reference to it reads back as)."""
    return _BUILTIN[arch]

# Physical ranges of the weights (in simple vector calls): a call that expands to k dependent instructions
# weighs about k. Transcendentals are short polynomial / table sequences on C310; C220 has no erf instruction,
# so erf is AscendC's software sequence (a clamp, two polynomials of degree 4-6 in Horner form -- a mul and an
# add per degree -- and a division: 20-40 instructions). C220's erf weight (13) is sized by camodel's ~40 %
# spread of abs / leaky_relu / gelu (erf) float16 at TILE 128 (no figures): about a third of the sequence's
# instructions wait for a drain.
WEIGHT_RANGES = {"exp": (1, 4), "exp2": (1, 4), "log": (1, 4), "log2": (1, 4), "sqrt": (1, 4), "rsqrt": (1, 4),
                 "div": (1, 4), "tanh": (3, 10), "erf": (4, 40), "sin": (3, 10), "cos": (3, 10), "tan": (4, 12),
                 "sinh": (3, 10), "cosh": (3, 10), "softmax": (3, 10), "rms_norm": (4, 10),
                 "reduce": (1, 8), "compare": (1, 4), "select": (1, 4)}

# Where each number of the tables comes from, how far to trust it, and its physical range:
# name -> (source, confidence, (low, high) or None for a flag). "fitted": fitted inside its range to the
# camodel rows of bench/ticks_calibration.py (FITTED names them; the bench reports the fit's errors and its
# leave-one-out errors); "spec": perf-calibration §3 / public headers; "guess": plausible, not measured.
# Ranges: DMA rates per core from the memory system with the calibration rows' 8-16 cores streaming at once
# (C220: 0.4-1.6 TB/s of HBM at ~1.8 GHz is 220-890 B/tick, 14-55 per core of 16, up to 64 with L2 hits;
# C310: ~1.6 TB/s at ~1.65 GHz, 60 per core of 16, up to 128 with L2 hits; never below 4 nor above the
# MTE's 256-byte bus per tick), latencies from GM round trips (L2 hit ~100, HBM ~600 cycles), flags from the
# pipes' set / wait handshake.
_C220_DMA = (4.0, 64.0)
_C310_DMA = (4.0, 128.0)
_COMMON = {
    "ub_bytes": ("pyasc launcher ub_capacity", "high", None),
    "l1_bytes": ("public arch headers (catlass, ops-transformer)", "high", None),
    "l0a_bytes": ("public arch headers", "high", None),
    "l0b_bytes": ("public arch headers", "high", None),
    "l0c_bytes": ("public arch headers (C310: header for Ascend910_95, unconfirmed for dav_3510)", "medium", None),
    "vector_bytes": ("VL = 256 B (RegTensor doc; one repeat of 8 x 32 B blocks on C220)", "high", (256, 256)),
    "aiv_cores": ("C310: the camodel as used by the reference harness; C220: platform ini example", "medium", None),
    "aic_cores": ("as aiv_cores", "medium", None),
    "clock_mhz": ("inferred (C310) / commonly quoted (C220), see the field comment", "low", (1000, 2500)),
    "block_stagger": ("spec: 8 blocks of one launch end ~40 ticks apart each (ticks-calculation §4)", "medium",
                      (0, 100)),
    "scalar_op": ("guess: one cycle", "guess", (1, 4)),
    "scalar_gm": ("guess: a scalar GM access through the data cache (hit ~20, miss a GM round trip)", "guess",
                  (20, 600)),
    "issue": ("guess: scalar issue of one instruction", "guess", (1, 8)),
    "loop_trip": ("guess: loop control (compare, branch, induction update)", "guess", (2, 20)),
    "mte2_latency": ("spec mechanism (the data lands a latency after the engine frees, perf-calibration §5: "
                     "lambda2 + bytes / beta2)", "low", (0, 600)),
    "mte3_latency": ("spec mechanism: a store is done when GM acknowledges the write", "low", (0, 600)),
    "mte1_latency": ("guess (cube path not separately measured)", "guess", (10, 200)),
    "mte1_bytes_per_tick": ("guess: L1 -> L0 bus", "guess", (64, 512)),
    "fix_bytes_per_tick": ("guess", "guess", (16, 256)),
    "vector_repeat": ("spec: one tick per 256-byte repeat (perf-calibration §5, fixed)", "medium", (1, 1)),
    "icache_instrs": ("guess: sized so unroll_factor=8 of a typical body overflows (perf-calibration §1.3)",
                      "guess", (16, 256)),
    "icache_miss": ("guess: per trip of a body the size of the cache, when the body thrashes it", "guess",
                    (100, 2000)),
    "mmad_issue": ("guess", "guess", (5, 50)),
    "mmad_macs_per_tick": ("spec: 16x16x16 fp16 MAC per cycle (Da Vinci cube)", "medium", (4096, 8192)),
    "vf_fusion": ("spec: the measured default build behaves as VF fusion on (perf-calibration §1.3); a C310 "
                  "feature (pyasc rejects vf_fusion elsewhere)", "high", None),
    "vector_weights": ("spec guesses, fitted where a table overrides them; ranges in WEIGHT_RANGES", "low", None),
}
SOURCES = {
    CompilationArch.C310: {**_COMMON,
        "launch_ticks": ("fitted (rows of 1 to 128 trips at 1, 8 and 16 cores); a never-run kernel prints ~15, "
                         "small kernels ~4k", "medium", (1000, 4000)),
        "scalar_float_math": ("fitted (rms_norm row): scalar division and square root run as software "
                              "sequences", "low", (10, 300)),
        "sync": ("fitted: set_flag / wait_flag handshake between two pipes", "medium", (10, 100)),
        "mte2_setup": ("fitted: the engine's occupancy per load (descriptor, address translation, request "
                       "issue); spec lambda2 ~330-350 with the latency", "high", (50, 500)),
        "mte2_bytes_per_tick": ("fitted: per core with 16 cores streaming (spec: 50-75, low identifiability; "
                                "1.6 TB/s over 16-32 cores at ~1.65 GHz is 30-60)", "medium", _C310_DMA),
        "mte3_setup": ("fitted", "medium", (20, 500)),
        "mte3_bytes_per_tick": ("fitted (apply_adam, softmax stores; spec: 7-9 B/tick)", "medium", _C310_DMA),
        "dma_burst": ("third-party: the 950's memory-access granularity is 128 B (512 B on A2)", "low",
                      (32, 512)),
        "store_partial": ("0: the 128-byte granularity writes with byte masks; no C310 row separates it",
                          "guess", (0, 800)),
        "dma_length_modulus": ("0: a store wholly past the end loses the launch's output on the C310 simulator "
                               "(an error here): no ticks to model", "high", (0, 0)),
        "fix_latency": ("fitted (matmul 32x32x32 row only)", "low", (50, 600)),
        "vector_issue": ("fitted: one vector-function call (fused default build)", "medium", (5, 60)),
        "vector_op": ("fitted: latency of one op inside a fused vector function", "medium", (0, 20)),
        "vector_chain": ("0: ops inside one vector function are ordered by their latency (vector_op)", "medium",
                         (0, 100)),
        "tile_alloc": ("spec: static allocation on C310, no scalar allocation work (perf-calibration §3.3)",
                       "high", (0, 0)),
        "vector_to_scalar": ("fitted (reduce_sum, rms_norm rows): V -> S flag, then the scalar load from UB",
                             "medium", (30, 600)),
        "cube_to_vector": ("guess: the on-chip cube -> vector FIFO (TPUSH / TPOP)", "guess", (50, 600)),
        "loop_barrier": ("spec mechanism (InsertBufIdSync); size from the ~500 ticks per trip parallel=True "
                         "saves", "medium", (0, 600)),
        "cold_fetch": ("fitted: the first run of each op's code per copy, what C310's instruction prefetch leaves "
                       "exposed (the fit puts it near a fifth of C220's)", "low", (0, 600)),
        "interleave_clones": ("spec: static allocation and buffer-id sync let clones overlap (reduce rows)",
                              "medium", None),
        "release_at_body_end": ("spec: buffer-id sync releases each buffer right after the op that reads it "
                                "(rls_buf, perf-calibration §3.3)", "medium", None),
    },
    CompilationArch.C220: {**_COMMON,
        "launch_ticks": ("fitted (reduce_sum row sweep: ~3.4k fixed with the first row)", "medium", (1000, 4000)),
        "scalar_float_math": ("guess", "guess", (10, 300)),
        "sync": ("fitted: set_flag / wait_flag handshake between two pipes", "low", (10, 100)),
        "mte2_setup": ("fitted (reduce_sum row sweep)", "medium", (50, 500)),
        "mte2_bytes_per_tick": ("fitted (reduce_sum row sweep: 8 KiB rows)", "medium", _C220_DMA),
        "mte3_setup": ("set (tick model v3 fit): a GM write's setup; with store_partial it makes a 256-byte "
                       "tile's store ~740 ticks, which the C220 elementwise rows cannot separate from the "
                       "past-the-end stores' cost (a valley the fit slides along), so both stay put", "low",
                       (20, 500)),
        "mte3_bytes_per_tick": ("fitted: a core's share of the HBM write bandwidth; sized by the past-the-end "
                                "stores of the 128-element gelu launch (~2 MiB each)", "low", _C220_DMA),
        "dma_burst": ("spec: GM -> L1 / UB DMA works in 512-byte cache lines on A2 (hiascend storage units)",
                      "medium", (32, 512)),
        "store_partial": ("set (tick model v3 fit): a store of part of a 512-byte line (the 256-byte elementwise "
                          "tiles, the 32-byte reduce rows) reads the line back first -- one GM read round trip; "
                          "held as mte3_setup is", "low", (0, 800)),
        "dma_length_modulus": ("inferred: DataCopyPad's burst length takes 1 to 2 097 151 bytes (Ascend C's "
                               "DataCopyExtParams range as recalled, not in the shared sources: a 21-bit field); the "
                               "negative length pyasc's April lowering gives a store past the end keeps its low 21 "
                               "bits, ~2 MiB written past the tensor. Camodel's abs and gelu sums put ~50k ticks on "
                               "their 128-element launches beyond their trips, which this accounts for; the field's "
                               "width is the documented range, its wrapping inferred", "low", (2.0 ** 16, 2.0 ** 21)),
        "fix_latency": ("not measured on C220: C310 guess", "guess", (50, 600)),
        "vector_issue": ("fitted", "low", (5, 60)),
        "vector_op": ("0: not separable from vector_issue on the C220 rows (DMA- and store-bound)", "guess",
                      (0, 20)),
        "vector_chain": ("spec mechanism: pipe_barrier(PIPE_V) between dependent calls and between the "
                         "instructions a heavy call expands to (InsertSync, perf-calibration §3.3): the V "
                         "pipeline's depth; the C220 rows hide it under DMA", "low", (0, 100)),
        "tile_alloc": ("fitted: TPipe allocation is scalar work per tile on A2 (§3.3); the fit finds none beyond "
                       "what the read-back-bound reduce rows already spend (0)", "low", (0, 200)),
        "vector_to_scalar": ("fitted (reduce_sum row sweep): V -> S flag, then the scalar load from UB", "medium",
                             (30, 600)),
        "cube_to_vector": ("spec mechanism: on A2 the cube hands its result to the vector core through GM -- a "
                           "FixPipe write, a cross-core flag and an MTE2 read; size a guess from those parts",
                           "guess", (300, 2000)),
        "loop_barrier": ("spec: InsertSync on A2 has no loop-end barrier (parallel=True changes nothing)", "high",
                         (0, 0)),
        "cold_fetch": ("fitted: the reduce_sum sweep's unroll_factor=2 costs ~1.4k more fixed -- the second "
                       "clone's instructions fetched from GM on first run, a line per op", "medium", (0, 600)),
        "interleave_clones": ("fitted: unroll_factor=2 gains nothing per row on the reduce_sum sweep", "medium",
                              None),
        "release_at_body_end": ("spec: the Ascend C pyasc emits for A2 (pyasc-dev, PYASC_DUMP_PATH ascendc.cpp) "
                                "frees every queue tile (TQue::FreeTensor, a set_flag on the reader's pipe) after "
                                "the last unrolled clone, so a clone's buffer is written again only once the "
                                "group's last op on that pipe is done", "high", None),
    },
}

# The numbers bench/ticks_calibration.py fits, per platform (each inside its SOURCES range).
FITTED = {
    CompilationArch.C310: ("launch_ticks", "sync", "mte2_setup", "mte2_bytes_per_tick", "mte3_setup",
                           "mte3_bytes_per_tick", "vector_issue", "vector_op", "vector_to_scalar", "cold_fetch"),
    CompilationArch.C220: ("launch_ticks", "mte2_setup", "mte2_bytes_per_tick", "mte3_bytes_per_tick",
                           "vector_issue", "vector_chain", "tile_alloc", "vector_to_scalar", "cold_fetch"),
}


_ARCH = {}   # platform -> its family (asked on every launch)


def hardware(platform: Platform) -> Hardware:
    arch = _ARCH.get(platform)
    if arch is None:
        arch = _ARCH[platform] = platform_to_arch(platform)
    return _TABLES[arch]


@contextmanager
def tuned(platform: Platform, **values):
    """The platform's table with ``values`` in place of its own while the block runs (calibration fits).
    Op costs are computed when a kernel is compiled: kernels compiled before keep the costs of the table
    they were compiled with (the calibration kernels compile on every call)."""
    arch = platform_to_arch(platform)
    own = _TABLES[arch]
    _TABLES[arch] = replace(own, **values)
    try:
        yield _TABLES[arch]
    finally:
        _TABLES[arch] = own
