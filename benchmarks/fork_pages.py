"""Where a forked process's private memory comes from: pages copied from its parent, or
its own.

A session app is forked from the fork server, which has imported the whole app: at first
every page of the server's memory is shared with the session. A page is copied (and then
counts in full, in the session's private memory) the first time the session writes to it.
On CPython 3.11 a write is not only an assignment: reading a function, a constant or a
class from the shared memory changes its reference count, which is a write. This script
compares a process's pages with those of its parent, page by page (the page frame numbers
of ``/proc/PID/pagemap``, which only root may read), and sorts its private memory into:

* **copied**: a page of the parent that the process has copied, split into pages whose
  bytes now differ from the parent's and pages that hold the **same bytes again** (touched
  and then set back: a reference count that went up and down again);
* **its own**: the rest of its private memory (memory the process allocated itself).

    python benchmarks/fork_pages.py PID [PID ...]   # as root; PID's parent is compared

``benchmarks/ssh.py --pages`` prints this for the session apps of its run.
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import struct
import sys
from collections.abc import Iterator, Sequence
from typing import BinaryIO

PAGE = os.sysconf("SC_PAGE_SIZE")
MB = 1024 * 1024
_PRESENT = 1 << 63
_FRAME = (1 << 55) - 1


@dataclasses.dataclass(frozen=True)
class PageSplit:
    """A process's private memory in MB, by where its pages come from."""

    private: float  # all of it (smaps_rollup: Private_Clean + Private_Dirty)
    copied: float  # pages of the parent the process has copied
    set_back: float  # of those, pages whose bytes are the parent's again
    own: float  # the rest: memory the process allocated itself


def parent_of(pid: int) -> int | None:
    """The parent process of ``pid``, None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            return int(file.read().rpartition(")")[2].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def writable_private(pid: int) -> Iterator[tuple[int, int]]:
    """The address ranges of ``pid``'s writable private mappings (heap, anonymous memory,
    the data of its libraries)."""
    with open(f"/proc/{pid}/maps", encoding="ascii") as file:
        for line in file:
            fields = line.split()
            if len(fields) >= 2 and fields[1][1] == "w" and fields[1][3] == "p":
                start, end = (int(part, 16) for part in fields[0].split("-"))
                yield start, end


def frames(pid: int, start: int, end: int) -> tuple[int, ...]:
    """The pagemap entries of ``pid`` for the pages of ``start``..``end``."""
    with open(f"/proc/{pid}/pagemap", "rb") as file:
        file.seek(start // PAGE * 8)
        data = file.read((end - start) // PAGE * 8)
    return struct.unpack(f"{len(data) // 8}Q", data)


def private_mb(pid: int) -> float:
    """``pid``'s private memory in MB (smaps_rollup)."""
    total = 0
    with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as file:
        for line in file:
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total += int(line.split()[1])
    return total / 1024


def split(pid: int, parent: int | None = None) -> PageSplit | None:
    """How ``pid``'s private memory splits between pages copied from ``parent`` (by
    default its parent process) and its own; None if a process is gone or the page frame
    numbers cannot be read (they read as 0 unless this process runs as root)."""
    parent = parent if parent is not None else parent_of(pid)
    if parent is None:
        return None
    copied = set_back = 0
    seen_frame = False
    try:
        private = private_mb(pid)
        with open(f"/proc/{parent}/mem", "rb", buffering=0) as parent_mem, \
                open(f"/proc/{pid}/mem", "rb", buffering=0) as child_mem:
            for start, end in writable_private(parent):
                mine, theirs = frames(parent, start, end), frames(pid, start, end)
                for index, (entry, child_entry) in enumerate(zip(mine, theirs, strict=False)):
                    if not entry & _PRESENT or not child_entry & _PRESENT:
                        continue
                    seen_frame = seen_frame or bool(entry & _FRAME)
                    if entry & _FRAME == child_entry & _FRAME:
                        continue  # still shared
                    copied += 1
                    address = start + index * PAGE
                    if read_page(parent_mem, address) == read_page(child_mem, address):
                        set_back += 1
    except OSError:
        return None
    if not seen_frame:
        return None
    copied_mb, set_back_mb = copied * PAGE / MB, set_back * PAGE / MB
    return PageSplit(private=private, copied=copied_mb, set_back=set_back_mb,
                     own=max(0.0, private - copied_mb))


def read_page(memory: BinaryIO, address: int) -> bytes:
    """The page at ``address`` of an open /proc/PID/mem."""
    memory.seek(address)
    return memory.read(PAGE)


def summary(splits: Sequence[PageSplit], parent: str = "the fork server") -> str:
    """One line: the medians of ``splits`` (``parent``: what the processes forked from)."""
    def median(field: str) -> float:
        return statistics.median(getattr(page_split, field) for page_split in splits)

    return (f"private {median('private'):.1f} MB = copied from {parent} "
            f"{median('copied'):.1f} MB (of which {median('set_back'):.1f} MB hold the same "
            f"bytes again: touched and set back) + its own {median('own'):.1f} MB "
            f"(medians of {len(splits)})")


def main(arguments: Sequence[str]) -> int:
    if not arguments or not all(argument.isdigit() for argument in arguments):
        print("usage: python benchmarks/fork_pages.py PID [PID ...]", file=sys.stderr)
        return 2
    splits = []
    for argument in arguments:
        page_split = split(int(argument))
        if page_split is None:
            print(f"fork_pages: cannot compare process {argument} with its parent "
                  f"(gone, or not root: page frame numbers read as 0)", file=sys.stderr)
            return 1
        print(f"{argument}: {summary([page_split], 'its parent')}")
        splits.append(page_split)
    if len(splits) > 1:
        print(f"all: {summary(splits, 'their parents')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
