"""The capability registry (``capabilities.yaml``): loading, validation, cell ids and round-trip saving.

Cells are identified as ``op/dtype/platform``. Patterns use shell globs per component
(``abs/*/*``, ``*/float16/Ascend950PR_9599``, ``softmax``); a pattern with fewer than three
components matches any value for the missing ones (``abs`` == ``abs/*/*``).

The file is read and written with ruamel.yaml in round-trip mode so comments, key order, quoting and
layout survive automated edits.
"""

from __future__ import annotations

import fnmatch
import io
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from asc_harness.common.errors import HarnessError
from asc_harness.store.validation import Issue, format_path, line_of, to_plain, validate

GOLDEN_STATUSES = ("confirmed", "failing", "pending", "blocked", "not_attempted")
GENERATIVE_STATUSES = GOLDEN_STATUSES
PERF_STATUSES = ("measured", "pending", "not_attempted")
STATUS_FIELDS = ("golden_status", "generative_status", "perf_status")

STATUS_HELP = """\
statuses (written only by sync_capabilities, from evidence):
  golden_status      confirmed      the latest runtime-verified golden run passed
                     failing        the latest runtime-verified golden run failed
                     pending        no counting golden run yet
                     blocked        excluded by hand; never changed by sync
                     not_attempted  no golden kernel for this cell
  generative_status  confirmed      >= K of the last M runtime-verified attempts passed (default 2 of 3)
                     pending        attempts exist but fewer than K of the last M passed, or none yet
                     blocked / not_attempted as above; sync never sets failing here
  perf_status        measured       a passing perf record, or a passing run that reported ticks, exists
                     pending / not_attempted  no measurement yet
runtime-verified: the kernel really ran on the engine; static checks and infrastructure failures
(missing interpreter, unreadable probe result) are not runtime-verified and never change a status.
cell ids: op/dtype/platform; shell globs per component (abs/*/*, */float16); a shorter pattern
matches any value for the missing components (abs == abs/*/*)."""


# --------------------------------------------------------------------------------------------------
# Cell ids


@dataclass(frozen=True, order=True)
class CellId:
    op: str
    dtype: str
    platform: str

    def __str__(self) -> str:
        return f"{self.op}/{self.dtype}/{self.platform}"


def parse_cell_id(text: str) -> CellId:
    """Parse ``op/dtype/platform``; raises HarnessError when the text is not of that form."""
    parts = str(text).split("/")
    if len(parts) != 3 or not all(p.strip() == p and p for p in parts):
        raise HarnessError(f"invalid cell id {text!r}: expected op/dtype/platform")
    return CellId(*parts)


def cell_matches(pattern: str, cell_id: str | CellId) -> bool:
    """True when ``cell_id`` matches the glob ``pattern`` (component-wise, see module docstring)."""
    pparts = str(pattern).strip().strip("/").split("/")
    if len(pparts) > 3 or not all(pparts):
        raise HarnessError(f"invalid cell pattern {pattern!r}: expected op[/dtype[/platform]] with globs")
    pparts += ["*"] * (3 - len(pparts))
    cparts = str(cell_id).split("/")
    if len(cparts) != 3:
        return False
    return all(fnmatch.fnmatchcase(c, p) for c, p in zip(cparts, pparts))


def matches_any(patterns: Iterable[str] | None, cell_id: str | CellId) -> bool:
    patterns = list(patterns or [])
    return not patterns or any(cell_matches(p, cell_id) for p in patterns)


def check_patterns(patterns: Iterable[str] | None) -> list[str]:
    """Validate glob patterns up front (raises HarnessError on a malformed pattern)."""
    out = []
    for p in patterns or []:
        for piece in str(p).split(","):
            piece = piece.strip()
            if piece:
                cell_matches(piece, "x/y/z")
                out.append(piece)
    return out


# --------------------------------------------------------------------------------------------------
# YAML


def yaml_rt() -> YAML:
    """The round-trip YAML instance used for reading and writing capabilities.yaml."""
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.indent(mapping=2, sequence=4, offset=2)
    y.representer.add_representer(type(None), _represent_none)
    return y


def _represent_none(representer, data):
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


