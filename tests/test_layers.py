"""The layers point one way (docs/ARCHITECTURE.md): rules → engine → bots → storage → tournaments →
the app, the SSH server and the command line; nothing below imports from above, and no
two modules import each other, directly or around a loop, when the program runs (imports
only for type checking do not count). The top layer has an order of its own (issue 38):
play → tables → admin → ssh, play → app → ssh, and the command line over all of them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("trash_tui", "bots")

#: Each layer by its modules' names (a name stands for the module and everything under it).
LAYERS = {
    "rules": ("trash_tui.__init__", "trash_tui.cards", "trash_tui.rules", "trash_tui.presets",
              "trash_tui.games", "trash_tui.rules_file", "trash_tui.text", "trash_tui.toml_file",
              "trash_tui.standing"),
    "engine": ("trash_tui.engine", "trash_tui.neighbor"),
    "bots": ("bots",),
    # the history database and the rating as a value it keeps; the rating model and the
    # anchors are above it and handed to it (trash_tui/players/rater.py)
    "storage": ("trash_tui.history", "trash_tui.players.rating"),
    "tournaments": ("trash_tui.simulate", "trash_tui.stats", "trash_tui.tournament"),
}
ORDER = ("rules", "engine", "bots", "storage", "tournaments", "top")

#: The top layer's parts, each with the parts it may import from (a partial order: the app
#: and the table service know nothing of each other; the SSH server holds both).
TOP_PARTS = {
    # a game's play without a screen or a server: controllers, the turn driver, saving;
    # the players' ratings, identities and statistics; the user's settings file
    "play": ("trash_tui.play", "trash_tui.players", "trash_tui.settings"),
    "tables": ("trash_tui.tables",),
    "admin": ("trash_tui.admin",),
    "app": ("trash_tui.app",),
    "ssh": ("trash_tui.ssh",),
    "web": ("trash_tui.web",),
    "cli": ("trash_tui.cli", "trash_tui.__main__"),
}
TOP_IMPORTS = {
    "play": (),
    "tables": ("play",),
    "admin": ("play", "tables"),
    "app": ("play",),
    "ssh": ("play", "tables", "admin", "app"),
    "web": ("play", "tables", "admin", "ssh"),
    "cli": ("play", "tables", "admin", "app", "ssh", "web"),
}
#: Imports against the top layer's order found when it was written, each with its reason;
#: the lead resolves them (the check fails once one is gone, so its mark goes too).
KNOWN_AGAINST_THE_ORDER: dict[tuple[str, str], str] = {}  # (none: issue 38 closed them)


def module_names() -> dict[str, Path]:
    names: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names[".".join(parts)] = path
    return names


def runtime_imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules ``name`` imports when it runs (anywhere in it, functions
    included; not under ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for branch in ast.walk(tree)
                   if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                   for node in ast.walk(branch)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names} & set(known)
            found.update(submodules)
            if len(submodules) < len(node.names):  # names from the module itself
                found.add(base)
    return {module for module in found if module in known and module != name}


def layer_of(name: str) -> str:
    if name == "trash_tui":  # the package itself: its name and version
        name = "trash_tui.__init__"
    for layer, prefixes in LAYERS.items():
        if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes):
            return layer
    return "top"


def top_part_of(name: str) -> str:
    for part, prefixes in TOP_PARTS.items():
        if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes):
            return part
    raise LookupError(f"{name} is in no part of the top layer (TOP_PARTS)")


def against_the_top_order(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The imports of a top module from a part of the top layer it may not import."""
    return {(name, imported) for name, imports in graph.items() if layer_of(name) == "top"
            for imported in imports if layer_of(imported) == "top"
            and top_part_of(imported) != top_part_of(name)
            and top_part_of(imported) not in TOP_IMPORTS[top_part_of(name)]}


def import_graph() -> dict[str, set[str]]:
    known = module_names()
    return {name: runtime_imports(name, path, known) for name, path in known.items()}


def test_the_storage_layer_does_not_import_the_rating_model() -> None:
    """Issue 30: the history keeps ratings; the model that computes them (openskill, the
    anchors) is passed in from above."""
    graph = import_graph()
    storage = [name for name in graph if layer_of(name) == "storage"]
    model = ("trash_tui.players.model", "trash_tui.players.anchors", "trash_tui.players.rater")
    assert storage and not [(name, imported) for name in storage for imported in graph[name]
                            if imported in model]


def test_nothing_below_imports_from_above() -> None:
    upward = [f"{name} ({layer_of(name)}) imports {imported} ({layer_of(imported)})"
              for name, imports in sorted(import_graph().items()) for imported in sorted(imports)
              if ORDER.index(layer_of(imported)) > ORDER.index(layer_of(name))]
    assert upward == []


def test_the_top_layer_has_an_order() -> None:
    """play → tables → admin → ssh and play → app → ssh (issue 38): every module of the
    top layer is in one part, and imports only from its own part and those below it."""
    graph = import_graph()
    assert {top_part_of(name) for name in graph if layer_of(name) == "top"} == set(TOP_PARTS)
    found = against_the_top_order(graph)
    assert sorted(found - set(KNOWN_AGAINST_THE_ORDER)) == []
    gone = sorted(set(KNOWN_AGAINST_THE_ORDER) - found)
    assert gone == [], f"no longer imported, so its mark in KNOWN_AGAINST_THE_ORDER goes: {gone}"


def test_the_order_check_finds_an_import_against_it() -> None:
    graph = {"trash_tui.play.turns": {"trash_tui.app.app"},
             "trash_tui.app.app": {"trash_tui.play.turns", "trash_tui.ssh.session"},
             "trash_tui.ssh.session": {"trash_tui.app.app", "trash_tui.tables.service"},
             "trash_tui.tables.service": {"trash_tui.play.saving"},
             "trash_tui.play.saving": set()}
    assert against_the_top_order(graph) == {("trash_tui.play.turns", "trash_tui.app.app"),
                                             ("trash_tui.app.app", "trash_tui.ssh.session")}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_no_modules_import_each_other_at_run_time() -> None:
    assert import_cycles(import_graph()) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c"]]
