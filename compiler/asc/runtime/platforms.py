"""Hardware tables per platform family, and the tick cost parameters of the simulator.

Capacities follow pyasc's launcher (UB 192 KiB on C220, 248 KiB on C310) and public Ascend headers
(L1 512 KiB, L0A / L0B 64 KiB, L0C 128 KiB on C220 and 256 KiB on C310). Cost parameters were fitted
to camodel ``Total tick`` measurements of Ascend950PR_9599 (docs/simulator.md); C220 reuses them with
its larger launch floor.
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
    # tick model
    launch_ticks: float       # fixed launch floor
    scalar_op: float
    scalar_gm: float          # scalar read / write of global memory
    mte2_latency: float
    mte2_bytes_per_tick: float
    mte3_latency: float
    mte3_bytes_per_tick: float
    mte1_latency: float
    mte1_bytes_per_tick: float
    fix_latency: float
    fix_bytes_per_tick: float
    vector_issue: float
    vector_repeat: float
    vector_to_scalar: float   # V -> S read-back of a reduction result
    loop_barrier: float       # MTE3 -> MTE2 barrier at the end of a non-parallel loop trip
    mmad_issue: float
    mmad_macs_per_tick: float
    # AI-core clock: profiled durations are ticks / clock_mhz microseconds. No public source gives either
    # SoC's core clock (docs/simulator.md). C310: 1650 MHz, inferred from a real-NPU measurement of
    # add_inplace [32, 4096] float32 (2.8 us, skill-stack evidence add_inplace_reuse_alloc0_hw.json) against
    # its ~4 700 camodel ticks (shared/spec/perf-calibration.md §1.2). C220: 1800 MHz, the commonly quoted
    # Ascend 910B AI-core clock (perf-calibration.md, "unverified").
    clock_mhz: float = 1800.0


_C310 = Hardware(CompilationArch.C310, ub_bytes=248 * KiB, l1_bytes=512 * KiB, l0a_bytes=64 * KiB,
                 l0b_bytes=64 * KiB, l0c_bytes=256 * KiB, vector_bytes=256, aiv_cores=32, aic_cores=16,
                 launch_ticks=1700.0, scalar_op=1.0, scalar_gm=60.0,
                 mte2_latency=330.0, mte2_bytes_per_tick=64.0, mte3_latency=120.0, mte3_bytes_per_tick=8.0,
                 mte1_latency=40.0, mte1_bytes_per_tick=128.0, fix_latency=150.0, fix_bytes_per_tick=32.0,
                 vector_issue=12.0, vector_repeat=1.0, vector_to_scalar=450.0, loop_barrier=500.0,
                 mmad_issue=20.0, mmad_macs_per_tick=4096.0, clock_mhz=1650.0)

_C220 = Hardware(CompilationArch.C220, ub_bytes=192 * KiB, l1_bytes=512 * KiB, l0a_bytes=64 * KiB,
                 l0b_bytes=64 * KiB, l0c_bytes=128 * KiB, vector_bytes=256, aiv_cores=48, aic_cores=24,
                 launch_ticks=3400.0, scalar_op=1.0, scalar_gm=60.0,
                 mte2_latency=330.0, mte2_bytes_per_tick=64.0, mte3_latency=120.0, mte3_bytes_per_tick=8.0,
                 mte1_latency=40.0, mte1_bytes_per_tick=128.0, fix_latency=150.0, fix_bytes_per_tick=32.0,
                 vector_issue=12.0, vector_repeat=1.0, vector_to_scalar=450.0, loop_barrier=0.0,
                 mmad_issue=20.0, mmad_macs_per_tick=4096.0, clock_mhz=1800.0)


def hardware(platform: Platform) -> Hardware:
    return _C310 if platform_to_arch(platform) == CompilationArch.C310 else _C220
