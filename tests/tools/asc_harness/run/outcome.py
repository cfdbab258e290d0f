"""A kernel run's outcome: the overall status and failure from per-case results, the category of a failed
plain-script run read from its output, and the shapes of failures and blank cases in a run result."""

from __future__ import annotations

import re
from typing import Any

OUTPUT_KEEP = 20000  # characters of a run's output kept in its result
_COMPILE_NAMES = ("CodegenError", "CompilationError", "UnsupportedSyntaxError", "SyntaxError",
                  "IndentationError", "TabError")
_EXC_LINE = re.compile(r"^(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w*(?:Error|Exception|Exit))\b:?\s*(.*)$")


def output_tail(text: str, limit: int = OUTPUT_KEEP) -> str:
    return text if len(text) <= limit else "[...]\n" + text[-limit:]


def make_failure(category: str, message: str) -> dict:
    return {"category": category, "message": message.strip() or category}


def blank_case(cid: str, shape: list, status: str, message: str | None = None, **kw: Any) -> dict:
    case = {"id": cid, "shape": list(shape or []), "status": status, "atol": kw.get("atol"),
            "rtol": kw.get("rtol"), "max_abs_err": None, "max_rel_err": None, "mismatches": None,
            "elements": None, "ticks": kw.get("ticks"), "wall_s": kw.get("wall_s")}
    if message:
        case["message"] = message
    return case


def signal_name(code: int | None) -> str:
    if code is None or code >= 0:
        return f"exit code {code}"
    import signal

    try:
        return f"signal {signal.Signals(-code).name}"
    except ValueError:
        return f"signal {-code}"


def summarize(cases: list[dict], error: dict | None = None) -> tuple[str, dict | None]:
    """Overall (status, failure) from per-case results and a run-level error."""
    if error is not None:
        return ("timeout" if error["category"] == "timeout" else "error"), error
    for status, category in (("timeout", "timeout"), ("error", None), ("fail", "numeric_mismatch")):
        for c in cases:
            if c["status"] == status:
                cat = category or c.get("category") or "runtime_error"
                msg = f"case {c['id']}: {c.get('message') or status}"
                return status, make_failure(cat, msg)
    if any(c["status"] == "pass" for c in cases):
        return "pass", None
    return "skipped", None


def classify_output(text: str) -> tuple[str, str]:
    """(category, one-line summary) for a failed plain-script run, from its stderr/stdout."""
    if "Runtime library is not available" in text:
        return "infrastructure", "Runtime library is not available (simulator libraries not found)"
    last = None
    for line in reversed(text.splitlines()):
        m = _EXC_LINE.match(line.strip())
        if m:
            last = (m.group(1), line.strip())
            break
    if last is None:
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        return "runtime_error", (lines[-1] if lines else "no output")
    name, line = last
    if any(n in name for n in _COMPILE_NAMES):
        return "compile_error", line
    if name == "MemoryError":
        return "memory", line
    if name == "AssertionError":
        return "numeric_mismatch", line
    if name in ("ModuleNotFoundError", "ImportError") and re.search(r"No module named '(asc|asc2|torch|numpy)'", line):
        return "infrastructure", line
    return "runtime_error", line
