"""The trace pipeline of one kernel specialisation: AST -> IR (frontend), verification, memory plan,
per-op costs; the result is a ``CompiledKernel`` the launcher runs."""
from __future__ import annotations

from ..frontend.errors import CompilationError
from ..frontend.visitor import FunctionVisitor
from ..ir import Block, Builder, Function, print_function, verify_function
from ..ir.analysis import (batchable_loops, hoistable_ops, launch_structure, readers, unbarriered_gm_loops,
                           written_args)
from ..ir.builder import building
from ..ir.core import Value
from ..ir.registry import stages
from ..ir.types import PtrType, ScalarType
from ..language.core.errors import error
from ..language.core.ir_value import GlobalAddress, PlainValue
from ..language.tile.memory_ops import resolve_auto_locations
from .caches import KernelTapes
from ..language.dialect import compile_fault
from ..language.tile.shape_ops import cube_transpose_fault, ub_transpose_fault
from .memory_plan import plan
from .platforms import hardware


class CompiledKernel:
    """A traced, verified kernel for one specialisation and platform."""

    def __init__(self, fn: Function, costs, memory, platform):
        self.fn = fn
        self.written_args = written_args(fn)
        self.batchable_loops = batchable_loops(fn)
        self.hoistable = hoistable_ops(fn)   # carried-value loop -> ops run for all trips at once
        # Un-barriered loops whose iterations may depend on each other through global memory (without and
        # with arguments that alias each other).
        self.gm_loops = (unbarriered_gm_loops(fn), unbarriered_gm_loops(fn, aliased=True))
        self.plans = {}   # the executor's per-loop plans (sim/carried.py), made on the first launch
        # Replaying launches (sim/replay.py): the structure values (None: not replayable, ``not_replayed``
        # says why) and the recorded launches by structure key.
        self.structure, self.not_replayed = launch_structure(fn)
        self.tapes = KernelTapes()
        self.costs = costs
        self.memory = memory
        self.platform = platform

    @property
    def ir(self) -> str:
        return print_function(self.fn)

    # What the on-disk cache keeps (``runtime/cache.py``, written after the kernel's first launch): the IR and
    # its analyses, and the tick schedules its launches made (keyed by platform table, block count and loop
    # and branch record: a program run again reuses them). Not this process's recorded launches (they live
    # in ``caches.REPLAY``) nor the executor's per-loop plans, rebuilt on first use.
    _PROCESS_ONLY = ("tapes", "plans")

    def __getstate__(self):
        state = dict(self.__dict__)
        for name in self._PROCESS_ONLY:
            state.pop(name, None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.tapes = KernelTapes()
        self.plans = {}


def trace(jit_fn, cg, co, constexprs, runtime, platform):
    """Trace ``jit_fn`` for one specialisation: IR, checks, memory plan and the cost of every op."""
    hw = hardware(platform)
    builder = Builder(platform, arch=hw.arch.value)
    builder.debug = bool(co.debug)
    body = Block()
    args, handles = [], {}
    for name, kind, d, _ in runtime:
        v = Value(PtrType(d) if kind == "ptr" else ScalarType(d), None, body)
        body.args.append(v)
        args.append(v)
        handles[name] = GlobalAddress(v) if kind == "ptr" else PlainValue(v)
    fn_ir = Function(jit_fn.__name__, args, [r[0] for r in runtime], body, jit_fn.source_file,
                     {k: v for k, v in constexprs.items()})
    visitor = FunctionVisitor(jit_fn, builder, cg, constexprs)
    visitor.scope.update(handles)
    builder.dialect = fn_ir.dialect = visitor.dialect
    if co.vf_fusion and hw.arch.value != "c310" and visitor.dialect.august:   # April pyasc skipped the pass
        raise error(RuntimeError, f"VF fusion is not supported for the {hw.arch.value} architecture",
                    "drop vf_fusion=True on this platform (it only applies to C310 SoCs)")
    with building(builder), builder.insert_into(body):
        visitor.run_body(jit_fn.node.body)
    fn_ir.warnings = list(builder.warnings)
    resolve_auto_locations(fn_ir)
    uses = readers(fn_ir)
    fault = cube_transpose_fault(fn_ir, uses)
    if fault is None and visitor.dialect.august:
        fault = ub_transpose_fault(fn_ir, uses, hw.arch.value == "c310") or compile_fault(fn_ir, uses)
    if fault is not None:
        op, message, hint = fault
        loc = op.loc
        raise CompilationError(message, loc.file if loc else None, loc.line if loc else None,
                               loc.col if loc else None, None, hint)
    verify_function(fn_ir)
    memory = plan(fn_ir, hw, co)
    costs = {}
    for op in fn_ir.walk():
        st = stages(op.name, op, hw)
        costs[op.id] = (st[0][0], st[0][1], tuple(x[:2] for x in st[1:]), st)
    return CompiledKernel(fn_ir, costs, memory, platform)
