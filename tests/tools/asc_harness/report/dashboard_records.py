"""Dashboard data, the records' side: the registry and the evidence records loaded (through
:mod:`registry` and :mod:`evidence`, the loaders every harness tool uses) and each record summarised
as the pages show it. An invalid registry or a corrupt record is an input error (:class:`DashboardError`,
exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from asc_harness.report.dashboard_format import _iso, _jsonable, _num, _parse_time
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence_read import iter_records
from asc_harness.store.registry import load_registry
from asc_harness.run.traces import case_timeline, case_trace_links
from asc_harness.store.validation import to_plain

RECORD_STATUSES = ("pass", "fail", "error", "timeout", "skipped")


class DashboardError(HarnessError):
    """A problem with the user's input (paths, registry, evidence, options): one line, exit 2."""

# --------------------------------------------------------------------------------------------
# loading (registry.py and evidence.py do the reading and validation)


def load_registry_data(path: Path) -> dict:
    """The schema-valid registry at ``path`` as plain data; raises :class:`DashboardError`."""
    try:
        reg = load_registry(path)
    except HarnessError as exc:
        raise DashboardError(str(exc)) from None
    issues = reg.issues(status_rules=False)  # statuses without records are shown as checks instead
    if issues:
        more = f" (and {len(issues) - 1} more problem(s); run check_capabilities)" if len(issues) > 1 else ""
        raise DashboardError(f"{reg.path} is not valid: {issues[0]}{more}")
    doc = _jsonable(to_plain(reg.doc))
    return {"platforms": list(doc["platforms"]), "tiers": list(doc["tiers"]),
            "operations": list(doc["operations"]), "cells": list(doc["cells"])}


def load_evidence(evidence_dir: Path, repo_root: Path) -> dict[str, dict]:
    """Every record under ``evidence_dir``, keyed by its path relative to it (POSIX), with ``_path``
    and ``_time`` added. A record that cannot be read or does not validate raises DashboardError."""
    records: dict[str, dict] = {}
    evidence_dir = Path(evidence_dir)
    for loaded in iter_records(evidence_dir, root=repo_root):
        if not loaded.valid:
            raise DashboardError(f"corrupt evidence: {loaded.error}; run check_capabilities")
        rel = loaded.path.relative_to(evidence_dir).as_posix()
        rec = dict(loaded.data)
        rec["_path"] = rel
        rec["_time"] = _parse_time(rec["started_at"])
        records[rel] = rec
    return records


def _resolve_pointer(pointer: Any, evidence_dir: Path, repo_root: Path,
                     records: dict[str, dict]) -> str | None:
    """Map a registry evidence pointer (repo-relative path) to a key of ``records``."""
    if not isinstance(pointer, str) or not pointer:
        return None
    p = pointer.replace("\\", "/")
    if p in records:
        return p
    try:
        rel = (repo_root / p).resolve().relative_to(evidence_dir.resolve()).as_posix()
        if rel in records:
            return rel
    except ValueError:
        pass
    head, _, rest = p.partition("/")
    if head == evidence_dir.name and rest in records:
        return rest
    return None


def _record_ticks(rec: dict) -> int | float | None:
    if rec.get("kind") == "perf":
        perf = rec.get("perf") or {}
        return _num(perf.get("ticks_median")) if isinstance(perf, dict) else None
    cases = rec.get("cases") or []
    if not isinstance(cases, list) or not cases:
        return None
    total = 0
    for case in cases:
        t = _num(case.get("ticks")) if isinstance(case, dict) else None
        if t is None:
            return None
        total += t
    return total


def _provenance(rec: dict) -> dict:
    prov = rec.get("provenance")
    return prov if isinstance(prov, dict) else {}


def _record_summary(rec: dict, deciding: set[str]) -> dict:
    failure = rec.get("failure") if isinstance(rec.get("failure"), dict) else None
    prov = _provenance(rec)
    commit = prov.get("harness_commit")
    return {
        "path": rec["_path"],
        "kind": rec.get("kind"),
        "status": rec.get("status") if rec.get("status") in RECORD_STATUSES else "unknown",
        "started_at": _iso(rec.get("_time")),
        "runtime_verified": bool(rec.get("runtime_verified")),
        "failure": {"category": failure.get("category"), "message": failure.get("message")}
        if failure else None,
        "wall_time_s": _num(rec.get("wall_time_s")),
        "ticks": _record_ticks(rec),
        "kernel": rec.get("kernel"),
        "kernel_sha256": rec.get("kernel_sha256"),
        "provenance": prov,
        "commit_short": (commit[:10] if isinstance(commit, str) else None),
        "engine": prov.get("engine"),
        "deciding": rec["_path"] in deciding,
    }


def _case_rows(rec: dict, evidence_dir: Path) -> list[dict]:
    rows = []
    for case in rec.get("cases") or []:
        if not isinstance(case, dict):
            continue
        shape = case.get("shape")
        rows.append({
            "id": case.get("id"),
            "shape": "×".join(str(d) for d in shape) if isinstance(shape, list) else None,
            "status": case.get("status"),
            "atol": _num(case.get("atol")),
            "rtol": _num(case.get("rtol")),
            "max_abs_err": _num(case.get("max_abs_err")),
            "max_rel_err": _num(case.get("max_rel_err")),
            "mismatches": _num(case.get("mismatches")),
            "elements": _num(case.get("elements")),
            "ticks": _num(case.get("ticks")),
            "wall_s": _num(case.get("wall_s")),
            "timeline": case_timeline(case),
            "traces": case_trace_links(case, rec["_path"], evidence_dir),
            "warnings": [{"kind": str(w.get("kind")), "where": w.get("where"), "message": str(w.get("message"))}
                         for w in case.get("warnings") or [] if isinstance(w, dict)],
        })
    return rows


def _attempt(rec: dict) -> dict:
    gen = rec.get("generative") if isinstance(rec.get("generative"), dict) else {}
    failure = rec.get("failure") if isinstance(rec.get("failure"), dict) else None
    output = gen.get("agent_output")
    if isinstance(output, str) and len(output) > 4000:
        output = output[:4000] + f"\n… ({len(gen['agent_output']) - 4000} more characters in the record)"
    status = rec.get("status")
    return {
        "path": rec["_path"],
        "started_at": _iso(rec.get("_time")),
        "attempt": gen.get("attempt"),
        "variant": gen.get("variant"),
        "status": status,
        "outcome": "pass" if status == "pass" and rec.get("runtime_verified") else
                   ("static only" if status == "pass" else (status or "unknown")),
        "runtime_verified": bool(rec.get("runtime_verified")),
        "failure": {"category": failure.get("category"), "message": failure.get("message")}
        if failure else None,
        "agent_command": gen.get("agent_command"),
        "agent_exit": gen.get("agent_exit"),
        "agent_wall_s": _num(gen.get("agent_wall_s")),
        "agent_output": output,
        "kernel_file": gen.get("kernel_file") or rec.get("kernel"),
        "cases_passed": sum(1 for c in rec.get("cases") or [] if isinstance(c, dict) and c.get("status") == "pass"),
        "cases_total": len([c for c in rec.get("cases") or [] if isinstance(c, dict)]),
    }
