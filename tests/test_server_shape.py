"""The server's inside stays made of parts (issue 38): no class of the table service or the
operator's side does everything, each part is given its collaborators when it is made (none
typed ``Any``, none assigned afterwards), and the table service does not know the
operator's side."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from test_layers import import_graph

from trash_tui.admin.casework import Casework
from trash_tui.admin.commands import AdminCommands
from trash_tui.tables.desk import Desk
from trash_tui.tables.hub import Hub
from trash_tui.tables.keeper import Keeper
from trash_tui.tables.pacer import Pacer
from trash_tui.tables.requests import Requests
from trash_tui.tables.rooms import Rooms
from trash_tui.tables.service import TableService
from trash_tui.tables.social import Social
from trash_tui.tables.worker import Worker

ROOT = Path(__file__).resolve().parent.parent / "trash_tui"
PARTS = ("tables", "admin")
MAX_METHODS, MAX_LINES = 30, 600


def modules(*folders: str) -> list[Path]:
    return [path for folder in folders for path in sorted((ROOT / folder).glob("*.py"))]


def test_no_class_of_the_server_side_has_over_30_methods_nor_a_module_over_600_lines(
        ) -> None:
    classes: dict[str, tuple[list[str], set[str]]] = {}  # name: bases, methods
    long = []
    for path in modules(*PARTS):
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_LINES:
            long.append(path.name)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                methods = {item.name for item in node.body
                           if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)}
                classes[node.name] = ([ast.unparse(b) for b in node.bases], methods)

    def all_methods(name: str) -> set[str]:  # (the project's base classes' too)
        bases, methods = classes[name]
        return methods.union(*(all_methods(b) for b in bases if b in classes))

    big = {name: len(all_methods(name)) for name in classes
           if len(all_methods(name)) > MAX_METHODS}
    assert big == {} and long == []


def test_the_table_service_does_not_import_the_operators_side() -> None:
    graph = import_graph()
    assert not [(name, imported) for name, imports in graph.items()
                if name.startswith("trash_tui.tables") for imported in imports
                if imported.startswith("trash_tui.admin")]


def test_nothing_is_assigned_onto_the_table_service_after_it_is_made() -> None:
    """Its collaborators are its constructor's arguments; a reload goes through
    ``reconfigure``."""
    assigned = []
    for path in modules("ssh", "admin", "cli"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
            for target in targets:
                if isinstance(target, ast.Attribute):
                    owner = ast.unparse(target.value)
                    if owner.split(".")[-1] in ("tables", "service"):
                        assigned.append(f"{path.name}: {ast.unparse(target)}")
    assert assigned == []


def test_no_collaborator_of_the_servers_parts_is_typed_any() -> None:
    untyped = [f"{part.__name__}({name})"
               for part in (TableService, Worker, Hub, Rooms, Pacer, Social, Keeper, Desk,
                            Requests, AdminCommands, Casework)
               for name, parameter in inspect.signature(part.__init__).parameters.items()
               if name != "self" and (parameter.annotation in ("Any", inspect.Parameter.empty)
                                      or "Any" in str(parameter.annotation).split("[")[0])]
    assert untyped == []
