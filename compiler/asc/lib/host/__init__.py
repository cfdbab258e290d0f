"""``asc.lib.host``: pyasc's host-side tiling API (CANN's ``libtiling_api`` there) computed in Python here:
the tiling objects fill a ``TCubeTiling`` by the rule in ``tiling_rule`` (docs/simulator.md)."""
from __future__ import annotations

from .host_enums import (CubeFormat, DataType, DequantType, MatmulConfigParams, MatrixMadType,  # noqa: F401
                         MatrixTraverse, PlatformAscendC, PlatformAscendCManager, ScheduleType, get_ascendc_platform)
from .matmul_tiling import (BatchMatmulTiling, MatmulApiTiling, MultiCoreMatmulTiling, TilingError,  # noqa: F401
                            TilingWarning, TPosition)

__all__ = ["BatchMatmulTiling", "CubeFormat", "DataType", "DequantType", "MatmulApiTiling", "MatmulConfigParams",
           "MatrixMadType", "MatrixTraverse", "MultiCoreMatmulTiling", "PlatformAscendC", "PlatformAscendCManager",
           "ScheduleType", "TilingError", "TilingWarning", "TPosition", "get_ascendc_platform"]
