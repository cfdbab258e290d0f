"""Compile errors pointing at the user's source: file, line, column, the lines around it, and a fix hint."""
from __future__ import annotations

import linecache


class CodegenError(Exception):
    """An error found while tracing a kernel (pyasc's ``CodegenError``)."""

    def __init__(self, message, file=None, line=None, col=None, cause=None, hint=None):
        self.raw_message = message
        self.file, self.line, self.col = file, line, col
        self.cause = cause
        self.hint = hint
        super().__init__(self._format())

    def _format(self):
        out = []
        if self.file and self.line:
            out.append(f"at {self.file}:{self.line}:{(self.col or 0) + 1}:")
            first = max(1, self.line - 3)
            for n in range(first, self.line + 4):
                src = linecache.getline(self.file, n)
                if not src and n > self.line:
                    break
                src = src.rstrip("\n")
                mark = ">" if n == self.line else " "
                out.append(f"  {mark} {n:4d} | {src}")
                if n == self.line:
                    out.append(f"         | {' ' * (self.col or 0)}^")
        if self.cause is not None:
            out.append(f"{type(self.cause).__name__}: {self.raw_message}")
        else:
            out.append(self.raw_message)
        if self.hint:
            out.append(f"hint: {self.hint}")
        return "\n".join(out)


def error_at(jit_fn, node, exc_type, message, hint):
    """The ``CodegenError`` of a source walk that stopped at ``node`` of ``jit_fn``'s body (a kernel or a
    ``@jit`` helper: its file, and its lines and indent within it)."""
    return CodegenError(message, jit_fn.source_file, jit_fn.first_line + node.lineno - 1,
                        node.col_offset + jit_fn.indent, exc_type(message), hint)


class UnsupportedSyntaxError(CodegenError):
    pass


class CompilationError(CodegenError):
    """A kernel that traces but breaks a hardware limit (capacity, placement)."""
