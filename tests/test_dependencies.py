"""What the package needs at run time is what pyproject.toml says (issue 21: httpx only for tests)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _names(reqs: list[str]) -> set[str]:
    return {re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0].lower().replace("_", "-") for r in reqs}


def test_httpx_is_a_test_dependency_and_nothing_in_the_package_imports_it():
    project = _project()
    assert "httpx" not in _names(project["dependencies"])
    assert "httpx" in _names(project["optional-dependencies"]["test"])
    users = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "src" / "shangrao").rglob("*.py")
        if re.search(r"^\s*(import|from)\s+httpx\b", p.read_text(encoding="utf-8"), re.M)
    ]
    assert users == []


def test_the_server_libraries_are_runtime_dependencies():
    names = _names(_project()["dependencies"])
    assert {"alembic", "pydantic-settings", "prometheus-client", "sqlalchemy", "fastapi", "msgspec"} <= names
    assert "orjson" not in names  # the outgoing messages have one writer: msgspec (issue 21)
