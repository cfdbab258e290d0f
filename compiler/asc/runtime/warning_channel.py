"""Every launch warning also goes through Python's ``warnings``, attributed to the user's file and line.

So Python's default rule shows each once per location (a kernel launched in a loop warns once), pytest
lists them in its summary, and ``-W error::asc.KernelWarning`` (or pytest's ``filterwarnings``) makes them
errors. The launch report keeps its list.
"""
from __future__ import annotations

import warnings

from ..ir.kernel_warnings import KernelWarning, LaunchWarning

_REGISTRIES = {}   # file -> the warnings registry of its locations, for files that are no kernel's module


def resolved(jit_fn, report_warnings):
    """The report's warnings as ``LaunchWarning`` records, each with a file and line (those without a line
    of their own, e.g. an output's coverage, at the kernel's ``def``)."""
    default = (jit_fn.source_file, jit_fn.first_line)
    out = []
    for w in report_warnings:
        if not isinstance(w, LaunchWarning):
            w = LaunchWarning(str(w))
        out.append(w.at(*default))
    return out


def issue(jit_fn, report_warnings):
    """Issue each warning through ``warnings.warn_explicit`` at its line, under its kind."""
    g = getattr(jit_fn.fn, "__globals__", None)
    for w in report_warnings:
        kind = w.kind if isinstance(w.kind, type) and issubclass(w.kind, KernelWarning) else KernelWarning
        own = g is not None and g.get("__file__") == w.file
        registry = g.setdefault("__warningregistry__", {}) if own else _REGISTRIES.setdefault(w.file, {})
        try:
            warnings.warn_explicit(kind(w.message), kind, w.file, w.line,
                                   module=g.get("__name__") if own else None, registry=registry,
                                   module_globals=g if own else None)
        except KernelWarning:   # a filter made it an error: the error names the line, as the report does
            raise kind(str(w)) from None


def record(w):
    """A warning as JSON data (``ASC_LAUNCH_REPORT`` lines): kind, file, line, message and the report's text."""
    return {"kind": w.kind.__name__, "file": w.file, "line": w.line, "message": w.message, "text": str(w)}
