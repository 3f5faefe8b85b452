"""The layers of docs/dev/architecture.md: no module imports from a layer above its own, and no import
cycles inside the package (function-local imports counted)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "shangrao"

LAYERS = {
    "errors": 0,
    "strictjson": 0,
    "tiles": 1,
    "melds": 2,
    "analysis": 3,
    "scoring": 4,
    "rules": 4,
    "game": 5,
    "bots": 6,
    "sim": 6,
    "labels": 6,
    "encoding": 6,
    "train": 8,
    "ppo": 8,
    "records": 7,
    "cli": 8,
    "web": 8,
    "env": 8,
    "selfplay": 8,
    "arena": 8,
    "data": 8,
    "review": 6,
    "__init__": 8,
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
                out.append((node.lineno, _top(node.module[len("shangrao.") :])))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("shangrao."):
                    out.append((node.lineno, _top(a.name[len("shangrao.") :])))
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
SIM_USERS = {"cli", "env", "selfplay", "arena", "data", "sim", "ppo"}
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
WEB_SHELL = {
    "app",
    "pages",
    "api_tables",
    "api_games",
    "api_rooms",
    "socket",
    "watch",
    "failures",
    "http",
    "deps",
    "page_html",
}


def test_the_web_table_core_imports_nothing_of_the_http_shell():
    bad = []
    web = SRC / "web"
    for path in web.glob("*.py"):
        if path.stem in WEB_SHELL or path.stem == "__init__":  # (the package's list names create_app)
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.ImportFrom)
                and node.level == 1
                and node.module
                and node.module.split(".")[0] in WEB_SHELL
            ):
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


def test_the_app_factory_stays_thin_and_no_engine_method_is_patched():
    """Issue 21: create_app under 80 lines, and no engine method assigned (the fair window is the
    engine's: Game.hold_windows)."""
    tree = ast.parse((SRC / "web" / "app.py").read_text(encoding="utf-8"))
    (create,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "create_app"]
    assert create.end_lineno is not None and create.end_lineno - create.lineno + 1 < 80
    for path in SRC.rglob("*.py"):
        assert "type: ignore[method-assign]" not in path.read_text(encoding="utf-8"), path


# ---------------------------------------------------------------------- import cycles (issue 39)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in SRC.rglob("*.py")}


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:`` (never run: annotations only)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Import | ast.ImportFrom)}
    return out


def import_graph() -> dict[str, set[str]]:
    """module -> the package's modules it imports when run: at module level AND inside functions (a
    function-local import is a dependency too, only a later one), not under ``if TYPE_CHECKING:``.
    ``from .x import y`` counts as an import of the module ``x.y`` where that is a module, else of ``x``
    (a package's ``x`` is its ``__init__``)."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree)
        out: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - (node.level - 1)]
                    target = ".".join([*base, *(node.module.split(".") if node.module else [])])
                else:
                    target = node.module or ""
                for a in node.names:
                    if f"{target}.{a.name}" in MODULES:
                        out.add(f"{target}.{a.name}")
                    elif target in MODULES:
                        out.add(target)
            elif isinstance(node, ast.Import):
                out |= {a.name for a in node.names if a.name in MODULES}
        out.discard(name)
        graph[name] = out
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    group = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        group.append(w)
                        if w == v:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


#: cycles known and owned elsewhere, each named with why it is still here (issue 39).  Nothing else
#: may form a cycle; a group that shrinks or goes away passes.
KNOWN_CYCLES = {
    # the compiled core's play <-> vector: issue 39's schema work (helper i39-core) removes it
    frozenset({"shangrao.sim.play", "shangrao.sim.vector"}),
}


def test_the_import_graph_sees_function_local_imports():
    """The graph counts an import inside a function (the way the four cycles of issue 39 were hidden)
    and leaves out ``if TYPE_CHECKING:`` ones."""
    graph = import_graph()
    assert "shangrao.records.compact" in graph["shangrao.records.store"]  # StoredHand.events: a local import
    assert "shangrao.web.tables" not in graph["shangrao.web.spectators"]  # annotations only
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles_inside_the_package():
    """Every module's dependencies go one way: no group of the package's modules imports each other
    round, counting function-local imports (records: compact/store/migrations, web: failures/pages and
    manager/manners/spectators/tables were such cycles, each hidden by a function-local import)."""
    bad = [group for group in import_cycles(import_graph()) if not any(set(group) <= known for known in KNOWN_CYCLES)]
    assert not bad, "import cycles: " + "; ".join(" <-> ".join(g) for g in bad)


def test_the_web_table_and_manager_hold_collaborators_not_mixins():
    """Issue 39: ``Table`` and ``TableManager`` inherit nothing (their parts are objects they hold), and no
    class in web/ stubs a method of a host with ``raise NotImplementedError``."""
    from shangrao.web.manager import TableManager
    from shangrao.web.tables import Table

    assert Table.__bases__ == (object,) and TableManager.__bases__ == (object,)
    stubs = []
    for path in (SRC / "web").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                body = [b for b in node.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
                if len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.unparse(body[0]):
                    stubs.append(f"web/{path.name}:{node.lineno} {node.name}")
    assert not stubs, stubs
