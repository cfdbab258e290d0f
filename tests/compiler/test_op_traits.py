"""Each op's facts live on its definition: a cost, a simulator implementation and traits that passes
(global-memory analysis, memory plan, loop tracing) ask for instead of listing op names."""
from __future__ import annotations

import dataclasses

import numpy as np

import asc
import asc2  # noqa: F401  (defines every op)
from asc.ir.analysis import written_args
from asc.ir.registry import NO_TRAITS, OPS, Traits
from asc.sim.ops import IMPLS


def test_every_op_has_traits_a_cost_and_an_implementation():
    assert OPS
    for name, d in OPS.items():
        if name.startswith("v1."):
            continue
        assert isinstance(d.traits, Traits), name
        assert callable(d.cost), name
        assert name in IMPLS, name


def test_every_v1_instruction_has_a_cost_and_an_implementation_in_the_pipe_engine():
    """v1 instructions are defined in the same registry (``v1.<name>``); the pipe engine runs them. Only the
    ordering instructions (their edges are the schedule) and the Matmul calls (scheduled as the cube steps
    of their base blocks, each step defined with its cost) have no cost of their own."""
    from asc.sim.pipes.instructions import IMPLS as PIPE_IMPLS
    from asc.sim.pipes.cube import SCHEDULES
    v1 = {n: d for n, d in OPS.items() if n.startswith("v1.")}
    assert {"v1.data_copy", "v1.add", "v1.exp", "v1.get_value", "v1.softmax", "v1.cube_mmad"} <= set(v1)
    assert {n for n, d in v1.items() if d.cost is None} == {"v1.set_flag", "v1.wait_flag", "v1.pipe_barrier",
                                                            "v1.iterate_all", "v1.matmul_block"}
    steps = {"cube_load_l1", "cube_load_l0", "cube_mmad", "cube_fixpipe"}
    for name in v1:
        short = name[3:]
        assert short in PIPE_IMPLS or short in SCHEDULES or short in steps or \
            short in ("set_flag", "wait_flag", "pipe_barrier"), name


def test_global_memory_traits_point_at_a_tensor_operand():
    gm = {n: d.traits for n, d in OPS.items() if d.traits.reads_gm is not None or d.traits.writes_gm is not None}
    assert set(gm) == {"tile.load", "tile.store", "tile.atomic", "tensor.get_value", "tensor.set_value", "tile.gather",
                       "tile.scatter"}
    assert {n for n, t in OPS.items() if t.traits.accumulator} == {"tile.zeros_acc", "tile.matmul_acc"}
    assert {n for n, t in OPS.items() if t.traits.zero_copy} == {"tile.reshape", "tile.cube_transpose"}


@asc2.jit
def copy_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
    asc2.store(asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0]), asc2.tensor(out_ptr, [64]), offsets=[0])


def test_the_global_memory_analysis_asks_the_store_traits(monkeypatch):
    x = np.zeros(64, np.float32)
    fn = copy_kernel.compile((x, x.copy()), {})[0].fn
    assert written_args(fn) == {"out_ptr"}
    monkeypatch.setattr(OPS["tile.store"], "traits", NO_TRAITS)
    assert written_args(fn) == set()
    monkeypatch.setattr(OPS["tile.load"], "traits", dataclasses.replace(OPS["tile.load"].traits, writes_gm=0))
    assert written_args(fn) == {"x_ptr"}
