"""pyasc-dev's wording of the front-end errors an August kernel can meet.

The op definitions keep one message each, in the April texts of ``asc2-api.md`` (pyasc 7065cd7); pyasc's
August front end (``asc.experimental.asctile``) words the same mistakes differently: its tiles are
"tensors" (``LocalTensor``), global tensors are ``GlobalTensor``, type errors name the argument and the
bare class name (``'src' argument must be LocalTensor, got int``). ``august_text`` rewrites a message
into that wording; ``errors.error`` applies it while an August kernel is traced, so April kernels keep
their texts and August kernels get pyasc-dev's (the conformance runner checks that its text is
contained in ours). Where pyasc-dev's text states facts the April one does not (the shapes of a
reshape, the dtype softmax refused, the arguments ``.to()`` was given), the op passes them to ``error``
as keyword facts and the rule builds the text from them; a rule whose facts are missing does not apply.
"""
from __future__ import annotations

import re
from math import prod

_CLASS = r"<class '(?:[\w.]+\.)?(\w+)'>"
_CLASS_NAMES = {"Tile": "LocalTensor", "Tensor": "GlobalTensor"}
# The argument names pyasc-dev's functions use where this engine's say "tile".
_ARG_NAMES = {"tile": "src"}


def _cls(name):
    return _CLASS_NAMES.get(name, name)


# Class names as pyasc-dev's overload dispatcher prints the types of the arguments it was given.
_DISPATCH_NAMES = {**_CLASS_NAMES, "Location": "TensorLocation", "RoundMode": "asctile_RoundMode"}


def _type_names(values):
    return [_DISPATCH_NAMES.get(type(v).__name__, type(v).__name__) for v in values]


def _type_error(m):
    arg, expected, got = m.group(1), m.group(2), m.group(3)
    return f"'{_ARG_NAMES.get(arg, arg)}' argument must be {_cls(expected)}, got {_cls(got)}"


def _reshape(m, f):
    shape, new = tuple(f["shape"]), tuple(f["new_shape"])
    return (f"Reshaping tensor of shape {shape} with {prod(shape)} elements not match output shape {new} with "
            f"{prod(new)} elements")


def _tensor_to(m, f):
    """pyasc-dev's ``OverloadDispatcher`` text for a ``LocalTensor.to(...)`` call no overload takes."""
    args = ", ".join(_type_names(f["args"]))
    kwargs = ", ".join(f"{k}: {n}" for k, n in zip(f["kwargs"], _type_names(f["kwargs"].values())))
    return ("No viable candidates were found to dispatch asctile.LocalTensor.to()\n"
            f"Provided arguments:\n  (..., {args}, {kwargs})\n"
            "Registered candidates:\n"
            "  1. def asctile.LocalTensor.to(..., dtype: DataType, round_mode: asctile_RoundMode = "
            "<asctile_RoundMode.Default: 100>) -> Optional[Any]: ...\n"
            "  2. def asctile.LocalTensor.to(..., location: Union[TensorLocation, str]) -> Optional[Any]: ...")


def _matmul_operands(m):
    first, second = m.group(1), m.group(2)
    if first != "Tile":
        return f"'input' argument must be LocalTensor, got {_cls(first)}"
    return f"'other' argument must be LocalTensor, got {_cls(second)}"


def _shape(text):
    return "(" + ", ".join(x.strip() for x in text.split(",")) + (",)" if "," not in text else ")")


# (pattern, replacement, exception type pyasc raises or None to keep ours[, facts the replacement needs]);
# a replacement that needs facts is called with the match and the facts.
_RULES = [
    (re.compile(r"^At least one operand must be tile, got"), "At least one operand must be tensor, got", None),
    (re.compile(r"^Input tiles (must have the same types|must have two dims|have incompatible shapes)"),
     r"Input tensors \1", None),
    (re.compile(r"^Input tiles have unsupported types: (\w+)$"),
     r"'input' dtype must be one of float16, bfloat16, float32, got \1", None),
    (re.compile(rf"^Input operands must be tiles, got {_CLASS} and {_CLASS}$"), _matmul_operands, TypeError),
    (re.compile(r"^Accumulation tile must have two dims"), "Accumulation tensor must have two dims", None),
    (re.compile(r"^Cannot broadcast tile with shape \[([^\]]*)\] to \[([^\]]*)\]"),
     lambda m: f"Cannot broadcast tensor with shape {_shape(m.group(1))} to {_shape(m.group(2))}", None),
    (re.compile(r"^All input arguments must be tiles$"), "All input arguments must be tensors", TypeError),
    (re.compile(rf"^'(\w+)' argument(?: of \w+)? must be (?:an? )?(\w+), got {_CLASS}$"), _type_error, None),
    # pyasc casts a cube operand to L0A / L0B / BT and its FulfillDataTransfer pass rejects a pair it has no path for.
    (re.compile(r"^@matmul (?:\(left operand\)|\(right operand\)|bias) expects a tile in (\w+), got a tile in (\w+)$"),
     r"Direct data transfer from \2 to \1 is not supported. Please call copy() with explicit locations to fulfill "
     r"the requested data flow.", None),
    (re.compile(r"^reduction dimension -?\d+ is out of range for a rank-(\d+) tile$"),
     lambda m: f"All reduction dimensions must be between 0 and {int(m.group(1)) - 1}", RuntimeError),
    (re.compile(r"^Accumulation tile have unsupported types: (\w+)$"), r"'acc' dtype must be float32, got \1", None),
    (re.compile(r"^Result tile must have the same number of elements as input tile$"), _reshape, None,
     ("shape", "new_shape")),
    # softmax / rms_norm: pyasc-dev's check_dtype of the input
    (re.compile(r"^Only float and half types are supported\.$"),
     lambda m, f: f"'{f['name']}' dtype must be one of float16, float32, got {f['dtype']}", None, ("name", "dtype")),
    (re.compile(r"^Tile\.to expects an asc dtype.*$", re.S), _tensor_to, RuntimeError, ("args", "kwargs")),
    # a vector operand pyasc-dev casts to UB from a location its FulfillDataTransfer pass has no path from
    (re.compile(r"^.+ expects a tile in UB, got a tile in \w+$"),
     lambda m, f: f"Direct data transfer from {f['source']} to UB is not supported. Please call copy() with "
                  "explicit locations to fulfill the requested data flow.", None, ("source",)),
    # pyasc-dev turns a location string into its TensorLocation enum, which rejects an unknown name
    (re.compile(r"^'location' must be an [\w.]+, got '(.*)'$"),
     r"\1 does not match a valid TensorLocation name", ValueError),
]


def august_text(exc_type, message, facts=None):
    """``(exc_type, message)`` as pyasc-dev words it (both unchanged when no rule applies); ``facts`` are
    what the op knows beyond its message (keyword arguments of ``errors.error``)."""
    facts = facts or {}
    for pattern, replacement, exc, *needs in _RULES:
        if needs:
            if not all(k in facts for k in needs[0]):
                continue
            replacement = (lambda fn: lambda m: fn(m, facts))(replacement)
        text, n = pattern.subn(replacement, message, count=1)
        if n:
            return exc if exc is not None and issubclass(exc, Exception) and _compatible(exc_type, exc) else exc_type, text
    return exc_type, message


def _compatible(ours, theirs):
    """Keep our class when it already is (a subclass of) pyasc's, e.g. BinaryOperandTypeError for TypeError."""
    return not issubclass(ours, theirs)
