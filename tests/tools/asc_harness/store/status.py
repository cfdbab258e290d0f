"""The status rules: what ``capabilities.yaml`` should say for a cell, given its evidence records.

* golden: ``confirmed`` when the latest *counting* golden record passes, ``failing`` when it does not.
  A record counts when it is runtime-verified, not ``skipped``, and (for a pass) ran every case —
  static-only records, skipped runs, quick runs that skipped cases and infrastructure failures never
  promote or demote.
* generative: ``confirmed`` when at least K of the last M runtime-verified, non-skipped attempts
  passed (default 2 of 3); ``pending`` otherwise.
* perf: ``measured`` when a passing runtime-verified perf record exists, else when a passing
  runtime-verified record that reported ticks exists; the link names that record.
* ``blocked`` dimensions are never touched. Without counting records a dimension keeps
  ``pending``/``not_attempted`` (a ``confirmed``/``failing``/``measured`` claim without evidence
  becomes ``pending``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from asc_harness.store.evidence_read import LoadedRecord

DEFAULT_K = 2
DEFAULT_M = 3
FIELDS = ("golden_status", "evidence.golden", "generative_status", "evidence.generative", "perf_status",
          "evidence.perf", "evidence.ascendc")


@dataclass
class Change:
    cell: str
    field: str
    current: Any
    expected: Any
    reason: str = ""


@dataclass
class Expected:
    values: dict[str, Any]
    reasons: dict[str, str] = field(default_factory=dict)


def golden_counts(rec: LoadedRecord) -> bool:
    d = rec.data
    if not rec.valid or d["kind"] != "golden" or not d["runtime_verified"] or d["status"] == "skipped":
        return False
    if d["status"] == "pass" and any(c["status"] == "skipped" for c in d["cases"]):
        return False  # a quick run proves only part of the cell
    return True


def generative_counts(rec: LoadedRecord) -> bool:
    d = rec.data
    return rec.valid and d["kind"] == "generative" and d["runtime_verified"] and d["status"] != "skipped"


def perf_counts(rec: LoadedRecord) -> bool:
    d = rec.data
    return rec.valid and d["kind"] == "perf" and d["runtime_verified"] and d["status"] == "pass"


def ticks_counts(rec: LoadedRecord) -> bool:
    d = rec.data
    return (rec.valid and d["kind"] != "ascendc" and d["runtime_verified"] and d["status"] == "pass"
            and any(c.get("ticks") is not None for c in d["cases"]))


def ascendc_counts(rec: LoadedRecord) -> bool:
    """A run of the cell's Ascend C reference kernel that ran every case (a quick run compares part)."""
    d = rec.data
    return (rec.valid and d["kind"] == "ascendc" and d["runtime_verified"] and d["status"] != "skipped"
            and not any(c["status"] == "skipped" for c in d["cases"]))


def current_values(cell: Mapping[str, Any]) -> dict[str, Any]:
    ev = cell.get("evidence") or {}
    return {
        "golden_status": cell.get("golden_status"),
        "evidence.golden": ev.get("golden"),
        "generative_status": cell.get("generative_status"),
        "evidence.generative": list(ev.get("generative") or []),
        "perf_status": cell.get("perf_status"),
        "evidence.perf": ev.get("perf"),
        "evidence.ascendc": ev.get("ascendc"),
    }


def _no_evidence(current: str, allowed: Iterable[str]) -> str:
    return current if current in allowed else "pending"


