"""``asc.lib.runtime`` on the Model backend: device, stream and platform queries.

The embedded engine simulates one device (0) with one stream; launches run synchronously, so
``synchronize`` has nothing to wait for. Names that need a real device (memory, binaries, kernel
launches by handle) raise a clear ``RuntimeError``.
"""
from __future__ import annotations

from typing import Optional

from ..runtime import config


class Stream:
    """The simulated device's stream (what ``current_stream()`` returns; ``kernel[n, stream]`` takes it)."""

    def __init__(self, device_id=0):
        self.device_id = device_id

    def __repr__(self):
        return f"Stream(device={self.device_id})"


_STATE = {"device": 0, "streams": {}}


def _check_device(device_id):
    if not isinstance(device_id, int) or isinstance(device_id, bool) or device_id < 0:
        raise RuntimeError(f"Device handle should be int >= 0, but '{device_id}' with {type(device_id)} type was given")


def use_model(custom_lib_prefix: Optional[str] = None) -> None:
    """Select the Model backend (the embedded simulator) for the current platform."""
    config.set_platform(config.Backend.Model, config.current_platform(), config.STATE.device_id, check=False)


def use_npu(custom_lib_prefix: Optional[str] = None) -> None:
    raise _no_device("use_npu")


def is_model() -> bool:
    return config.STATE.backend == config.Backend.Model


def is_initialized() -> bool:
    return True


def is_available() -> bool:
    return is_model()


def default_device() -> int:
    return 0


def check_device_handle(device_id: int) -> None:
    _check_device(device_id)


def current_device() -> int:
    return _STATE["device"]


def set_device(device_id: int) -> None:
    _check_device(device_id)
    _STATE["device"] = device_id


def device_count() -> int:
    return 1


def current_stream(device_id: Optional[int] = None) -> Stream:
    d = _STATE["device"] if device_id is None else device_id
    _check_device(d)
    return _STATE["streams"].setdefault(d, Stream(d))


def create_stream(priority: int = 0) -> Stream:
    return Stream(_STATE["device"])


def destroy_stream(stream_handle) -> None:
    return None


def synchronize(stream_handle=None, timeout: int = 0) -> None:
    """Launches on the simulator complete before they return: nothing to wait for."""
    return None


def synchronize_device() -> None:
    return None


def current_platform() -> str:
    return config.current_platform().value


def get_soc_version() -> config.Platform:
    return config.current_platform()


def set_soc_version(soc_version) -> None:
    config.set_platform(config.STATE.backend, soc_version, config.STATE.device_id, check=False)


def reset_device(device_id: Optional[int] = None) -> None:
    return None


def free_mem() -> None:
    return None


def _no_device(name):
    return RuntimeError(f"asc.lib.runtime.{name} needs an Ascend device: the Model backend of this engine "
                        "simulates kernels and has no device memory or binaries; launch kernels as "
                        "kernel[core_num](...) with numpy arrays / torch tensors instead")


def _device_only(name):
    def fn(*args, **kwargs):
        raise _no_device(name)
    fn.__name__ = name
    return fn


for _name in ("malloc", "memcpy", "free", "copy_data_to_device", "copy_data_from_device", "launch_kernel",
              "register_device_binary_kernel", "unregister_device_binary_kernel", "is_device_binary_registered",
              "register_function", "device_info", "c2c_ctrl_addr", "set_pro_switch", "acl_init", "acl_finalize",
              "npu_utils", "current_tick", "magic_elf_value", "msprof_task_type"):
    globals()[_name] = _device_only(_name)
del _name
