"""Dashboard data: everything the pages show, computed from the registry and the evidence records.

The registry and the records are loaded and summarised by :mod:`dashboard_records` (through the loaders
every harness tool uses); an invalid registry or a corrupt record is an input error
(:class:`DashboardError`, exit 2). Inconsistencies between valid inputs (a status no record backs,
a golden kernel that changed since its run) are not errors: they are shown as checks on the page.
:func:`build_site_data` returns plain JSON-compatible data; :mod:`dashboard_render` turns it into HTML.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import statistics
from pathlib import Path
from typing import Any

from asc_harness.report.dashboard_records import (RECORD_STATUSES, DashboardError, _attempt, _case_rows,  # noqa: F401
                                _record_summary, _resolve_pointer, load_evidence, load_registry_data)
from asc_harness.run.reference import compare as ascend_c_compare, per_shape as reference_per_shape
from asc_harness.store.registry import GENERATIVE_STATUSES, GOLDEN_STATUSES, PERF_STATUSES
from asc_harness.report.dashboard_format import (_dtype_key, _iso, _jsonable, _num, _parse_time, _to_utc, age_label,  # noqa: F401
                               cell_slug, format_err, format_ticks)

DEFAULT_STALE_DAYS = 14
RECORD_KINDS = ("golden", "generative", "perf", "ascendc")


# --------------------------------------------------------------------------------------------
# build_site_data


def _decider(pointer: Any, key: str | None, records: dict[str, dict], cell_id: str) -> dict | None:
    if pointer in (None, ""):
        return None
    info: dict[str, Any] = {"pointer": pointer, "found": key is not None, "path": key}
    if key is not None:
        rec = records[key]
        info.update({
            "status": rec.get("status"),
            "started_at": _iso(rec.get("_time")),
            "runtime_verified": bool(rec.get("runtime_verified")),
            "matches_cell": rec.get("cell") == cell_id,
        })
    return info


def _tiers(reg: dict, warnings: list[str]) -> tuple[list[dict], dict[str, dict]]:
    """Tiers with their operations (an "unassigned" tier for unknown ones), and per-operation info."""
    tiers: list[dict] = []
    tier_by_id: dict[Any, dict] = {}
    for t in reg["tiers"]:
        entry = {"id": t["id"], "name": str(t.get("name") or f"tier {t['id']}"),
                 "description": t.get("description"), "operations": []}
        tiers.append(entry)
        tier_by_id[t["id"]] = entry
    op_info: dict[str, dict] = {}
    for o in reg["operations"]:
        op_info[o["name"]] = {"name": o["name"], "tier": o.get("tier"),
                              "description": o.get("description") or ""}
    for c in reg["cells"]:
        if c["op"] not in op_info:
            op_info[c["op"]] = {"name": c["op"], "tier": None, "description": ""}
            warnings.append(f"cell {c['id']!r}: operation {c['op']!r} is not listed in 'operations'")
    unassigned = None
    for name, info in op_info.items():
        tier = tier_by_id.get(info["tier"])
        if tier is None:
            if unassigned is None:
                unassigned = {"id": "unassigned", "name": "unassigned", "description": None, "operations": []}
            tier = unassigned
            if info["tier"] is not None:
                warnings.append(f"operation {name!r}: unknown tier {info['tier']!r}")
        tier["operations"].append(name)
    if unassigned is not None:
        tiers.append(unassigned)
        tier_by_id["unassigned"] = unassigned

    return tiers, op_info


def _columns(reg: dict) -> tuple[list[str], bool, list[dict]]:
    """(platforms, several platforms?, matrix columns: one per dtype and platform)."""
    platforms = list(reg["platforms"])
    for c in reg["cells"]:
        if c["platform"] not in platforms:
            platforms.append(c["platform"])
    multi = len(platforms) > 1
    col_keys = sorted({(c["dtype"], c["platform"]) for c in reg["cells"]},
                      key=lambda k: (_dtype_key(k[0]), platforms.index(k[1])))
    columns = [{"key": f"{d}/{p}", "dtype": d, "platform": p,
                "label": d, "sublabel": p if multi else None} for d, p in col_keys]

    return platforms, multi, columns


def _cell_entry(c: dict, *, slug: str, recs: list[dict], records: dict[str, dict], evidence_dir: Path,
                repo_root: Path, now: _dt.datetime, stale_s: float, op_info: dict, tier_id, tier_name: str) -> dict:
    """Everything shown for one cell: statuses, the records that decided them, checks, history, source."""
    cid = c["id"]

    status = {
        "golden": c.get("golden_status") if c.get("golden_status") in GOLDEN_STATUSES else "not_attempted",
        "generative": c.get("generative_status") if c.get("generative_status") in GENERATIVE_STATUSES else "not_attempted",
        "perf": c.get("perf_status") if c.get("perf_status") in PERF_STATUSES else "not_attempted",
    }
    checks: list[dict] = []
    for dim, field in (("golden", "golden_status"), ("generative", "generative_status"), ("perf", "perf_status")):
        if c.get(field) is not None and c.get(field) != status[dim]:
            checks.append({"level": "warn", "text": f"unknown {field} {c.get(field)!r} in the registry"})

    ev = c.get("evidence") if isinstance(c.get("evidence"), dict) else {}
    gen_ptrs = ev.get("generative") or []
    if isinstance(gen_ptrs, str):
        gen_ptrs = [gen_ptrs]
    keys = {
        "golden": _resolve_pointer(ev.get("golden"), evidence_dir, repo_root, records),
        "perf": _resolve_pointer(ev.get("perf"), evidence_dir, repo_root, records),
    }
    gen_keys = [_resolve_pointer(p, evidence_dir, repo_root, records) for p in gen_ptrs]
    decided_by = {
        "golden": _decider(ev.get("golden"), keys["golden"], records, cid),
        "generative": [d for d in (_decider(p, k, records, cid) for p, k in zip(gen_ptrs, gen_keys)) if d],
        "perf": _decider(ev.get("perf"), keys["perf"], records, cid),
    }
    deciding = {k for k in [keys["golden"], keys["perf"], *gen_keys] if k}

    # Trust checks: a status must be backed by the record it points at.
    for dim in ("golden", "perf"):
        d = decided_by[dim]
        if d is None:
            if status[dim] in ("confirmed", "failing", "measured"):
                checks.append({"level": "warn", "text": f"{dim} status '{status[dim]}' names no evidence record"})
        elif not d["found"]:
            checks.append({"level": "warn", "text": f"{dim} evidence {d['pointer']} is missing from the evidence folder"})
        elif not d["matches_cell"]:
            checks.append({"level": "warn", "text": f"{dim} evidence {d['pointer']} belongs to another cell"})
    if status["generative"] in ("confirmed", "failing") and not decided_by["generative"]:
        checks.append({"level": "warn", "text": f"generative status '{status['generative']}' names no evidence record"})
    for d in decided_by["generative"]:
        if not d["found"]:
            checks.append({"level": "warn", "text": f"generative evidence {d['pointer']} is missing from the evidence folder"})

    # Newer runs than the deciding one (e.g. registry not re-synced yet).
    for dim in ("golden", "perf"):
        d = decided_by[dim]
        if d and d["found"]:
            dec_time = records[d["path"]]["_time"]
            newer = [r for r in recs if r.get("kind") == dim and r["_time"] and dec_time and r["_time"] > dec_time]
            if newer and newer[-1].get("status") != d["status"]:
                checks.append({"level": "info", "text":
                               f"a newer {dim} run ({_iso(newer[-1]['_time'])}) has status "
                               f"'{newer[-1].get('status')}'; the registry still uses an older record"})

    newest = max((r["_time"] for r in recs if r["_time"]), default=None)
    age_s = (now - newest).total_seconds() if newest else None
    stale = bool(recs) and (age_s is None or age_s > stale_s)
    freshness = {
        "newest": _iso(newest),
        "age_seconds": age_s,
        "age_days": round(age_s / 86400.0, 2) if age_s is not None else None,
        "age_label": age_label(age_s),
        "stale": stale,
        "has_evidence": bool(recs),
    }

    summaries = [_record_summary(r, deciding) for r in recs]
    history = [{"kind": s["kind"], "started_at": s["started_at"], "status": s["status"],
                "ticks": s["ticks"], "path": s["path"], "runtime_verified": s["runtime_verified"]}
               for s in summaries]

    golden_recs = [r for r in recs if r.get("kind") == "golden"]
    case_src = records[keys["golden"]] if keys["golden"] else (golden_recs[-1] if golden_recs else None)
    cases = None
    if case_src is not None:
        cases = {"path": case_src["_path"], "started_at": _iso(case_src["_time"]),
                 "status": case_src.get("status"), "deciding": case_src["_path"] in deciding,
                 "rows": _case_rows(case_src, evidence_dir)}

    perf_recs = [r for r in recs if r.get("kind") == "perf"]
    perf_src = records[keys["perf"]] if keys["perf"] else (perf_recs[-1] if perf_recs else None)
    perf = None
    if perf_src is not None and isinstance(perf_src.get("perf"), dict):
        pd = perf_src["perf"]
        runs = pd.get("ticks_runs") if isinstance(pd.get("ticks_runs"), list) else []
        perf = {"path": perf_src["_path"], "started_at": _iso(perf_src["_time"]),
                "deciding": perf_src["_path"] in deciding,
                "ticks_median": _num(pd.get("ticks_median")),
                "ticks_runs": [_num(x) for x in runs],
                "spread": _num(pd.get("spread"))}

    attempts = [_attempt(r) for r in reversed(recs) if r.get("kind") == "generative"]

    # The Ascend C reference kernel's linked run against the golden's, shape by shape.
    ref_key = _resolve_pointer(ev.get("ascendc"), evidence_dir, repo_root, records)
    reference = reference_per_shape(case_src, records[ref_key] if ref_key else None)
    if reference is not None:
        reference["path"] = records[ref_key]["_path"]
    elif ev.get("ascendc"):
        checks.append({"level": "warn", "text": f"ascendc evidence {ev.get('ascendc')} is missing from the evidence folder"})

    # Golden kernel source.
    gpath = c.get("golden")
    golden = {"path": gpath, "exists": False, "source": None, "sha256": None,
              "matches_evidence": None}
    if isinstance(gpath, str) and gpath:
        file = repo_root / gpath
        if file.is_file():
            data = file.read_bytes()
            golden["exists"] = True
            golden["sha256"] = hashlib.sha256(data).hexdigest()
            golden["source"] = data.decode("utf-8", errors="replace")
            if keys["golden"]:
                ev_sha = records[keys["golden"]].get("kernel_sha256")
                if isinstance(ev_sha, str) and ev_sha:
                    golden["matches_evidence"] = ev_sha == golden["sha256"]
                    if not golden["matches_evidence"]:
                        checks.append({"level": "warn", "text":
                                       "the golden kernel changed since the run that decided its status"})
        else:
            checks.append({"level": "warn", "text": f"golden kernel {gpath} not found"})

    prompts = c.get("prompts") if isinstance(c.get("prompts"), dict) else {}
    issues = []
    for it in c.get("known_issues") or []:
        if isinstance(it, dict):
            issues.append({"text": it.get("text"), "link": it.get("link"), "since": it.get("since")})
        elif isinstance(it, str):
            issues.append({"text": it, "link": None, "since": None})

    shapes = c.get("shapes") if isinstance(c.get("shapes"), list) else []
    return {
        "id": cid,
        "slug": slug,
        "page": f"cells/{slug}.html",
        "op": c["op"],
        "dtype": c["dtype"],
        "platform": c["platform"],
        "column": f"{c['dtype']}/{c['platform']}",
        "tier": tier_id,
        "tier_name": tier_name,
        "description": op_info[c["op"]]["description"],
        "status": status,
        "decided_by": decided_by,
        "freshness": freshness,
        "records": list(reversed(summaries)),
        "history": history,
        "cases": cases,
        # the launch warnings of the golden run shown in "cases" (each case's distinct ones)
        "launch_warnings": sum(len(r["warnings"]) for r in cases["rows"]) if cases else 0,
        "perf": perf,
        "ascend_c": ascend_c_compare(c, case_src),
        "reference_kernel": c.get("ascendc"),
        "reference": reference,
        "attempts": attempts,
        "golden": golden,
        "prompts": {str(k): v for k, v in prompts.items()},
        "known_issues": issues,
        "tolerance": c.get("tolerance") if isinstance(c.get("tolerance"), dict) else None,
        "shapes": ["×".join(str(d) for d in s) if isinstance(s, list) else str(s) for s in shapes],
        "checks": checks,
    }



def _reference_summary(cells: list[dict], platforms: list) -> dict:
    """Cells with an Ascend C reference kernel, and per platform the distribution of their worst ratios."""
    out = {"cells": len(cells), "with_kernel": sum(bool(c["reference_kernel"]) for c in cells),
           "with_ratio": sum(bool(c["reference"] and c["reference"]["worst"] is not None) for c in cells),
           "platforms": []}
    for p in platforms:
        name = p["name"] if isinstance(p, dict) else str(p)
        worst = sorted(c["reference"]["worst"] for c in cells if c["platform"] == name and c["reference"]
                       and c["reference"]["worst"] is not None)
        out["platforms"].append({
            "platform": name, "cells": len(worst),
            "min": worst[0] if worst else None, "max": worst[-1] if worst else None,
            "median": round(statistics.median(worst), 4) if worst else None,
            "below_gate": sum(c["reference"]["below_gate"] for c in cells if c["platform"] == name and c["reference"]),
        })
    return out


def build_site_data(capabilities_path, evidence_dir, now=None, *, repo_root=None,
                    stale_days: float = DEFAULT_STALE_DAYS) -> dict:
    """Compute everything the dashboard shows, as JSON-compatible data.

    ``capabilities_path``: the registry; ``evidence_dir``: the evidence folder (may be absent:
    no evidence); ``now``: reference time for freshness (default: current UTC time);
    ``repo_root``: base of the repo-relative paths in the registry (default: the registry's
    folder); ``stale_days``: a cell whose newest record is older than this is stale.
    Raises :class:`DashboardError` for an unreadable or invalid registry.
    """
    capabilities_path = Path(capabilities_path)
    evidence_dir = Path(evidence_dir)
    repo_root = Path(repo_root) if repo_root is not None else capabilities_path.resolve().parent
    if now is None:
        now = _dt.datetime.now(_dt.timezone.utc)
    elif isinstance(now, str):
        parsed = _parse_time(now)
        if parsed is None:
            raise DashboardError(f"invalid time {now!r}")
        now = parsed
    else:
        now = _to_utc(now)
    if not (isinstance(stale_days, (int, float)) and stale_days > 0):
        raise DashboardError(f"stale days must be a positive number, got {stale_days!r}")


    reg = load_registry_data(capabilities_path)
    records = load_evidence(evidence_dir, repo_root)
    warnings: list[str] = []

    # Group records by cell.
    by_cell: dict[str, list[dict]] = {}
    for rec in records.values():
        by_cell.setdefault(rec["cell"], []).append(rec)
    cell_ids = {c["id"] for c in reg["cells"]}
    orphans = sorted(k for k in by_cell if k not in cell_ids)
    for k in orphans:
        warnings.append(f"{len(by_cell[k])} evidence record(s) for {k!r}, which is not in the registry")

    tiers, op_info = _tiers(reg, warnings)
    op_tier = {name: t["id"] for t in tiers for name in t["operations"]}
    tier_name = {t["id"]: t["name"] for t in tiers}
    platforms, multi, columns = _columns(reg)

    # Cells.
    cells: list[dict] = []
    slugs: set[str] = set()
    stale_s = stale_days * 86400.0
    for c in reg["cells"]:
        cid = c["id"]
        slug = cell_slug(cid)
        if slug in slugs:
            slug = f"{slug}-{hashlib.sha1(cid.encode()).hexdigest()[:8]}"
        slugs.add(slug)
        recs = sorted(by_cell.get(cid, []),
                      key=lambda r: (r["_time"] or _dt.datetime.min.replace(tzinfo=_dt.timezone.utc), r["_path"]))
        tid = op_tier[c["op"]]
        cells.append(_cell_entry(c, slug=slug, recs=recs, records=records, evidence_dir=evidence_dir,
                                 repo_root=repo_root, now=now, stale_s=stale_s, op_info=op_info, tier_id=tid,
                                 tier_name=tier_name[tid]))

    cell_by_key = {(c["op"], c["column"]): c["id"] for c in cells}
    tier_out = []
    for t in tiers:
        tcells = [c for c in cells if c["tier"] == t["id"]]
        rows = []
        for op in t["operations"]:
            rows.append({"op": op, "description": op_info[op]["description"],
                         "cells": {col["key"]: cell_by_key.get((op, col["key"])) for col in columns}})
        tier_out.append({
            "id": t["id"],
            "name": t["name"],
            "description": t["description"],
            "total": len(tcells),
            "golden_confirmed": sum(c["status"]["golden"] == "confirmed" for c in tcells),
            "generative_confirmed": sum(c["status"]["generative"] == "confirmed" for c in tcells),
            "perf_measured": sum(c["status"]["perf"] == "measured" for c in tcells),
            "confirmed": sum(c["status"]["golden"] == "confirmed" and c["status"]["generative"] == "confirmed"
                             for c in tcells),
            "rows": rows,
        })

    def count(dim: str, value: str) -> int:
        return sum(c["status"][dim] == value for c in cells)

    all_times = [r["_time"] for r in records.values() if r["_time"]]
    summary = {
        "cells": len(cells),
        "operations": len(op_info),
        "golden": {s: count("golden", s) for s in GOLDEN_STATUSES},
        "generative": {s: count("generative", s) for s in GENERATIVE_STATUSES},
        "perf": {s: count("perf", s) for s in PERF_STATUSES},
        "stale": sum(c["freshness"]["stale"] for c in cells),
        "no_evidence": sum(not c["freshness"]["has_evidence"] for c in cells),
        "records": len(records),
        "newest_record": _iso(max(all_times)) if all_times else None,
        "cells_with_warnings": sum(any(ch["level"] == "warn" for ch in c["checks"]) for c in cells),
        "reference": _reference_summary(cells, platforms),
    }

    return {
        "generated_at": _iso(now),
        "stale_days": stale_days,
        "registry_path": str(capabilities_path),
        "evidence_dir": str(evidence_dir),
        "platforms": platforms,
        "multi_platform": multi,
        "columns": columns,
        "tiers": tier_out,
        "cells": cells,
        "summary": summary,
        "statuses": {"golden": list(GOLDEN_STATUSES), "generative": list(GENERATIVE_STATUSES),
                     "perf": list(PERF_STATUSES)},
        "warnings": warnings,
    }

