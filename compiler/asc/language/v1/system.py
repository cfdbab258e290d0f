"""System, cache, debug and scalar-bit names of pyasc's v1 API, as they behave for one kernel on one card.

Caches, the instruction prefetch, the SoC state and profiling marks change no value a kernel computes here
(GM is read and written directly; there is no instruction cache to warm), so they are no-ops; the system
workspace and HCCL context are the values the kernel set (none: a null address, 0); the sub-block names
follow the kernel type (``cores.py``: two vector cores per group in MIX_AIC_1_2, one in the others); the
debug names print or dump as the CPU debug build does, in program order, reading their tensor on the scalar
unit (so the race detector checks them like any scalar read); ``trap`` stops the kernel at its line."""
from __future__ import annotations

from ...ir.faults import KernelRuntimeError, located
from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .enums import CacheLine, DcciDst, MemDsbT  # noqa: F401  (their parameters' types)
from .cores import vector_cores_per_group
from .tensors import _block, _dump


# -- synchronisation and caches: no value changes ---------------------------------------------------
def data_sync_barrier(arg0=MemDsbT.ALL):
    """DSB: the scalar unit's memory accesses complete before it goes on; here they complete when issued."""
    _block()
    MemDsbT(arg0)


def data_cache_clean_and_invalid(entire_type, dst, dcci_dst=None):
    """Write back / invalidate the scalar data cache (also as ``(entire_type, dcci_dst, dst)``): GM is read and
    written directly here."""
    _block()
    CacheLine(entire_type)


def data_cache_preload(src, cache_offset):
    _block()


def icache_preload(pre_fetch_len):
    _block()


def get_icache_preload_status():
    """0: no prefetch in flight."""
    _block()
    return 0


def check_local_memory_ia(check_params):
    """Arms the hardware's local-memory access check (debug); the engine checks every access anyway."""
    from .params import CheckLocalMemoryIAParam
    if not isinstance(check_params, CheckLocalMemoryIAParam):
        raise error(TypeError, f"check_local_memory_ia takes a CheckLocalMemoryIAParam, got "
                    f"{type(check_params).__name__}", "pass asc.CheckLocalMemoryIAParam(...)")
    _block()


def init_soc_state():
    _block()


def metrics_prof_start():
    _block()


def metrics_prof_stop():
    _block()


# -- blocks waiting for each other ----------------------------------------------------------------------
def sync_all(gm_workspace=None, ub_workspace=None, used_cores=0, is_aiv_only=True):
    """Every block of the launch waits here until all have arrived (the hard form; with a GM and a UB
    workspace, the soft one): each block's pipes drain first, and GM written before it is visible to every
    block after it."""
    from .enums import PipeID
    from .sync import pipe_barrier
    from .block_sync import one_wave
    blk = _block()
    launch = blk.launch
    blocks = launch.core_num
    if int(used_cores) not in (0, blocks):
        raise error(ValueError, f"sync_all(used_cores={int(used_cores)}) in a launch of {blocks} blocks: this engine "
                    "synchronises every block of the launch", "pass used_cores=0 (all blocks)")
    one_wave("sync_all")
    if gm_workspace is not None:
        need = blocks * 32
        for what, t in (("gm_workspace", gm_workspace), ("ub_workspace", ub_workspace)):
            if t is None or t.size is None or t.size * t.itemsize < need:
                raise error(ValueError, f"sync_all: {what} holds {0 if t is None or t.size is None else t.size * t.itemsize}"
                            f" bytes, the soft sync needs {need} (32 per block)",
                            "give both workspaces 32 bytes per block (int32; the GM one zeroed)")
    pipe_barrier(PipeID.PIPE_ALL)
    if launch.phaser is not None:
        launch.phaser.barrier(blk.block_idx, user_loc())
    elif blocks > 1:
        raise error(RuntimeError, "sync_all reached from a function this engine did not see calling it: its "
                    "blocks were not run as blocks that wait for each other",
                    "call sync_all in the kernel or in an @asc.jit helper the kernel calls")


# -- system values -----------------------------------------------------------------------------------
def set_sys_workspace(workspace):
    _block().sys_workspace = workspace


def get_sys_workspace():
    """The workspace ``set_sys_workspace`` gave (without one: a null address, 0)."""
    return getattr(_block(), "sys_workspace", None) or 0


def set_hccl_context(index, context):
    blk = _block()
    if not hasattr(blk, "hccl"):
        blk.hccl = {}
    blk.hccl[int(index)] = context


