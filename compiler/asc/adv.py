"""``asc.adv``: pyasc's advanced v1 APIs this engine runs (``softmax``, ``quant``, ``Matmul`` with its
``TCubeTiling``); the others fail with a clear message."""
from __future__ import annotations

from .language.v1.adv import QuantConfig, SoftmaxTiling, quant, softmax  # noqa: F401
from .language.v1.adv_math import (acos, acosh, asin, asinh, atan, atanh, axpy, ceil, cos, cosh,  # noqa: F401
                                  digamma, erf, erfc, exp, floor, frac, lgamma, log, power, round, sign, sin,
                                  sinh, tan, tanh, trunc, xor)
from .language.v1.matmul import Matmul, register_matmul  # noqa: F401
from .language.v1.matmul_types import MatmulType, TCubeTiling  # noqa: F401
from .language.v1.matmul_config import (MatmulApiStaticTiling, MatmulBatchParams, MatmulConfig,  # noqa: F401
                                        MatmulFuncParams, MatmulQuantParams, MatmulShapeParams, get_basic_config,
                                        get_ib_share_norm_config, get_matmul_api_tiling, get_mdl_config,
                                        get_mm_config, get_normal_config, get_special_basic_config,
                                        get_special_mdl_config)
from .language.v1.adv_ops import (RmsNormTiling, SoftMaxShapeInfo, SoftmaxConfig, concat, extract,  # noqa: F401
                                  rmsnorm, softmax_flash_v2, swiglu)
from .language.v1.names import UPSTREAM_ADV_NAMES, not_supported


def __getattr__(name):
    if name in UPSTREAM_ADV_NAMES:
        raise not_supported(f"asc.adv.{name}")
    raise AttributeError(f"module 'asc.adv' has no attribute '{name}'")
