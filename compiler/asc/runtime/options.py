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


@dataclass(frozen=True)
class LaunchOptions:
    core_num: int = 0
    stream: Any = None


def names(cls):
    return [f.name for f in fields(cls)]
