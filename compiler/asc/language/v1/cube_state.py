"""The cube's mode registers ``mmad`` reads: HF32 (float32 operands rounded to 11 mantissa bits before the
products; ``set_hf32_trans_mode`` picks toward zero or to nearest even) and the M / N order the cube
produces its result fractals in (``set_mm_layout_transform``). Each setter is the scalar unit writing a
control register, so it applies to the mmads issued after it in program order, per block."""
from __future__ import annotations

from ..core.errors import error
from .tensors import _block

_DEFAULT = {"hf32": False, "hf32_toward_zero": False, "n_first": False}


def _flag(name, value):
    if not isinstance(value, (bool, int)) or int(value) not in (0, 1):
        raise error(TypeError, f"{name} takes a bool, got {value!r}", f"pass True or False to asc.{name}")
    return bool(value)


def _state():
    return _block().__dict__.setdefault("cube_modes", dict(_DEFAULT))


def set_hf32_mode(hf32_mode):
    """``SetHF32Mode``: True rounds float32 L0A / L0B operands of later mmads to HF32."""
    _state()["hf32"] = _flag("set_hf32_mode", hf32_mode)


def set_hf32_trans_mode(trans_mode):
    """``SetHF32TransMode``: HF32 rounding toward zero (True) or to nearest even (False, the reset value);
    only read while HF32 mode is on."""
    _state()["hf32_toward_zero"] = _flag("set_hf32_trans_mode", trans_mode)


def set_mm_layout_transform(mm_layout_mode):
    """``SetMMLayoutTransform``: the cube walks N first, then M (True) or M first (False). The order the
    result fractals are produced in; each fractal's values, and so the result, are the same."""
    _state()["n_first"] = _flag("set_mm_layout_transform", mm_layout_mode)


def mmad_modes():
    """What a mmad issued now reads: ``hf32`` None (off), "toward_zero" or "nearest_even"; ``n_first``."""
    s = _state()
    rounding = None if not s["hf32"] else "toward_zero" if s["hf32_toward_zero"] else "nearest_even"
    return {"hf32": rounding, "n_first": s["n_first"]}


EXPORTS = ["set_hf32_mode", "set_hf32_trans_mode", "set_mm_layout_transform"]
