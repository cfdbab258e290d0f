"""JSON Schema validation with precise, human-readable error locations.

Both schemas (``schema/capabilities.schema.json`` and ``schema/evidence.schema.json``) are JSON Schema
draft 2020-12. :func:`validate` returns a list of :class:`Issue` objects, each naming the exact path of
the offending field (``cells[3].tolerance.atol``) and, for YAML documents loaded with ruamel.yaml, its
line number.
"""

from __future__ import annotations

import datetime as _dt
import functools
import json
from dataclasses import dataclass
from typing import Any, Iterable

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from asc_harness.common.paths import SCHEMA_DIR


@dataclass(frozen=True)
class Issue:
    path: str          # e.g. "cells[3].tolerance.atol" ("<root>" for the document itself)
    message: str
    line: int | None = None  # 1-based line in the source document, when known

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.path}: {self.message}"


@functools.lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    """Load ``schema/<name>.schema.json`` (``name`` is ``capabilities`` or ``evidence``)."""
    with open(SCHEMA_DIR / f"{name}.schema.json", encoding="utf-8") as fh:
        return json.load(fh)


@functools.lru_cache(maxsize=None)
def _validator(name: str) -> jsonschema.protocols.Validator:
    schema = load_schema(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def to_plain(value: Any) -> Any:
    """Convert ruamel.yaml round-trip data to plain JSON-compatible Python (dates become ISO strings)."""
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    return value


def format_path(parts: Iterable[Any]) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "<root>"


def line_of(document: Any, parts: Iterable[Any]) -> int | None:
    """1-based line of the node at ``parts`` in a ruamel.yaml round-trip document (best effort)."""
    node = document
    line = None
    for part in parts:
        lc = getattr(node, "lc", None)
        try:
            if lc is not None:
                if isinstance(part, int):
                    line = lc.item(part)[0] + 1
                else:
                    line = lc.key(part)[0] + 1
            node = node[part]
        except (KeyError, IndexError, TypeError, AttributeError):
            break
    if line is None:
        lc = getattr(document, "lc", None)
        if lc is not None and getattr(lc, "line", None) is not None:
            line = lc.line + 1
    return line


def _describe(error: ValidationError) -> list[tuple[list, str]]:
    """Turn one jsonschema error into (path, message) pairs pointing at the exact field."""
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extras = [k for k in error.instance if k not in allowed]
        if extras:
            known = ", ".join(sorted(allowed))
            return [(path + [k], f"unknown field (allowed here: {known})") for k in extras]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return [(path + [missing], "missing required field")]
    if error.validator in ("oneOf", "anyOf") and error.context:
        # Prefer the explanation from the branch that is not the "null" alternative.
        non_null = [e for e in error.context if e.schema.get("type") != "null"]
        sub = best_match(non_null or error.context)
        if sub is not None:
            return _describe(sub) if list(sub.absolute_path) != path else [(path, _message(sub))]
    return [(path, _message(error))]


def _message(error: ValidationError) -> str:
    if error.validator == "pattern":
        desc = error.schema.get("description")
        if desc:
            return f"{error.instance!r} is not valid: {desc}"
        return f"{error.instance!r} does not have the expected form"
    if error.validator == "const":
        return f"must be {error.validator_value!r}, got {error.instance!r}"
    if error.validator == "enum":
        choices = " | ".join(str(c) for c in error.validator_value)
        return f"{error.instance!r} is not one of: {choices}"
    return error.message


def validate(instance: Any, schema_name: str, *, source: Any = None) -> list[Issue]:
    """Validate ``instance`` against the named schema; ``source`` is the ruamel document for line numbers."""
    plain = to_plain(instance)
    validator = _validator(schema_name)
    issues: list[Issue] = []
    seen: set[tuple[str, str]] = set()
    for error in sorted(validator.iter_errors(plain), key=lambda e: [str(p) for p in e.absolute_path]):
        for path, message in _describe(error):
            key = (format_path(path), message)
            if key in seen:
                continue
            seen.add(key)
            line = line_of(source, path) if source is not None else None
            issues.append(Issue(format_path(path), message, line))
    return issues
