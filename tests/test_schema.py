"""The committed JSON Schemas match the models, and every report we write fits them.

The validator below covers the subset of JSON Schema that pydantic emits for the
report models ($ref/$defs, type, properties, required, additionalProperties,
items, enum, const, anyOf); anything else in a schema is a test failure, so a
model change that needs more cannot slip by unchecked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.report.schema import SCHEMA_DIR, SCHEMAS, schema_text

KNOWN = {"$schema", "$defs", "$ref", "type", "properties", "required", "additionalProperties", "items",
         "enum", "const", "anyOf", "title", "description", "default"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def load(name: str) -> dict:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


def validate(value, schema: dict, root: dict, where: str = "$") -> list[str]:
    unknown = set(schema) - KNOWN
    assert not unknown, f"schema keyword(s) the test validator does not know: {unknown}"
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return validate(value, root["$defs"][name], root, where)
    if "anyOf" in schema:
        options = [validate(value, option, root, where) for option in schema["anyOf"]]
        return [] if any(not o for o in options) else [f"{where}: matches no option"]
    errors = _type_errors(value, schema.get("type"), where)
    if errors:
        return errors
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} not in {schema['enum']}"]
    if "const" in schema and value != schema["const"]:
        return [f"{where}: {value!r} != {schema['const']!r}"]
    if isinstance(value, dict):
        errors += _object_errors(value, schema, root, where)
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            errors += validate(item, schema["items"], root, f"{where}[{index}]")
    return errors


def _type_errors(value, kind, where: str) -> list[str]:
    if kind is None:
        return []
    if kind == "integer":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == "number":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = isinstance(value, TYPES[kind])
    return [] if ok else [f"{where}: expected {kind}, found {type(value).__name__}"]


def _object_errors(value: dict, schema: dict, root: dict, where: str) -> list[str]:
    errors = [f"{where}: missing {key!r}" for key in schema.get("required", []) if key not in value]
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        if key in properties:
            errors += validate(item, properties[key], root, f"{where}.{key}")
        elif extra is False:
            errors.append(f"{where}: unexpected {key!r}")
        elif isinstance(extra, dict):
            errors += validate(item, extra, root, f"{where}.{key}")
    return errors


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schema_has_not_drifted(name):
    committed = (SCHEMA_DIR / name).read_text(encoding="utf-8")
    assert committed == schema_text(SCHEMAS[name]), (
        f"engine/schemas/{name} is out of date: run python -m referee.engine.report.schema")


def test_validator_rejects_what_it_should():
    schema = load("grading.schema.json")
    assert validate({}, schema, schema)
    assert validate({"expectations": "x"}, schema, schema)


def validate_tree(root: Path) -> int:
    """Validate every report under ``root``; returns how many were checked."""
    count = 0
    for name, schema_name in (("grading.json", "grading.schema.json"),
                              ("ground_truth.json", "ground_truth.schema.json")):
        schema = load(schema_name)
        for path in sorted(root.rglob(name)):
            errors = validate(json.loads(path.read_text(encoding="utf-8")), schema, schema)
            assert not errors, f"{path}: {errors[:5]}"
            count += 1
    return count
