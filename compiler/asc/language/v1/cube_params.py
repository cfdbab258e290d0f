"""Parameter records and enums of the cube instructions (``load_data``, ``mmad``, ``fixpipe``, the ND -> NZ
``data_copy``, ``init_const_value``), with pyasc's field names and defaults. Units are the hardware's: a
fractal is 512 bytes, a data block 32 bytes."""
from __future__ import annotations

import enum
from dataclasses import dataclass


class QuantModes(enum.IntEnum):
    NoQuant = 0
    F322F16 = 1
    F322BF16 = 2
    DEQF16 = 3
    VDEQF16 = 4
    QF322B8_PRE = 5
    VQF322B8_PRE = 6
    REQ8 = 7
    VREQ8 = 8


class CO2Layout(enum.IntEnum):
    NZ = 0
    ROW_MAJOR = 1
    COLUMN_MAJOR = 2


class FixpipeConfig:
    """``FixpipeConfig(layout)``: what ``fixpipe`` writes to GM (``cfg_row_major``: ND, ``cfg_nz``: NZ)."""

    def __init__(self, layout=CO2Layout.ROW_MAJOR):
        self.layout = CO2Layout(layout)

    @classmethod
    def cfg_row_major(cls):
        return cls(CO2Layout.ROW_MAJOR)

    @classmethod
    def cfg_nz(cls):
        return cls(CO2Layout.NZ)


@dataclass
class LoadData2DParams:
    start_index: int = 0
    repeat_times: int = 1
    src_stride: int = 0
    sid: int = 0
    dst_gap: int = 0
    if_transpose: bool = False
    addr_mode: int = 0


@dataclass
class LoadData2dTransposeParams:
    start_index: int = 0
    repeat_times: int = 1
    src_stride: int = 0
    dst_gap: int = 0
    dst_frac_gap: int = 0
    addr_mode: int = 0


@dataclass
class LoadDataRepeatParam:
    repeat_time: int = 1
    repeat_stride: int = 0
    repeat_mode: int = 0


class MmadParams:
    """``MmadParams(m, n, k, is_bias, fm_offset, en_ssparse, en_winograd_a, en_winograd_b)`` or, upstream's
    second form, ``MmadParams(m, n, k, unit_flag, cmatrix_source, cmatrix_init_val)`` (told apart as pyasc
    does: by the keywords given, or positionally by an int fourth argument)."""
    _FIRST = ("m", "n", "k", "is_bias", "fm_offset", "en_ssparse", "en_winograd_a", "en_winograd_b")
    _SECOND = ("m", "n", "k", "unit_flag", "cmatrix_source", "cmatrix_init_val")

    def __init__(self, *args, **kwargs):
        self.m = self.n = self.k = self.fm_offset = self.unit_flag = 0
        self.is_bias = self.en_ssparse = self.en_winograd_a = self.en_winograd_b = self.cmatrix_source = False
        self.cmatrix_init_val = True
        second = bool(set(kwargs) & {"unit_flag", "cmatrix_source", "cmatrix_init_val"}) or (
            len(args) > 3 and not isinstance(args[3], bool))
        names = self._SECOND if second else self._FIRST
        if len(args) > len(names):
            raise TypeError(f"MmadParams takes at most {len(names)} positional arguments")
        for name, v in list(zip(names, args)) + list(kwargs.items()):
            if name not in self._FIRST + self._SECOND:
                raise TypeError(f"MmadParams has no field {name!r}")
            setattr(self, name, v)
        if self.is_bias:            # the deprecated field: accumulate onto CO1
            self.cmatrix_init_val = False

    def __repr__(self):
        return (f"MmadParams(m={self.m}, n={self.n}, k={self.k}, cmatrix_init_val={self.cmatrix_init_val}, "
                f"cmatrix_source={self.cmatrix_source}, unit_flag={self.unit_flag})")


@dataclass
class FixpipeParamsV220:
    n_size: int = 0
    m_size: int = 0
    src_stride: int = 0
    dst_stride: int = 0
    quant_pre: QuantModes = QuantModes.NoQuant
    deq_scalar: int = 0
    nd_num: int = 1
    src_nd_stride: int = 0
    dst_nd_stride: int = 0
    relu_en: bool = False
    unit_flag: int = 0
    is_channel_split: bool = False


