"""Runtime: platform selection, the JIT, launching on the embedded simulator, launch reports."""


def last_launch_report():
    """The report (ticks, pipes, bytes, warnings) of the most recent launch in this process, or None."""
    from .launcher import LAST_REPORT
    return LAST_REPORT[0]
