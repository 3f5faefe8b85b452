"""The layers of docs/dev/architecture.md: no module imports from a layer above its own."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "shangrao"

LAYERS = {
    "errors": 0, "strictjson": 0, "tiles": 1, "melds": 2, "analysis": 3, "scoring": 4, "rules": 4, "game": 5,
    "bots": 6, "labels": 6, "encoding": 6, "train": 8, "records": 7, "cli": 8, "web": 8, "env": 8, "selfplay": 8, "arena": 8,
    "data": 8, "__init__": 8,
}


def _top(module: str) -> str:
    return module.split(".")[0]


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level shangrao module) of every import in ``path``, lazy ones included."""
    rel = path.relative_to(SRC).with_suffix("")
    package = list(rel.parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = [*base, *(node.module.split(".") if node.module else [])]
                if not target:  # "from . import x" at the top: x is a module
                    target = [node.names[0].name]
                out.append((node.lineno, target[0]))
            elif node.module and node.module.startswith("shangrao."):
                out.append((node.lineno, _top(node.module[len("shangrao."):])))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("shangrao."):
                    out.append((node.lineno, _top(a.name[len("shangrao."):])))
    return out


def test_no_module_imports_from_a_higher_layer():
    bad = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        own = LAYERS[rel.parts[0].removesuffix(".py")]
        for line, target in _imports(path):
            if target in LAYERS and LAYERS[target] > own:
                bad.append(f"{rel}:{line} imports {target} (layer {LAYERS[target]} > {own})")
    assert not bad, "\n".join(bad)
