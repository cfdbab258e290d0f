"""Platform selection (pyasc's ``asc.runtime.config``)."""
from __future__ import annotations

import enum


class Backend(enum.Enum):
    Model = "Model"
    NPU = "NPU"


class Platform(enum.Enum):
    Ascend910B1 = "Ascend910B1"
    Ascend910B2 = "Ascend910B2"
    Ascend910B2C = "Ascend910B2C"
    Ascend910B3 = "Ascend910B3"
    Ascend910B4 = "Ascend910B4"
    Ascend910B4_1 = "Ascend910B4-1"
    Ascend910_9362 = "Ascend910_9362"
    Ascend910_9372 = "Ascend910_9372"
    Ascend910_9381 = "Ascend910_9381"
    Ascend910_9382 = "Ascend910_9382"
    Ascend910_9391 = "Ascend910_9391"
    Ascend910_9392 = "Ascend910_9392"
    Ascend910_9579 = "Ascend910_9579"
    Ascend910_9589 = "Ascend910_9589"
    Ascend910_9599 = "Ascend910_9599"
    Ascend950PR_950z = "Ascend950PR_950z"
    Ascend950PR_9579 = "Ascend950PR_9579"
    Ascend950PR_957b = "Ascend950PR_957b"
    Ascend950PR_957c = "Ascend950PR_957c"
    Ascend950PR_957d = "Ascend950PR_957d"
    Ascend950PR_9589 = "Ascend950PR_9589"
    Ascend950PR_958b = "Ascend950PR_958b"
    Ascend950PR_9599 = "Ascend950PR_9599"


class CompilationArch(enum.Enum):
    C220 = "c220"
    C310 = "c310"

    def __str__(self):
        return self.value


class KernelType(enum.Enum):
    AIV_ONLY = 0
    AIC_ONLY = 1
    MIX_AIV_HARD_SYNC = 2
    MIX_AIC_HARD_SYNC = 3
    MIX_AIV_1_0 = 4
    MIX_AIC_1_0 = 5
    MIX_AIC_1_1 = 6
    MIX_AIC_1_2 = 7


def platform_to_arch(platform) -> CompilationArch:
    value = platform.value if isinstance(platform, Platform) else str(platform)
    if value.startswith("Ascend910B") or value.startswith("Ascend910_93"):
        return CompilationArch.C220
    if value.startswith("Ascend910_95") or value.startswith("Ascend950PR_95"):
        return CompilationArch.C310
    raise ValueError(f"There is no compilation arch for '{value}' platform")


class _State:
    backend = Backend.NPU
    platform = Platform.Ascend910B1
    device_id = None
    explicit = False


STATE = _State()


def set_platform(backend, soc_version=None, device_id=None, check=True):
    """Select the backend and SoC. ``Backend.Model`` runs on the embedded simulator."""
    backend = Backend(backend.value if isinstance(backend, Backend) else backend)
    if soc_version is None:
        soc_version = Platform.Ascend910B1
    elif not isinstance(soc_version, Platform):
        soc_version = Platform(soc_version)
    if backend == Backend.NPU and check:
        raise RuntimeError("Runtime library is not available! Backend.NPU needs an Ascend device and the CANN "
                           "runtime; this engine simulates kernels: use config.set_platform(config.Backend.Model, "
                           "...), or run the kernel with a real pyasc + CANN toolchain")
    STATE.backend, STATE.platform, STATE.device_id, STATE.explicit = backend, soc_version, device_id, True


def current_platform() -> Platform:
    return STATE.platform