def _yaml_error_message(path: Path, exc: YAMLError) -> str:
    if isinstance(exc, MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        problem = exc.problem or "syntax error"
        ctx = f" ({exc.context})" if exc.context else ""
        return f"{path}:{mark.line + 1}:{mark.column + 1}: invalid YAML: {problem}{ctx}"
    return f"{path}: invalid YAML: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same directory and ``os.replace``."""
    path = Path(path)
    mode = None
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


# --------------------------------------------------------------------------------------------------
# Registry


class Registry:
    """A loaded ``capabilities.yaml``. ``doc`` is the ruamel round-trip document (edit it in place)."""

    def __init__(self, path: Path, text: str, doc: Any):
        self.path = Path(path)
        self.root = self.path.resolve().parent
        self.text = text
        self.doc = doc

    # -- access ------------------------------------------------------------------------------------
    @property
    def cells(self) -> list:
        cells = self.doc.get("cells") if isinstance(self.doc, dict) else None
        return cells if isinstance(cells, list) else []

    @property
    def tiers(self) -> list:
        tiers = self.doc.get("tiers") if isinstance(self.doc, dict) else None
        return tiers if isinstance(tiers, list) else []

    @property
    def operations(self) -> list:
        ops = self.doc.get("operations") if isinstance(self.doc, dict) else None
        return ops if isinstance(ops, list) else []

    @property
    def platforms(self) -> list:
        plats = self.doc.get("platforms") if isinstance(self.doc, dict) else None
        return plats if isinstance(plats, list) else []

    def cell(self, cell_id: str) -> Any:
        for c in self.cells:
            if isinstance(c, dict) and str(c.get("id")) == str(cell_id):
                return c
        raise KeyError(cell_id)

    def iter_cells(self, patterns: Iterable[str] | None = None) -> Iterator[Any]:
        for c in self.cells:
            if isinstance(c, dict) and matches_any(patterns, str(c.get("id", ""))):
                yield c

    def tier_of(self, op: str) -> int | None:
        for o in self.operations:
            if isinstance(o, dict) and o.get("name") == op:
                return o.get("tier")
        return None

    def golden_path(self, cell: Any) -> Path | None:
        rel = cell.get("golden")
        return (self.root / rel) if rel else None

    def cells_for_file(self, kernel: str | os.PathLike, role: str = "golden") -> list:
        """Cells whose golden kernel (``role="ascendc"``: Ascend C reference kernel) is the file ``kernel``."""
        target = Path(kernel).resolve()
        out = []
        for c in self.cells:
            if isinstance(c, dict) and c.get(role):
                if (self.root / str(c[role])).resolve() == target:
                    out.append(c)
        return out

    # -- validation --------------------------------------------------------------------------------
    def schema_issues(self) -> list[Issue]:
        return validate(self.doc, "capabilities", source=self.doc)

    def structure_issues(self, *, status_rules: bool = True) -> list[Issue]:
        """Cross-field rules the schema cannot express (run only on schema-valid documents).

        ``status_rules``: also require statuses to be backed by evidence links (sync_capabilities skips
        these, since repairing them is its job).
        """
        d = to_plain(self.doc)
        issues: list[Issue] = []

        def add(path: list, msg: str) -> None:
            issues.append(Issue(format_path(path), msg, line_of(self.doc, path)))

        tier_ids: set[int] = set()
        for i, t in enumerate(d["tiers"]):
            if t["id"] in tier_ids:
                add(["tiers", i, "id"], f"duplicate tier id {t['id']}")
            tier_ids.add(t["id"])
        tier_names = [t["name"] for t in d["tiers"]]
        for i, t in enumerate(d["tiers"]):
            if tier_names.count(t["name"]) > 1 and tier_names.index(t["name"]) != i:
                add(["tiers", i, "name"], f"duplicate tier name {t['name']!r}")
        ops: set[str] = set()
        for i, o in enumerate(d["operations"]):
            if o["name"] in ops:
                add(["operations", i, "name"], f"duplicate operation {o['name']!r}")
            ops.add(o["name"])
            if o["tier"] not in tier_ids:
                add(["operations", i, "tier"], f"tier {o['tier']} is not defined in tiers")
        seen: set[str] = set()
        for i, c in enumerate(d["cells"]):
            expected = f"{c['op']}/{c['dtype']}/{c['platform']}"
            if c["id"] != expected:
                add(["cells", i, "id"], f"id {c['id']!r} does not match op/dtype/platform ({expected!r})")
            if c["id"] in seen:
                add(["cells", i, "id"], f"duplicate cell id {c['id']!r}")
            seen.add(c["id"])
            if c["op"] not in ops:
                add(["cells", i, "op"], f"operation {c['op']!r} is not defined in operations")
            if c["platform"] not in d["platforms"]:
                add(["cells", i, "platform"], f"platform {c['platform']!r} is not listed in platforms")
            shapes = [list(s) for s in c["shapes"]]
            for j, s in enumerate(shapes):
                if shapes.index(s) != j:
                    add(["cells", i, "shapes", j], f"duplicate shape {s}")
            for j, st in enumerate(c.get("shape_tolerances", [])):
                if list(st["shape"]) not in shapes:
                    add(["cells", i, "shape_tolerances", j, "shape"],
                        f"shape {st['shape']} is not one of the cell's shapes")
            ref = c.get("reference")
            if ref and list(ref["shape"]) not in shapes:
                add(["cells", i, "reference", "shape"],
                    f"reference shape {ref['shape']} is not one of the cell's shapes (the golden must run it)")
            if c["golden"] is None and c["golden_status"] not in ("not_attempted", "blocked"):
                add(["cells", i, "golden"],
                    f"no golden kernel but golden_status is {c['golden_status']!r} "
                    "(only not_attempted or blocked allow golden: null)")
            ev = c["evidence"]
            if not status_rules:
                continue
            if c["golden_status"] in ("confirmed", "failing") and not ev["golden"]:
                add(["cells", i, "evidence", "golden"],
                    f"golden_status {c['golden_status']!r} requires an evidence link")
            if c["generative_status"] in ("confirmed", "failing") and not ev["generative"]:
                add(["cells", i, "evidence", "generative"],
                    f"generative_status {c['generative_status']!r} requires evidence links")
            if c["perf_status"] == "measured" and not ev["perf"]:
                add(["cells", i, "evidence", "perf"], "perf_status 'measured' requires an evidence link")
        return issues

    def issues(self, *, status_rules: bool = True) -> list[Issue]:
        """Schema issues, then (only if the schema passes) structural issues."""
        schema = self.schema_issues()
        return schema if schema else self.structure_issues(status_rules=status_rules)

    # -- saving ------------------------------------------------------------------------------------
    def dump(self) -> str:
        buf = io.StringIO()
        yaml_rt().dump(self.doc, buf)
        return buf.getvalue()

    def save(self, path: Path | None = None) -> None:
        atomic_write_text(Path(path or self.path), self.dump())


def parse_registry_text(text: str, path: Path) -> Any:
    try:
        doc = yaml_rt().load(text)
    except YAMLError as exc:
        raise HarnessError(_yaml_error_message(path, exc)) from None
    except Exception as exc:  # ruamel raises a few non-YAMLError types on odd input
        raise HarnessError(f"{path}: invalid YAML: {exc}") from None
    if not isinstance(doc, dict):
        kind = "empty" if doc is None else f"a {type(doc).__name__}, not a mapping"
        raise HarnessError(f"{path}: the capabilities file is {kind}")
    return doc


def load_registry(path: str | os.PathLike) -> Registry:
    """Read and parse ``capabilities.yaml`` (raises HarnessError on a missing or unparsable file)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HarnessError(f"capabilities file not found: {path}") from None
    except IsADirectoryError:
        raise HarnessError(f"capabilities path is a directory, not a file: {path}") from None
    except UnicodeDecodeError as exc:
        raise HarnessError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise HarnessError(f"cannot read {path}: {exc.strerror}") from None
    return Registry(path, text, parse_registry_text(text, path))


def load_valid_registry(path: str | os.PathLike, *, status_rules: bool = True) -> Registry:
    """Load and require a schema- and structure-valid registry (raises HarnessError listing the issues)."""
    reg = load_registry(path)
    issues = reg.issues(status_rules=status_rules)
    if issues:
        more = f" (and {len(issues) - 1} more problem(s))" if len(issues) > 1 else ""
        raise HarnessError(f"{reg.path} is not valid: {issues[0]}{more}; check_capabilities lists them all")
    return reg
