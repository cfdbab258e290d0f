"""``asctile.language.prog_model_ops``: the programming model (blocks, sub-blocks), as upstream groups them."""
from asc.experimental.asctile import block_idx, block_num, cv_strategy, sub_block_idx, sub_block_num

__all__ = ['block_idx', 'block_num', 'cv_strategy', 'sub_block_idx', 'sub_block_num']
