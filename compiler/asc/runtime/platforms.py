"""Hardware tables per platform family: capacities, core counts, clock and the tick model's parameters.

Capacities follow pyasc's launcher (UB 192 KiB on C220, 248 KiB on C310) and public Ascend headers
(L1 512 KiB, L0A / L0B 64 KiB, L0C 128 KiB on C220 and 256 KiB on C310). The tick parameters drive the
per-block pipe schedule (``sim/schedule.py``); each table records, per number, where it comes from and
how far to trust it (``SOURCES``). "fitted" numbers were fitted to camodel ``Total tick`` measurements
(``bench/ticks_calibration.py`` prints the rows and the errors), "spec" ones come from the calibration
notes of the hardware (perf-calibration §3), "guess" ones are physically plausible but unmeasured.
Vector costs model the default build (vector-function fusion on).
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
    vector_issue: float
    vector_repeat: float
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
    launch_ticks=2300.0, block_stagger=30.0, scalar_op=1.0, scalar_gm=60.0, scalar_float_math=76.0, issue=2.0, loop_trip=6.0,
    sync=46.0,
    mte2_setup=286.0, mte2_latency=0.0, mte2_bytes_per_tick=58.0, mte3_setup=48.0, mte3_latency=104.0,
    mte3_bytes_per_tick=10.5,
    mte1_latency=40.0, mte1_bytes_per_tick=128.0, fix_latency=386.0, fix_bytes_per_tick=32.0,
    vector_issue=30.0, vector_repeat=1.0, vector_to_scalar=343.0, cube_to_vector=300.0, loop_barrier=150.0,
    unroll_fill=0.0, interleave_clones=True, icache_instrs=48.0, icache_miss=600.0, mmad_issue=20.0, mmad_macs_per_tick=4096.0,
    vector_weights=_WEIGHTS + (("reduce", 5.7), ("compare", 4.8), ("select", 4.1), ("softmax", 3.0), ("tanh", 4.8)))

_C220 = Hardware(
    CompilationArch.C220, ub_bytes=192 * KiB, l1_bytes=512 * KiB, l0a_bytes=64 * KiB, l0b_bytes=64 * KiB,
    l0c_bytes=128 * KiB, vector_bytes=256, aiv_cores=48, aic_cores=24, clock_mhz=1800.0,
    launch_ticks=1980.0, block_stagger=41.0, scalar_op=1.0, scalar_gm=60.0, scalar_float_math=40.0, issue=2.0, loop_trip=6.0,
    sync=22.0,
    mte2_setup=257.0, mte2_latency=0.0, mte2_bytes_per_tick=35.0, mte3_setup=66.0, mte3_latency=50.0,
    mte3_bytes_per_tick=0.2,
    mte1_latency=40.0, mte1_bytes_per_tick=128.0, fix_latency=165.0, fix_bytes_per_tick=32.0,
    vector_issue=33.0, vector_repeat=1.0, vector_to_scalar=81.0, cube_to_vector=1000.0, loop_barrier=0.0,
    unroll_fill=1925.0, interleave_clones=False, icache_instrs=48.0, icache_miss=600.0, mmad_issue=20.0, mmad_macs_per_tick=4096.0,
    vector_weights=_WEIGHTS + (("reduce", 5.7), ("compare", 3.0), ("select", 3.0), ("softmax", 3.0)))


def hardware(platform: Platform) -> Hardware:
    return _C310 if platform_to_arch(platform) == CompilationArch.C310 else _C220
