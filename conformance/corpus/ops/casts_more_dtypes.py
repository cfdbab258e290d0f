"""Casts to float_ (float32) and float16 with RoundMode's Default / Odd / NoRound."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def casts(x_ptr, f_ptr, h_ptr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    asctile.copy_out(x.to(asctile.float_, asctile.RoundMode.Default), asctile.global_tensor(f_ptr, [1, 64]), [0, 0])
    h = asctile.global_tensor(h_ptr, [2, 64])
    asctile.copy_out(asctile.cast(x, asctile.float16, asctile.RoundMode.Odd), h, [0, 0])
    asctile.copy_out(asctile.cast(x.to(asctile.float16), asctile.float16, asctile.RoundMode.NoRound), h, [1, 0])


def run():
    x = (np.arange(64, dtype=np.float32) - 32).reshape(1, 64)
    f, h = np.zeros((1, 64), np.float32), np.zeros((2, 64), np.float16)
    casts[1](x, f, h)
    return {"f": f, "h": h}
