"""Errors about user code show the user's frames and the message, not the engine's internals.

At the public entry points (``kernel[n](...)``, ``kernel.ir(...)``) an error the engine raises about the
kernel or its arguments (a trace-time error, a simulated fault, any error carrying a fix hint) is
re-raised without the engine's frames, its fix hint shown below the message; an uncaught one is printed
without the entry point's own frame either. ``ASC_DEBUG=1`` keeps every frame (for working on the engine
itself). Errors without a hint are engine bugs and keep their full traceback.
"""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

_PACKAGE = str(Path(__file__).resolve().parents[1])   # .../asc


def debugging() -> bool:
    return os.environ.get("ASC_DEBUG", "").strip() not in ("", "0")


def is_user_error(exc) -> bool:
    from ..frontend.errors import CodegenError
    from ..sim.executor import KernelRuntimeError
    return isinstance(exc, (CodegenError, KernelRuntimeError)) or getattr(exc, "hint", None) is not None


def user_entry(fn):
    """Decorate a public entry point: user errors leave it without the engine's frames."""
    @functools.wraps(fn)
    def entry(*args, **kwargs):
        __tracebackhide__ = True  # noqa: F841  (pytest hides this frame)
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            if debugging() or not is_user_error(e):
                raise
            e.__asc_user_error__ = True
            show_hint(e)
            raise e.with_traceback(None) from None
    return entry


def show_hint(exc):
    """Print an error's fix hint below its message (a note) when the message does not carry it already."""
    hint = getattr(exc, "hint", None)
    if hint and f"hint: {hint}" not in str(exc) and f"hint: {hint}" not in getattr(exc, "__notes__", ()):
        exc.add_note(f"hint: {hint}")


def _internal(tb):
    return tb.tb_frame.f_code.co_filename.startswith(_PACKAGE)


def trimmed(tb):
    """The traceback without the engine's frames (the user's frames in order)."""
    frames = []
    while tb is not None:
        if not _internal(tb):
            frames.append(tb)
        tb = tb.tb_next
    out = None
    for t in reversed(frames):
        out = type(t)(out, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return out


def _excepthook(prev):
    def hook(exc_type, exc, tb):
        if getattr(exc, "__asc_user_error__", False) and not debugging():
            tb = trimmed(tb)
            exc = exc.with_traceback(tb)
        prev(exc_type, exc, tb)
        if getattr(exc, "footprint", None) is not None:   # a launch too large for the machine's memory
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(2)                                    # (the harness's code for a resource limit)
    hook.__asc_hook__ = True
    return hook


def install_excepthook():
    """Print uncaught user errors without the entry point's frame (only over Python's default hook, so
    IPython, pytest and other tools keep theirs)."""
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = _excepthook(sys.excepthook)
