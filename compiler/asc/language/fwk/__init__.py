"""``asc.language.fwk``: pyasc's framework objects, where upstream code imports them from."""
from ..v1.fwk import TBuf, TBufPool, TPipe, TQue, TQueBind, get_tpipe_ptr  # noqa: F401

__all__ = ["TBuf", "TBufPool", "TPipe", "TQue", "TQueBind", "get_tpipe_ptr"]
