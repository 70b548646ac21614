"""Text shown as it is typed: never read as Rich/Textual markup.

Textual reads a plain string as markup in most widgets (``Label``, ``Static``, a toast, a
DataTable's cells and column labels, a border title): an operator's or a player's ``[/]``
would end the session with a ``MarkupError``, a ``[b]`` would bold what follows. The app's
text widgets are made with ``markup=False`` (a test checks every one); ``plain`` makes a
``Text`` of a string, and ``PlainTable`` is a DataTable whose string cells and column
labels are plain text.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable


def plain(text: object) -> Text:
    """``text`` (a ``Text`` kept as it is) as a ``Text`` that holds no markup."""
    return text if isinstance(text, Text) else Text(str(text))


def _cell(value: Any) -> Any:
    return Text(value, end="") if isinstance(value, str) else value


class PlainTable(DataTable[Any]):
    """A DataTable whose string cells and column labels are shown as they are."""

    def add_column(self, label: Any, *args: Any, **kwargs: Any) -> Any:
        return super().add_column(_cell(label), *args, **kwargs)

    def add_columns(self, *labels: Any) -> Any:
        return super().add_columns(*(_cell(label) for label in labels))

    def add_row(self, *cells: Any, **kwargs: Any) -> Any:
        return super().add_row(*(_cell(cell) for cell in cells), **kwargs)

    def update_cell(self, row_key: Any, column_key: Any, value: Any,
                    *args: Any, **kwargs: Any) -> None:
        super().update_cell(row_key, column_key, _cell(value), *args, **kwargs)

    def update_cell_at(self, coordinate: Any, value: Any, *args: Any, **kwargs: Any) -> None:
        super().update_cell_at(coordinate, _cell(value), *args, **kwargs)
