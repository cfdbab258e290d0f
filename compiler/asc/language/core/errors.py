"""Errors a kernel author can cause. Each carries pyasc's message text plus a one-line fix hint."""


def error(exc_type, message, hint=None):
    """Build ``exc_type(message)`` carrying a fix hint (shown by the JIT's error report)."""
    exc = exc_type(message)
    exc.hint = hint
    return exc


class NotSupportedError(RuntimeError):
    """pyasc v2 fails on this construct with an internal crash; here it is a clear error instead."""


class BinaryOperandTypeError(TypeError):
    pass


def not_supported(what, hint=None):
    return error(NotSupportedError, f"{what} is not supported by pyasc v2", hint)
