"""Dashboard formatting helpers shared by the data and the rendering: times, numbers, slugs."""

from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Any

# Column order for dtypes; unknown dtypes follow, alphabetically.
_DTYPE_ORDER = (
    "float16", "bfloat16", "float32", "float64",
    "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "bool",
)


def _jsonable(value: Any) -> Any:
    """Convert YAML-loaded values (dates, tuples) to JSON-compatible ones."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    return value


def _to_utc(value: _dt.datetime) -> _dt.datetime:
    if value.tzinfo is None:
        return value.replace(tzinfo=_dt.timezone.utc)
    return value.astimezone(_dt.timezone.utc)


def _parse_time(text: Any) -> _dt.datetime | None:
    if isinstance(text, _dt.datetime):
        return _to_utc(text)
    if not isinstance(text, str) or not text.strip():
        return None
    s = text.strip()
    if s.endswith("Z") or s.endswith("z"):
        s = s[:-1] + "+00:00"
    try:
        return _to_utc(_dt.datetime.fromisoformat(s))
    except ValueError:
        return None


def _iso(value: _dt.datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def age_label(seconds: float | None) -> str:
    """Compact human label for an age in seconds: ``"5m"``, ``"3h"``, ``"12d"``."""
    if seconds is None:
        return "never"
    if seconds < -300:
        return "in the future"
    if seconds < 60:  # includes a few minutes of clock skew
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)}m"
    if seconds < 48 * 3600:
        return f"{int(seconds // 3600)}h"
    return f"{int(seconds // 86400)}d"


def cell_slug(cell_id: str) -> str:
    """File-name-safe slug for a cell id (``abs/float16/P`` -> ``abs--float16--P``)."""
    parts = [re.sub(r"[^A-Za-z0-9._-]+", "_", p).strip(".") or "_" for p in str(cell_id).split("/")]
    return "--".join(parts)


def _num(value: Any) -> float | int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and math.isfinite(value):
        return value
    return None


def format_ticks(value: Any) -> str:
    v = _num(value)
    if v is None:
        return "—"
    v = float(v)
    if abs(v) >= 1e9:
        return f"{v / 1e9:.3g}G"
    if abs(v) >= 1e6:
        return f"{v / 1e6:.3g}M"
    if abs(v) >= 1e4:
        return f"{v / 1e3:.3g}k"
    return f"{v:,.0f}"


def format_err(value: Any) -> str:
    v = _num(value)
    if v is None:
        return "—"
    if v == 0:
        return "0"
    return f"{v:.3g}"


def _dtype_key(dtype: str) -> tuple[int, str]:
    try:
        return (_DTYPE_ORDER.index(dtype), dtype)
    except ValueError:
        return (len(_DTYPE_ORDER), dtype)



