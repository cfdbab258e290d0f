"""The three option dataclasses accepted by ``@asc2.jit`` / ``@asc.jit`` (fields and defaults as pyasc)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Optional


@dataclass
class CodegenOptions:
    capture_exceptions: bool = True
    ir_multithreading: bool = True
    custom_builtins: dict = field(default_factory=dict)


@dataclass
class CompileOptions:
    debug: bool = False
    strip_loc: bool = False
    verify_sync: bool = False
    print_ir_before_all: bool = False
    run_passes: bool = True
    kernel_type: Any = None
    auto_sync: bool = True
    auto_sync_log: str = ""
    matmul_cube_only: bool = False
    always_compile: bool = False
    bisheng_options: Optional[tuple] = None
    opt_level: int = 3
    run_asc2_passes: bool = False
    densify_load_store: bool = False
    insert_sync: Optional[bool] = None
    reuse_ub: bool = False
    reuse_ub_in_out: bool = False
    static_alloc: Optional[bool] = None
    vf_fusion: bool = False
    reuse_alloc: Optional[int] = None   # August: 0 no UB reuse, 1 dead tiles' UB reused, 2 also across loop trips
    cv_ratio: int = 1
    vf_vec_len: Optional[int] = None   # C310's vector register length for VF code (pyasc: 256 when not given)


@dataclass(frozen=True)
class LaunchOptions:
    core_num: Optional[int] = None   # None: every core of the platform
    stream: Any = None


def names(cls):
    return [f.name for f in fields(cls)]


OPTION_NAMES = set(names(CodegenOptions)) | set(names(CompileOptions)) | set(names(LaunchOptions))


def split_options(defaults, kwargs):
    """(CodegenOptions, CompileOptions) from a kernel's decorator options updated by the option keywords
    of a launch (removed from ``kwargs``), with pyasc's checks of their values."""
    from ..language.core.errors import error
    from . import config
    merged = dict(defaults)
    merged.update({k: kwargs.pop(k) for k in list(kwargs) if k in OPTION_NAMES})
    cg = CodegenOptions(**{k: v for k, v in merged.items() if k in names(CodegenOptions)})
    co = CompileOptions(**{k: v for k, v in merged.items() if k in names(CompileOptions)})
    if co.opt_level not in (1, 2, 3):
        raise error(RuntimeError, "Please check input compile option", "opt_level must be 1, 2 or 3")
    if co.reuse_alloc is not None and (co.reuse_alloc not in (0, 1, 2) or isinstance(co.reuse_alloc, bool)):
        raise error(RuntimeError, "'reuse_alloc' is only allowed to be 0, 1, 2",
                    "reuse_alloc=0 (no reuse), 1 (reuse dead tiles' UB) or 2 (also across loop iterations)")
    if co.vf_vec_len is not None and config.platform_to_arch(config.current_platform()).value != "c310":
        raise error(RuntimeError, "The vector register length option is not supported for the "
                    f"{config.platform_to_arch(config.current_platform())} architecture",
                    "drop vf_vec_len on this platform (it only applies to C310 SoCs)")
    if co.cv_ratio not in (1, 2):
        raise error(RuntimeError, f"'cv_ratio' is only allowed to be 1, 2 for the "
                    f"{config.platform_to_arch(config.current_platform())} architecture", "use cv_ratio=1 or 2")
    return cg, co
