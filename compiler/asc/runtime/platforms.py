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

from dataclasses import dataclass

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
    unroll_fill: float        # per extra unrolled clone, once per loop entry (instruction fetch)
    interleave_clones: bool   # the unrolled clones' instruction streams are interleaved (a read-back in
                              # one clone does not hold back the loads of the next)
    icache_instrs: float      # loop body instructions (x unroll factor) the instruction cache holds
    icache_miss: float        # per trip, per body size beyond the cache
    mmad_issue: float
    mmad_macs_per_tick: float
    vector_weights: tuple = ()  # (op kind, weight in simple vector calls): transcendentals expand to several

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
    launch_ticks=1910.0, block_stagger=30.0, scalar_op=1.0, scalar_gm=60.0, scalar_float_math=250.0, issue=2.0, loop_trip=6.0,
    sync=52.0,
    mte2_setup=292.0, mte2_latency=200.0, mte2_bytes_per_tick=30.5, mte3_setup=48.0, mte3_latency=104.0,
    mte3_bytes_per_tick=12.0,
    mte1_latency=40.0, mte1_bytes_per_tick=128.0, fix_latency=386.0, fix_bytes_per_tick=32.0,
    vector_issue=19.0, vector_op=7.2, vector_repeat=1.0, vf_fusion=True, vector_chain=0.0, tile_alloc=0.0, vector_to_scalar=402.0, cube_to_vector=300.0, loop_barrier=150.0,
    unroll_fill=0.0, interleave_clones=True, icache_instrs=48.0, icache_miss=600.0, mmad_issue=20.0, mmad_macs_per_tick=4096.0,
    vector_weights=_WEIGHTS)

_C220 = Hardware(
    CompilationArch.C220, ub_bytes=192 * KiB, l1_bytes=512 * KiB, l0a_bytes=64 * KiB, l0b_bytes=64 * KiB,
    l0c_bytes=128 * KiB, vector_bytes=256, aiv_cores=48, aic_cores=24, clock_mhz=1800.0,
    launch_ticks=1980.0, block_stagger=41.0, scalar_op=1.0, scalar_gm=60.0, scalar_float_math=40.0, issue=2.0, loop_trip=6.0,
    sync=22.0,
    mte2_setup=257.0, mte2_latency=0.0, mte2_bytes_per_tick=35.0, mte3_setup=66.0, mte3_latency=50.0,
    mte3_bytes_per_tick=0.2,
    mte1_latency=40.0, mte1_bytes_per_tick=128.0, fix_latency=165.0, fix_bytes_per_tick=32.0,
    vector_issue=33.0, vector_op=0.0, vector_repeat=1.0, vf_fusion=False, vector_chain=50.0, tile_alloc=0.0, vector_to_scalar=81.0, cube_to_vector=1000.0, loop_barrier=0.0,
    unroll_fill=1925.0, interleave_clones=False, icache_instrs=48.0, icache_miss=600.0, mmad_issue=20.0, mmad_macs_per_tick=4096.0,
    vector_weights=_WEIGHTS + (("reduce", 5.7), ("compare", 3.0), ("select", 3.0), ("softmax", 3.0), ("erf", 30.0)))


