"""The JSON Schemas of the report files, generated from the pydantic models.

The committed copies live in ``engine/schemas/``; a test regenerates them and
fails on any difference. After changing ``engine/report/models.py`` run
``python -m engine.report.schema`` to rewrite them.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from referee.engine.report.models import GradingReport, GroundTruth

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"
SCHEMAS: dict[str, type[BaseModel]] = {
    "grading.schema.json": GradingReport, "ground_truth.schema.json": GroundTruth,
}


def schema_text(model: type[BaseModel]) -> str:
    """The schema as committed: draft 2020-12, keys in pydantic's order, final newline."""
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              **model.model_json_schema(mode="serialization")}
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"


def write_schemas(directory: Path = SCHEMA_DIR) -> list[Path]:
    written = []
    for name, model in SCHEMAS.items():
        path = directory / name
        path.write_text(schema_text(model), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_schemas():
        print(path.name)