@dataclass
class Nd2NzParams:
    nd_num: int = 1
    n_value: int = 0
    d_value: int = 0
    src_nd_matrix_stride: int = 0
    src_d_value: int = 0
    dst_nz_c0_stride: int = 0
    dst_nz_n_stride: int = 0
    dst_nz_matrix_stride: int = 0


@dataclass
class InitConstValueParams:
    repeat_times: int = 0
    block_num: int = 0
    dst_gap: int = 0
    init_value: object = 0


__all__ = ["QuantModes", "CO2Layout", "FixpipeConfig", "LoadData2DParams", "LoadData2dTransposeParams",
           "LoadDataRepeatParam", "MmadParams", "FixpipeParamsV220", "Nd2NzParams", "InitConstValueParams"]


@dataclass
class LoadData2dTransposeParamsV2:
    start_index: int = 0
    repeat_times: int = 0
    src_stride: int = 0
    dst_gap: int = 0
    dst_frac_gap: int = 0
    src_frac_gap: int = 0
    addr_mode: int = 0


@dataclass
class LoadData3DParamsV2:
    pad_list: tuple = (0, 0, 0, 0)
    l1_h: int = 1
    l1_w: int = 1
    channel_size: int = 1
    k_extension: int = 1
    m_extension: int = 1
    k_start_pt: int = 0
    m_start_pt: int = 0
    stride_w: int = 1
    stride_h: int = 1
    filter_w: int = 1
    filter_h: int = 1
    dilation_filter_w: int = 1
    dilation_filter_h: int = 1
    en_transpose: bool = False
    pad_value: int = 0
    filter_size_w: bool = False
    filter_size_h: bool = False
    f_matrix_ctrl: bool = False



@dataclass
class LoadData3DParamsV1:
    """The first im2col form's record (``load_data`` refuses it on this engine; LoadData3DParamsV2 runs)."""
    pad_list: tuple = (0, 0, 0, 0)
    l1_h: int = 1
    l1_w: int = 1
    c1_index: int = 0
    fetch_filter_w: int = 0
    fetch_filter_h: int = 0
    left_top_w: int = 0
    left_top_h: int = 0
    stride_w: int = 1
    stride_h: int = 1
    filter_w: int = 1
    filter_h: int = 1
    dilation_filter_w: int = 1
    dilation_filter_h: int = 1
    jump_stride: int = 1
    repeat_mode: int = 0
    repeat_time: int = 1
    c_size: int = 0
    pad_value: int = 0


@dataclass
class LoadData3DParamsV2Pro:
    """The packed im2col record (``load_data`` refuses it on this engine; LoadData3DParamsV2 runs)."""
    channel_size: int = 0
    en_transpose: bool = False
    en_small_k: bool = False
    filter_size_w: bool = False
    filter_size_h: bool = False
    f_matrix_ctrl: bool = False
    ext_config: int = 0
    filter_config: int = 0x10101010101


@dataclass
class DataCopyCO12DstParams:
    n_size: int = 0
    m_size: int = 0
    dst_stride: int = 0
    src_stride: int = 0
    quant_pre: QuantModes = QuantModes.NoQuant
    relu_pre: int = 0
    channel_split: bool = False
    nz2nd_en: bool = False


@dataclass
class Nz2NdParamsFull:
    nd_num: int = 1
    n_value: int = 0
    d_value: int = 0
    src_nd_matrix_stride: int = 0
    src_n_stride: int = 0
    dst_d_stride: int = 0
    dst_nd_matrix_stride: int = 0


__all__ += ["LoadData2dTransposeParamsV2", "LoadData3DParamsV2", "LoadData3DParamsV1", "LoadData3DParamsV2Pro",
            "DataCopyCO12DstParams", "Nz2NdParamsFull"]


@dataclass
class LoadData2DParamsV2:
    m_start_position: int = 0
    k_start_position: int = 0
    m_step: int = 0
    k_step: int = 0
    src_stride: int = 0
    dst_stride: int = 0
    if_transpose: bool = False
    sid: int = 0


__all__ += ["LoadData2DParamsV2"]
