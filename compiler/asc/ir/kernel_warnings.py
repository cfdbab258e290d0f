"""Launch warnings: what a launch finds that is no error on the device but is almost always a bug.

Each kind is a ``warnings`` category of its own under ``KernelWarning`` (``asc.KernelWarning``), so users
filter them the ordinary way (``python -W error::asc.KernelWarning``, pytest's ``filterwarnings``). Each
warning is made at its source as a ``LaunchWarning``: the text the launch report lists (``file:line:col:
message``, a ``str`` as the report has always held) carrying its kind and the user's file and line, from
which the launcher issues it through ``warnings.warn_explicit`` (``runtime/warning_channel.py``).
"""
from __future__ import annotations

import os


class KernelWarning(UserWarning):
    """Something a launch did that the device allows but that is almost always a bug."""
    hint = ""   # (turned into an error by a warnings filter, it leaves the launch as a user error)


class UninitializedReadWarning(KernelWarning):
    """An op reads elements nothing defined: a load's tail without pad_value, an ``empty`` tile, an
    accumulator no matmul wrote, an output argument no block wrote yet, on-chip bytes no v1 instruction wrote."""


class UndefinedStoreWarning(UninitializedReadWarning):
    """A store (or scatter) writes elements no load or computation defined into a tensor."""


class UncoveredOutputWarning(KernelWarning):
    """An argument the kernel writes (and never reads) has elements no block wrote."""


class PastEndWarning(KernelWarning):
    """An access past the end of a tensor that the platform lets through (it writes or reads nothing)."""


class FlagWarning(KernelWarning):
    """A v1 ``set_flag`` never waited for, or set again while still set (a lost signal)."""


class DmaOrderWarning(KernelWarning):
    """Two v1 copies of one DMA pipe write the same bytes with nothing ordering them (they may complete
    out of order)."""


class NonFiniteScalarWarning(KernelWarning):
    """Scalar code turned finite operands into inf / nan."""


class LiteralConversionWarning(KernelWarning):
    """A float literal meets an integer scalar and is converted to an integer, as pyasc converts it."""


class ParallelCarryWarning(KernelWarning):
    """An April ``parallel=True`` loop carries a value from one iteration to the next."""


class UnmodelledHardwareWarning(KernelWarning):
    """The hardware does something here the simulator does not reproduce (a store under a mask writes the
    whole tile, scalar stores of blocks sharing a 32-byte block clobber each other)."""


KINDS = (KernelWarning, UninitializedReadWarning, UndefinedStoreWarning, UncoveredOutputWarning, PastEndWarning,
         FlagWarning, DmaOrderWarning, NonFiniteScalarWarning, LiteralConversionWarning, ParallelCarryWarning,
         UnmodelledHardwareWarning)
for _k in KINDS:
    _k.__module__ = "asc"   # (as users name them: asc.KernelWarning)
_OPTION_NAMES = {f"asc.{k.__name__}" for k in KINDS}


class LaunchWarning(str):
    """A launch-report warning: its text (``file:line:col: message`` where it has a line), with ``kind`` (a
    ``KernelWarning`` class), ``file`` / ``line`` (the user's source line the warning is issued at; None:
    not yet known, the launcher puts it at the kernel's definition) and ``message`` (the text without the
    location, as ``warnings`` prints it after the location)."""

    def __new__(cls, text, kind=KernelWarning, file=None, line=None, message=None):
        self = super().__new__(cls, text)
        self.kind, self.file, self.line = kind, file, line
        self.message = text if message is None else message
        return self

    def __reduce__(self):
        return LaunchWarning, (str(self), self.kind, self.file, self.line, self.message)

    def at(self, file, line):
        """This warning issued at ``file:line`` when it names no line of its own."""
        return self if self.file is not None else LaunchWarning(str(self), self.kind, file, line, self.message)


def located(loc, message, kind=KernelWarning):
    """The warning ``message`` at ``loc``: a ``SourceLoc`` (file, line, col), a (file, line) pair (v1: the
    text names the file by its base name), or None."""
    if loc is None:
        return LaunchWarning(message, kind, message=message)
    if hasattr(loc, "col"):
        return LaunchWarning(f"{loc}: {message}", kind, loc.file, loc.line, message)
    return LaunchWarning(f"{os.path.basename(loc[0])}:{loc[1]}: {message}", kind, loc[0], loc[1], message)


def apply_startup_options(options):
    """Install the ``-W`` / ``PYTHONWARNINGS`` options that name these categories (``error::asc.KernelWarning``).
    Python reads those options before site-packages are on its path, so it cannot import ``asc`` then and
    ignores them (saying so on stderr); ``asc`` applies them when it is imported, in their order."""
    import warnings
    setoption = getattr(warnings, "_setoption", None)
    for arg in options:
        parts = arg.split(":")
        if setoption is None or len(parts) < 3 or parts[2].strip() not in _OPTION_NAMES:
            continue
        try:
            setoption(arg)
        except Exception:   # (warnings._OptionError: Python reported it already)
            pass
