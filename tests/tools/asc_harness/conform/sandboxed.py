"""Running a conformance driver (a script under one engine's interpreter) in the sandbox, and reading
the JSON result it writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from asc_harness.run import sandbox

MEMORY_MB = 8192


def run_driver(python: Path, driver: Path, case_path: Path, result: Path, args: Sequence[str], *,
               timeout_s: float, env: dict[str, str] | None = None) -> tuple[dict | None, str | None]:
    """Run ``driver CASE RESULT *args`` under ``python`` in the sandbox (writing only into RESULT's
    directory): (the JSON it wrote, None), or (None, why it wrote none)."""
    sb = sandbox.run([str(python), str(driver), str(case_path), str(result), *args], timeout_s=timeout_s,
                     memory_mb=MEMORY_MB, env_extra=env or {}, writable=[str(result.parent)],
                     readable=[case_path.parent, python.parent], network=False)
    if sb.timed_out:
        return None, f"timed out after {timeout_s:g} s"
    try:
        return json.loads(result.read_text(encoding="utf-8")), None
    except (OSError, ValueError):
        tail = "\n".join((sb.error or sb.stderr).strip().splitlines()[-3:])
        return None, f"the driver wrote no result (exit {sb.exit_code}): {tail}"
