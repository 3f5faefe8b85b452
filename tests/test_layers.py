"""The layers of docs/dev/architecture.md: no module imports from a layer above its own."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "shangrao"

LAYERS = {
    "errors": 0, "strictjson": 0, "tiles": 1, "melds": 2, "analysis": 3, "scoring": 4, "rules": 4, "game": 5,
    "bots": 6, "sim": 6, "labels": 6, "encoding": 6, "train": 8, "records": 7, "cli": 8, "web": 8, "env": 8, "selfplay": 8, "arena": 8,
    "data": 8, "review": 6, "__init__": 8,
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


#: the compiled core (issue 23) is a back end of the front ends that play many hands, nothing else
SIM_USERS = {"cli", "env", "selfplay", "arena", "data", "sim"}
#: single modules outside those that may: the ``search`` bot plays its options out in the core (issue 35)
SIM_USER_MODULES = {"bots/search.py"}


def test_only_the_many_hands_front_ends_import_the_compiled_core():
    bad = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        own = rel.parts[0].removesuffix(".py")
        if own in SIM_USERS or rel.as_posix() in SIM_USER_MODULES:
            continue
        for line, target in _imports(path):
            if target == "sim":
                bad.append(f"{rel}:{line} imports sim")
    assert not bad, "\n".join(bad)


#: inside web/: the HTTP shell (routes, handlers, the app) above the table core it calls
WEB_SHELL = {"app", "pages", "api_tables", "api_games", "api_rooms", "socket", "watch", "failures", "http", "deps"}


def test_the_web_table_core_imports_nothing_of_the_http_shell():
    bad = []
    web = SRC / "web"
    for path in web.glob("*.py"):
        if path.stem in WEB_SHELL or path.stem == "__init__":  # (the package's list names create_app)
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
                    and node.module.split(".")[0] in WEB_SHELL):
                bad.append(f"web/{path.name}:{node.lineno} imports .{node.module}")
    assert not bad, "\n".join(bad)


def test_the_table_protocol_is_synchronous_and_reads_no_clock():
    """game/table.py takes ``now`` from its caller: no asyncio, no time module, no I/O."""
    text = (SRC / "game" / "table.py").read_text(encoding="utf-8")
    tree = ast.parse(text)
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not names & {"asyncio", "time", "datetime", "threading"}
    assert not any(isinstance(n, ast.AsyncFunctionDef) for n in ast.walk(tree))


def test_the_web_shell_stays_thin():
    """Issue 21: no file in web/ over 600 lines, web/tables.py under 700, create_app under 80, and no
    engine method assigned (the fair window is the engine's: Game.hold_windows)."""
    web = SRC / "web"
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in web.glob("*.py")}
    assert sizes["tables.py"] < 700 and max(sizes.values()) <= 600, sizes
    tree = ast.parse((web / "app.py").read_text(encoding="utf-8"))
    (create,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "create_app"]
    assert create.end_lineno is not None and create.end_lineno - create.lineno + 1 < 80
    for path in SRC.rglob("*.py"):
        assert "type: ignore[method-assign]" not in path.read_text(encoding="utf-8"), path
