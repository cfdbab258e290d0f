"""Errors a kernel author can cause. Each carries pyasc's message text plus a one-line fix hint."""


from ...ir.builder import localise, tracing_august
from .august_texts import august_text


def error(exc_type, message, hint=None, **facts):
    """Build ``exc_type(message)`` carrying a fix hint (shown by the JIT's error report). ``@name`` in
    either text is the public name ``name`` spelled in the kernel's dialect (``ir.builder.localise``); an
    August kernel gets pyasc-dev's wording of the message (``august_texts``), built from ``facts`` where
    pyasc-dev's text says more than the message."""
    if tracing_august():
        exc_type, message = august_text(exc_type, message, facts)
    exc = exc_type(localise(message))
    exc.hint = localise(hint)
    return exc


class NotSupportedError(RuntimeError):
    """pyasc v2 fails on this construct with an internal crash; here it is a clear error instead."""


class BinaryOperandTypeError(TypeError):
    pass


def not_supported(what, hint=None):
    return error(NotSupportedError, f"{what} is not supported by pyasc v2", hint)
