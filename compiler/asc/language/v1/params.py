"""Parameter records of v1 instructions (all lengths and strides in 32-byte blocks unless noted)."""
from __future__ import annotations

from dataclasses import dataclass

from .enums import BlockMode, DeqScale, pad_t

DATA_COPY_FORMS = {}
"""Further ``data_copy`` forms by the type of their parameter record (``Nd2NzParams`` -> the cube's ND -> NZ
copy): each a function (dst, src, params) registered by the module that defines it."""


@dataclass
class DataCopyParams:
    block_count: int = 1
    block_len: int = 0
    src_stride: int = 0
    dst_stride: int = 0


@dataclass
class BinaryRepeatParams:
    dst_blk_stride: int = 1
    src0_blk_stride: int = 1
    src1_blk_stride: int = 1
    dst_rep_stride: int = 8
    src0_rep_stride: int = 8
    src1_rep_stride: int = 8


@dataclass
class UnaryRepeatParams:
    dst_blk_stride: int = 1
    src_blk_stride: int = 1
    dst_rep_stride: int = 8
    src_rep_stride: int = 8


@dataclass
class SoftmaxTiling:
    """Accepted and ignored: the engine computes the row softmax from the tensors' shapes."""
    src_m: int = 0
    src_k: int = 0
    src_size: int = 0


@dataclass
class QuantConfig:
    calc_count: int = 0
    offset_count: int = 0
    scale_count: int = 0
    work_local_size: int = 0


@dataclass
class GatherRepeatParams:
    """``gatherb``: where each repeat's 8 gathered blocks land (strides in 32-byte blocks)."""
    dst_blk_stride: int = 1
    dst_rep_stride: int = 8


@dataclass
class BrcbRepeatParams:
    """``brcb``: where each repeat's 8 broadcast blocks land (strides in 32-byte blocks)."""
    dst_blk_stride: int = 1
    dst_rep_stride: int = 8


@dataclass
class GatherMaskParams:
    """``gather_mask``: the source's block and repeat strides (32-byte blocks), the repeats, and the pattern
    tensor's repeat stride."""
    src0_block_stride: int = 1
    repeat_times: int = 1
    src0_repeat_stride: int = 0
    src1_repeat_stride: int = 0


@dataclass
class TransposeParamsExt:
    """``transpose``'s enhanced form: the [N, C, H, W] shape and the TransposeType."""
    n_size: int = 0
    c_size: int = 0
    h_size: int = 0
    w_size: int = 0
    transpose_type: int = 10      # TransposeType.TRANSPOSE_ND2ND_B16


@dataclass
class TransDataTo5HDParams:
    """``trans_data_to_5hd``: byte halves (8-bit types), repeats and the repeat strides (32-byte blocks)."""
    dst_high_half: bool = False
    src_high_half: bool = False
    repeat_times: int = 1
    dst_rep_stride: int = 0
    src_rep_stride: int = 0


@dataclass
class CopyRepeatParams:
    """``copy``: block strides within a repeat and repeat strides (32-byte blocks)."""
    dst_stride: int = 1
    src_stride: int = 1
    dst_repeat_size: int = 8
    src_repeat_size: int = 8


@dataclass
class DataCopyExtParams:
    """``data_copy_pad``: ``block_count`` rows of ``block_len`` bytes; GM strides in bytes, local strides in
    32-byte blocks."""
    block_count: int = 1
    block_len: int = 0
    src_stride: int = 0
    dst_stride: int = 0
    rsv: int = 0


@dataclass
class DataCopyPadParams:
    """``data_copy_pad`` GM -> local: elements padded left and right of each row (value 0 only)."""
    is_pad: bool = False
    left_padding: int = 0
    right_padding: int = 0
    padding_value: int = 0


class DataCopyPadExtParams:
    """``DataCopyPadExtParams(dtype, is_pad, left_padding, right_padding, padding_value)``: as
    DataCopyPadParams with a padding value of the tensor's type."""

    def __init__(self, dtype=None, is_pad=False, left_padding=0, right_padding=0, padding_value=0):
        self.dtype, self.is_pad, self.left_padding = dtype, is_pad, left_padding
        self.right_padding, self.padding_value = right_padding, padding_value


@dataclass
class DataCopyEnhancedParams:
    """``data_copy(dst, src, DataCopyParams, DataCopyEnhancedParams)``: the copy's block mode, dequantisation,
    relu and padding on the way; the engine runs the plain form (every field at its default) and refuses the
    others."""
    block_mode: BlockMode = BlockMode.BLOCK_MODE_NORMAL
    deq_scale: DeqScale = DeqScale.DEQ_NONE
    deq_value_in: int = 0
    sid_store_mode_in: int = 0
    is_relu_in: bool = False
    pad_mode_in: pad_t = pad_t.PAD_NONE
    pad_value_in: int = 0


class SliceInfo:
    """``SliceInfo(start_index, end_index, stride, burst_len, shape_value)``: one dimension of a sliced copy;
    ``end_index`` defaults to ONE_BLK_SIZE - 1 and ``burst_len`` to ONE_BLK_SIZE, as pyasc's do."""

    def __init__(self, start_index=0, end_index=None, stride=0, burst_len=None, shape_value=0):
        self.start_index, self.stride, self.shape_value = start_index, stride, shape_value
        self.end_index = 32 - 1 if not end_index else end_index
        self.burst_len = 32 if not burst_len else burst_len


@dataclass
class CheckLocalMemoryIAParam:
    """``check_local_memory_ia``'s address window and the accesses it traps."""
    enable_bit: int = 0
    start_addr: int = 0
    end_addr: int = 0
    is_scalar_read: bool = False
    is_scalar_write: bool = False
    is_vector_read: bool = False
    is_vector_write: bool = False
    is_mte_read: bool = False
    is_mte_write: bool = False
    is_enable: bool = False


class VdeqInfo:
    """``VdeqInfo(scale, offset, sign_mode)``: the 16 (scale, offset, signed) triples of a vector
    dequantisation, 16 of each as pyasc requires."""

    def __init__(self, scale=None, offset=None, sign_mode=None):
        from ..core.errors import error
        if scale is None or offset is None or sign_mode is None:
            raise error(ValueError, "VdeqInfo requires scale / offset / sign_mode", "pass 16 of each")
        if len(scale) != 16 or len(offset) != 16 or len(sign_mode) != 16:
            raise error(ValueError, "VdeqInfo expects exactly 16 elements per field",
                        f"got {len(scale)} scales, {len(offset)} offsets, {len(sign_mode)} sign modes")
        self.scale, self.offset = [float(s) for s in scale], [int(o) for o in offset]
        self.sign_mode = [bool(s) for s in sign_mode]
