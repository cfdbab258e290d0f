"""``asc.inline(code, args=None, before_function=False)``: C++ pasted verbatim into the generated kernel source
(pyasc's ``emitasc.verbatim``), at the call or, with ``before_function``, ahead of the kernel function.

This engine runs no C++. What it can run exactly is code that does nothing where it stands: text ahead of
the function (declarations, macros, includes: reachable only from further verbatim code) and, in the body,
code that is only comments, blank lines and empty statements. Code in the body that would execute is
refused at its line, since running the kernel without it would compute something else."""
from __future__ import annotations

import re

from ..core.errors import error
from .names import NotSupportedByEngineError
from .tensors import _block

_NOTHING = re.compile(r"(\s|;|//[^\n]*|/\*.*?\*/)*", re.S)


def inline(code, args=None, before_function=False):
    _block()
    if not isinstance(code, str):
        raise error(TypeError, f"asc.inline takes the C++ code as a str, got {type(code).__name__}",
                    "pass the code as a string literal")
    if args is not None and not isinstance(args, (tuple, list)):
        raise error(TypeError, f"asc.inline: args must be a tuple of values, got {type(args).__name__}",
                    "pass args=(value, ...)")
    if before_function or _NOTHING.fullmatch(code):
        return
    first = code.strip().splitlines()[0]
    raise error(NotSupportedByEngineError,
                f"asc.inline: the verbatim C++ '{first[:60]}' would run here, and this engine runs no C++",
                "write the step with asc instructions (code ahead of the function, before_function=True, and "
                "comments are accepted), or run this kernel with a CANN toolkit and pyasc")
