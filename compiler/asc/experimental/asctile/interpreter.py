"""``asctile.interpreter``: upstream's numpy interpreter has no counterpart here; this engine is the interpreter.

In ``pyasc-dev`` this package holds a numpy interpreter: with ``ASCTILE_INTERPRET=1`` its front end checks
a kernel and the interpreter then runs the Python function block by block on numpy arrays, without CANN.
This engine always runs kernels without CANN: every launch goes through its own front end and its
simulator, with its checks and tick counts, whatever ``ASCTILE_INTERPRET`` says. There is no second mode
to switch on, so the names of upstream's interpreter (``interpreter_enabled``, ``InterpretedFunction``,
...) are not provided: asking for one raises an ``AttributeError`` that says so.
"""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"asctile.interpreter.{name}: this engine has no separate interpreter mode (every launch "
                         "runs on its simulator without CANN), so upstream's numpy interpreter is not provided")