# Where each number of the tables comes from and how far to trust it: (source, confidence). "fitted":
# fitted to the camodel rows of bench/ticks_calibration.py (May-Aug 2026 measurements, perf-calibration
# §2); "spec": perf-calibration §3 / public headers; "guess": plausible, not measured.
_COMMON = {
    "ub_bytes": ("pyasc launcher ub_capacity", "high"),
    "l1_bytes": ("public arch headers (catlass, ops-transformer)", "high"),
    "l0a_bytes": ("public arch headers", "high"),
    "l0b_bytes": ("public arch headers", "high"),
    "l0c_bytes": ("public arch headers (C310: header for Ascend910_95, unconfirmed for dav_3510)", "medium"),
    "vector_bytes": ("VL = 256 B (RegTensor doc; one repeat of 8 x 32 B blocks on C220)", "high"),
    "aiv_cores": ("C310: the camodel as used by the reference harness; C220: platform ini example", "medium"),
    "aic_cores": ("as aiv_cores", "medium"),
    "clock_mhz": ("inferred (C310) / commonly quoted (C220), see the field comment", "low"),
    "scalar_op": ("guess: one cycle", "guess"),
    "scalar_gm": ("guess: a scalar GM access through the data cache", "guess"),
    "issue": ("guess: scalar issue of one instruction", "guess"),
    "loop_trip": ("guess: loop control", "guess"),
    "mte1_latency": ("guess (cube path not separately measured)", "guess"),
    "mte1_bytes_per_tick": ("guess", "guess"),
    "fix_bytes_per_tick": ("guess", "guess"),
    "vector_repeat": ("spec: one tick per 256-byte repeat (perf-calibration §5, fixed)", "medium"),
    "icache_instrs": ("guess: sized so unroll_factor=8 of a typical body overflows (perf-calibration §1.3)", "guess"),
    "icache_miss": ("guess: per trip of a body the size of the cache, when the body thrashes it", "guess"),
    "mmad_issue": ("guess", "guess"),
    "mmad_macs_per_tick": ("spec: 16x16x16 fp16 MAC per cycle (Da Vinci cube)", "medium"),
}
SOURCES = {
    CompilationArch.C310: {**_COMMON,
        "launch_ticks": ("fitted (rows of 1 to 128 trips at 1, 8 and 16 cores)", "medium"),
        "block_stagger": ("spec: 8 blocks of one launch end ~40 ticks apart each (ticks-calculation §4)", "medium"),
        "scalar_float_math": ("fitted (rms_norm row; at the fit's upper bound: scalar division and square "
                              "root run as software sequences)", "low"),
        "sync": ("fitted", "medium"),
        "mte2_setup": ("fitted: the engine's occupancy per load; one more 4 KiB load per tile costs ~400 "
                       "(add vs abs f16), a 512 B tile ~310 (abs f32 TILE 128)", "high"),
        "mte2_latency": ("spec mechanism (the data lands a latency after the engine frees, perf-calibration §5: "
                         "lambda2 + bytes / beta2); size: the smallest value that lets a single buffer "
                         "(unroll_factor=1) serialise load behind compute as the §2.4 sweep separates "
                         "uf1 / uf2 with parallel=True (its rank order, not its values)", "low"),
        "mte2_bytes_per_tick": ("fitted: per core with 16 cores streaming (add vs abs f16); below the spec's "
                                "50-75, a low-identifiability estimate", "medium"),
        "mte3_setup": ("fitted", "medium"),
        "mte3_latency": ("fitted", "medium"),
        "mte3_bytes_per_tick": ("fitted (apply_adam, softmax stores; spec: 7-9 B/tick)", "medium"),
        "fix_latency": ("fitted (matmul 32x32x32 row only)", "low"),
        "vector_issue": ("fitted: one vector-function call (fused default build)", "medium"),
        "vector_op": ("fitted: latency of one op inside a fused vector function", "medium"),
        "vf_fusion": ("spec: the measured default build behaves as VF fusion on (perf-calibration §1.3: "
                      "default == on in every cell)", "high"),
        "vector_chain": ("0: ops inside one vector function are ordered by their latency (vector_op)", "medium"),
        "tile_alloc": ("spec: static allocation on C310, no scalar allocation work (perf-calibration §3.3)", "high"),
        "vector_to_scalar": ("fitted (reduce_sum, rms_norm rows)", "medium"),
        "cube_to_vector": ("guess: on-chip FIFO hand-off", "guess"),
        "loop_barrier": ("spec mechanism (InsertBufIdSync); size from the ~500 ticks per trip parallel=True saves", "medium"),
        "unroll_fill": ("not observed on C310: 0", "low"),
        "interleave_clones": ("spec: static allocation and buffer-id sync let clones overlap (reduce rows)", "medium"),
        "vector_weights": ("spec guesses (exp / sqrt / div 2, tanh 6, erf 8, softmax 7); compare and select 1 "
                           "(single ops); reduce: one pass over the data plus a tree over one repeat's lanes", "low"),
    },
    CompilationArch.C220: {**_COMMON,
        "launch_ticks": ("fitted (reduce_sum row sweep: ~3.4k fixed)", "medium"),
        "block_stagger": ("fitted", "low"),
        "scalar_float_math": ("guess", "guess"),
        "sync": ("fitted", "low"),
        "mte2_setup": ("fitted (reduce_sum row sweep)", "medium"),
        "mte2_latency": ("as C310", "low"),
        "mte2_bytes_per_tick": ("fitted (reduce_sum row sweep)", "medium"),
        "mte3_setup": ("fitted", "low"),
        "mte3_latency": ("fitted", "low"),
        "mte3_bytes_per_tick": ("fitted: 0.2 B/tick is the only store rate that gives both ~1.2-1.6k ticks per "
                                "256-byte elementwise tile and ~800 per 8 KiB reduce row", "low"),
        "fix_latency": ("not measured on C220: C310 guess", "guess"),
        "vector_issue": ("fitted", "low"),
        "vector_to_scalar": ("fitted (reduce_sum row sweep)", "medium"),
        "cube_to_vector": ("guess: through GM on A2", "guess"),
        "loop_barrier": ("spec: InsertSync on A2 has no loop-end barrier (parallel=True changes nothing)", "high"),
        "unroll_fill": ("fitted: unroll_factor=2 costs ~1.4-2k fixed on the reduce_sum sweep", "medium"),
        "interleave_clones": ("fitted: unroll_factor=2 gains nothing per row on the reduce_sum sweep", "medium"),
        "vector_op": ("0: not separable from vector_issue on the C220 rows (DMA- and store-bound)", "guess"),
        "vf_fusion": ("spec: vector-function fusion is a C310 feature (pyasc rejects vf_fusion elsewhere)", "high"),
        "vector_chain": ("spec mechanism: pipe_barrier(PIPE_V) between dependent calls and between the "
                         "instructions a heavy call expands to (InsertSync, perf-calibration §3.3); the C220 rows "
                         "hide it under DMA, so its size is set with the erf weight from the one statement "
                         "about it: camodel separates abs / leaky_relu / gelu float16 by ~40 % (issue note)", "low"),
        "tile_alloc": ("spec mechanism: TPipe allocation is scalar work per tile on A2 (§3.3); not separable "
                       "from the fitted per-load / per-store numbers: 0", "guess"),
        "vector_weights": ("spec guesses, fitted where the table overrides (reduce 5.7 passes, compare, select, "
                           "softmax); erf 30: no erf instruction on A2, a software sequence of ~30 dependent "
                           "vector instructions (guess, sized with vector_chain)", "low"),
    },
}


_BY_PLATFORM = {}


def hardware(platform: Platform) -> Hardware:
    hw = _BY_PLATFORM.get(platform)
    if hw is None:
        hw = _BY_PLATFORM[platform] = _C310 if platform_to_arch(platform) == CompilationArch.C310 else _C220
    return hw
