"""``asc.lib.host``: pyasc's host-side tiling API (CANN's ``libtiling_api`` there) computed in Python here:
``MultiCoreMatmulTiling`` fills a ``TCubeTiling`` by the rule in ``tiling_rule`` (docs/simulator.md)."""
from __future__ import annotations

from .matmul_tiling import (BatchMatmulTiling, CubeFormat, DataType, MatmulApiTiling, MatrixTraverse,  # noqa: F401
                            MultiCoreMatmulTiling, PlatformAscendC, TilingError, TPosition, get_ascendc_platform)

__all__ = ["BatchMatmulTiling", "CubeFormat", "DataType", "MatmulApiTiling", "MatrixTraverse",
           "MultiCoreMatmulTiling", "PlatformAscendC", "TilingError", "TPosition", "get_ascendc_platform"]
