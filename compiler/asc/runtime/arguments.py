"""Kernel arguments: the signature with its annotations resolved, and the kind (pointer / scalar) and
dtype of each runtime argument, typed from its value as pyasc does."""
from __future__ import annotations

import inspect

import numpy as np

from ..language.core import dtype as dt
from ..language.core.errors import error
from .dependencies import namespace


def arg_kind(name, value):
    """('ptr' | 'scalar', DataType) of a runtime argument, typed from its value as pyasc does."""
    if isinstance(value, bool):
        return "scalar", dt.int8
    if isinstance(value, int):
        if not -2**31 <= value < 2**31:
            raise error(OverflowError, f"argument '{name}' = {value} does not fit the int32 scalar it is passed as",
                        "pass a numpy scalar of a wider type (e.g. np.int64(...)) or split the value")
        return "scalar", dt.int32
    if isinstance(value, float):
        return "scalar", dt.float32
    if isinstance(value, np.ndarray):
        d = dt.from_host(value.dtype)
        if d.kind == "Any":
            raise error(TypeError, f"argument '{name}': arrays of {value.dtype} are not supported",
                        "pass int8 / int16 / int32 / float16 / bfloat16 / float32 data")
        return "ptr", d
    if isinstance(value, np.generic):
        return "scalar", dt.from_host(value.dtype)
    mod = type(value).__module__
    if mod.startswith("torch"):
        import torch
        if isinstance(value, torch.Tensor):
            d = dt.from_host(value.dtype)
            if d.kind == "Any":
                raise error(TypeError, f"argument '{name}': tensors of {value.dtype} are not supported",
                            "pass int8 / int16 / int32 / float16 / bfloat16 / float32 data")
            if value.device.type != "cpu":
                raise error(TypeError, f"argument '{name}' lives on {value.device}; the simulator reads CPU tensors",
                            "move it with .cpu() before launching")
            return ("scalar" if value.dim() == 0 else "ptr"), d
    raise error(TypeError, f"Argument type in JIT function is not supported: {type(value).__name__}",
                "pass numpy arrays / torch tensors for data, ints / floats / bools for scalars, and annotate "
                "compile-time parameters (tuples, shapes, dtypes) with asc.ConstExpr")


def resolved_signature(fn):
    """The signature with string annotations (``from __future__ import annotations``) evaluated."""
    sig = inspect.signature(fn)
    params = []
    for p in sig.parameters.values():
        ann = p.annotation
        if isinstance(ann, str):
            try:
                ann = eval(ann, fn.__globals__, namespace(fn))  # noqa: S307 - the kernel's own annotation text
            except Exception:  # noqa: BLE001 - an unresolvable annotation is ignored, as for runtime params
                ann = inspect.Parameter.empty
        params.append(p.replace(annotation=ann))
    return sig.replace(parameters=params)


class MockTensor:
    """pyasc's stand-in for a GM argument known only by its element type: a v1 kernel launched with it runs
    over a GM argument of no elements (its copies read zeros and write nowhere, each a past-the-end warning)."""

    def __init__(self, dtype):
        self.dtype = dtype


class MockValue:
    """pyasc's stand-in for a scalar argument known only by its type: the kernel sees 0 of that type."""

    def __init__(self, dtype):
        self.dtype = dtype