def expected_values(cell: Mapping[str, Any], records: list[LoadedRecord], *, k: int = DEFAULT_K,
                    m: int = DEFAULT_M) -> Expected:
    """The statuses and links sync would write for ``cell`` (records oldest first)."""
    cur = current_values(cell)
    out = Expected(dict(cur))
    records = [r for r in records if r.valid]

    if cur["golden_status"] != "blocked":
        counting = [r for r in records if golden_counts(r)]
        if counting:
            latest = counting[-1]
            passed = latest.data["status"] == "pass"
            out.values["golden_status"] = "confirmed" if passed else "failing"
            out.values["evidence.golden"] = latest.link
            out.reasons["golden_status"] = f"latest counting golden run {latest.link} is {latest.data['status']}"
        else:
            out.values["golden_status"] = _no_evidence(cur["golden_status"], ("pending", "not_attempted"))
            out.values["evidence.golden"] = None
            out.reasons["golden_status"] = "no runtime-verified golden run"

    if cur["generative_status"] != "blocked":
        counting = [r for r in records if generative_counts(r)]
        if counting:
            window = counting[-m:]
            passes = sum(1 for r in window if r.data["status"] == "pass")
            out.values["generative_status"] = "confirmed" if passes >= k else "pending"
            out.values["evidence.generative"] = [r.link for r in reversed(window)]
            out.reasons["generative_status"] = f"{passes} of the last {len(window)} attempts passed (need {k} of {m})"
        else:
            out.values["generative_status"] = _no_evidence(cur["generative_status"], ("pending", "not_attempted"))
            out.values["evidence.generative"] = []
            out.reasons["generative_status"] = "no runtime-verified generative attempt"

    perf = [r for r in records if perf_counts(r)] or [r for r in records if ticks_counts(r)]
    if perf:
        out.values["perf_status"] = "measured"
        out.values["evidence.perf"] = perf[-1].link
        out.reasons["perf_status"] = f"ticks recorded in {perf[-1].link}"
    else:
        out.values["perf_status"] = _no_evidence(cur["perf_status"], ("pending", "not_attempted"))
        out.values["evidence.perf"] = None
        out.reasons["perf_status"] = "no passing run with ticks"

    reference = [r for r in records if ascendc_counts(r)]
    out.values["evidence.ascendc"] = reference[-1].link if reference else None
    out.reasons["evidence.ascendc"] = (f"latest run of the Ascend C reference: {reference[-1].link}" if reference
                                       else "no runtime-verified run of the Ascend C reference")
    return out


def changes_for(cell: Mapping[str, Any], records: list[LoadedRecord], *, k: int = DEFAULT_K,
                m: int = DEFAULT_M) -> list[Change]:
    cur = current_values(cell)
    exp = expected_values(cell, records, k=k, m=m)
    out = []
    for f in FIELDS:
        if cur[f] != exp.values[f]:
            reason = exp.reasons.get(f) or exp.reasons.get(f.replace("evidence.", "") + "_status", "")
            out.append(Change(str(cell.get("id")), f, cur[f], exp.values[f], reason))
    return out


def apply_change(cell: Any, change: Change) -> None:
    """Write ``change`` into a ruamel cell mapping in place (keeps formatting of untouched keys)."""
    if change.field.startswith("evidence."):
        key = change.field.split(".", 1)[1]
        ev = cell["evidence"]
        if key == "generative":
            seq = ev.get("generative")
            if hasattr(seq, "clear"):
                seq.clear()
                seq.extend(change.expected)
                if hasattr(seq, "fa") and change.expected:
                    seq.fa.set_block_style()
                if hasattr(seq, "fa") and not change.expected:
                    seq.fa.set_flow_style()
            else:
                ev["generative"] = list(change.expected)
        else:
            ev[key] = change.expected
    else:
        cell[change.field] = change.expected


DIMENSIONS = {"golden": ("golden_status", "evidence.golden"),
              "generative": ("generative_status", "evidence.generative"),
              "perf": ("perf_status", "evidence.perf"),
              "ascendc": (None, "evidence.ascendc")}   # a link without a status


def dimension_of(field_name: str) -> str:
    for dim, fields in DIMENSIONS.items():
        if field_name in fields:
            return dim
    raise KeyError(field_name)


def self_consistent(values: Mapping[str, Any], dim: str, records: list[LoadedRecord], *, k: int = DEFAULT_K) -> bool:
    """Whether a dimension's status is what its own evidence link(s) imply.

    Values written by sync always are; a status typed by hand usually is not (its link still points at
    the record that justified the old status). Used to tell a hand edit from an uncommitted sync result.
    """
    by_link = {r.link: r for r in records if r.valid}
    status_field, link_field = DIMENSIONS[dim]
    if dim == "ascendc":
        link = values[link_field]
        return not link or (link in by_link and ascendc_counts(by_link[link]))
    status, link = values[status_field], values[link_field]
    if status == "blocked":
        return True
    if dim == "golden":
        if not link:
            return status in ("pending", "not_attempted")
        rec = by_link.get(link)
        if rec is None or not golden_counts(rec):
            return False
        return status == ("confirmed" if rec.data["status"] == "pass" else "failing")
    if dim == "generative":
        if not link:
            return status in ("pending", "not_attempted")
        recs = [by_link.get(lk) for lk in link]
        if any(r is None or not generative_counts(r) for r in recs):
            return False
        passes = sum(1 for r in recs if r.data["status"] == "pass")
        # pending is what sync writes for any K it might have been run with; confirmed needs K passes
        return status == "pending" or (status == "confirmed" and passes >= k)
    if not link:
        return status in ("pending", "not_attempted")
    rec = by_link.get(link)
    return status == "measured" and rec is not None and (perf_counts(rec) or ticks_counts(rec))
