"""Names of pyasc's v1 API this engine does not implement (yet): using one fails with a clear message."""
from __future__ import annotations

from ..core.errors import error

UPSTREAM_NAMES = frozenset("""
AippChannelPaddingParams AippColorSpaceConvParams AippDataTypeConvParams AippPaddingParams AippParams
AippSingleLineParams AippSwapParams   
load_image_to_local LoadImageToLocalParams  
   set_aipp_functions  
  
""".split())

UPSTREAM_ADV_NAMES = frozenset()     # every name of upstream's asc.adv __all__ is implemented


class NotSupportedByEngineError(AttributeError):
    """A pyasc v1 name this engine does not implement."""


def not_supported(qualified):
    from ...ir.pipe_ops import user_loc
    loc = user_loc()
    where = f"{loc[0]}:{loc[1]}: " if loc else ""
    return error(NotSupportedByEngineError, f"{where}{qualified} is not supported by this engine",
                 "the embedded engine runs pyasc's vector API (docs/simulator.md lists what is implemented); "
                 "run this kernel with a CANN toolkit and pyasc")
