"""Errors detected while simulating a launch (bounds, races, uninitialised data, capacity)."""


class SimError(RuntimeError):
    """A fault in the simulated kernel; the executor adds the op's source location and the blocks."""

    def __init__(self, message, hint=None, blocks=None):
        super().__init__(message)
        self.hint = hint
        self.blocks = blocks


class OutOfBoundsError(SimError):
    pass


class RaceError(SimError):
    pass


class UninitializedReadError(SimError):
    pass