def get_hccl_context(index):
    """The context ``set_hccl_context`` gave for ``index`` (on one card without one: 0)."""
    return getattr(_block(), "hccl", {}).get(int(index), 0)


def _per_group():
    """The vector cores of the block's AI core group: 2 in a MIX_AIC_1_2 kernel, else 1 (a cube core is one)."""
    return max(1, vector_cores_per_group(getattr(_block().launch, "kind", "AIV_ONLY")))


def get_sub_block_idx():
    """Which vector core of its group the block is (0 or 1 in a MIX_AIC_1_2 kernel); 0 in other kernels."""
    return _block().block_idx % _per_group()


def get_sub_block_num():
    """The vector cores of an AI core group: 2 in a MIX_AIC_1_2 kernel, else 1."""
    return _per_group()


def get_task_ratio():
    """Vector cores per AI core as the block sees it: 2 in a MIX_AIC_1_2 kernel, 1 in every other type (a cube
    core's ratio is 1 too)."""
    return _per_group()


def get_data_block_size_in_bytes():
    _block()
    return 32


def get_arch_version(core_version=None):
    """The core's architecture version (220 for the C220 platforms, 310 for C310)."""
    return int(str(_block().hw.arch).lstrip("cC"))


def get_program_counter():
    """Where the block is: the index of its next instruction."""
    return _block().n + 1


def get_system_cycle():
    """The system counter (50 MHz) when the scalar unit reaches this call, from the block's modelled ticks."""
    return _block().issue(PipeOp("get_system_cycle", "S", loc=user_loc()))


def trap():
    """Stops the kernel (the CPU build's assert)."""
    _block()
    raise located(KernelRuntimeError, user_loc(), "asc.trap(): the kernel stopped here", "the kernel asked to stop: "
                  "find the condition that led here", "Trap")


def static_assert(test, message=None):
    """A check made while the kernel compiles (pyasc's): ``test`` must be a Python bool known then; False
    stops the compile with ``message`` at the line."""
    import numpy as np
    if isinstance(test, np.bool_):
        test = bool(test)
    if not isinstance(test, bool):
        raise error(TypeError, "Assertion condition could not be determined, expected bool, got "
                    f"{type(test).__name__}", "static_assert checks values known at compile time; test a "
                    "runtime value with an if and asc.trap()")
    if not test:
        raise error(AssertionError, message or "static_assert failed", "the kernel's compile-time condition "
                    "does not hold for these arguments")


# -- debug output --------------------------------------------------------------------------------------
def dump_tensor(tensor, desc, dump_size, shape_info=None):
    """Print ``dump_size`` elements of a tensor with the user's ``desc`` number (as DumpTensor)."""
    _dump(tensor, dump_size, {"mode": "dump", "desc": int(desc),
                              "shape": None if shape_info is None else tuple(shape_info.shape)})


def dump_acc_chk_point(tensor, index, count_off, dump_size):
    """Print ``dump_size`` elements from element ``count_off`` with the check point ``index``."""
    _dump(tensor[int(count_off):], dump_size, {"mode": "dump", "desc": int(index), "shape": None})


def printf(desc, *params):
    """C's printf format (``%d %f %x %s ...``), printed when the scalar unit reaches it."""
    _block()
    try:
        text = desc % params if params else desc
    except (TypeError, ValueError) as e:
        raise error(TypeError, f"printf({desc!r}, ...): {e}", "give one argument per conversion (%d, %f, ...)")
    print(text, end="" if text.endswith("\n") else "\n")


def print_time_stamp(desc_id):
    print(f"descId is {int(desc_id)}, cycle is {get_system_cycle()}")


def _debug_cost(op, hw):
    return ("S", hw.scalar_op * max(1, op.attrs.get("count", 1)))


define("v1.dump_tensor", cost=_debug_cost)
define("v1.get_system_cycle", cost=lambda op, hw: ("S", hw.scalar_op))

__all__ = NAMES = ("sync_all data_sync_barrier data_cache_clean_and_invalid data_cache_preload icache_preload get_icache_preload_status "
         "check_local_memory_ia init_soc_state metrics_prof_start metrics_prof_stop set_sys_workspace "
         "get_sys_workspace set_hccl_context get_hccl_context get_sub_block_idx get_sub_block_num get_task_ratio "
         "get_data_block_size_in_bytes get_arch_version get_program_counter get_system_cycle trap static_assert "
         "dump_tensor dump_acc_chk_point printf print_time_stamp MemDsbT CacheLine DcciDst").split()
# (the scalar unit's bit helpers are in scalar_unit.py)
