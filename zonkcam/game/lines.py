"""An append-only list of text lines whose copies share every line: the game log and the
score sheets.

Every state of a game holds its log, and each action makes a new state. With a plain list
each action would copy the whole log; a :class:`Lines` copy costs the same at any length,
and appending to a copy leaves the original as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

_Node = tuple[Any, str]
"""(the node before, this line); the first node's predecessor is None."""


class Lines(Sequence[str]):
    """Append and read from either end in time independent of the length; a full pass
    (iteration, ``list()``, an index from the front) costs one walk of the list."""

    __slots__ = ("_tip", "_len")

    def __init__(self, lines: Iterable[str] = ()) -> None:
        self._tip: _Node | None = None
        self._len = 0
        for line in lines:
            self.append(line)

    def append(self, line: str) -> None:
        self._tip = (self._tip, line)
        self._len += 1

    def copy(self) -> Lines:
        """A copy sharing every line; appending to either leaves the other as it was."""
        new = Lines.__new__(Lines)
        new._tip, new._len = self._tip, self._len
        return new

    __copy__ = copy

    def __deepcopy__(self, memo: dict) -> Lines:
        return self.copy()  # lines are strings, and nodes are never changed

    def __len__(self) -> int:
        return self._len

    def __reversed__(self) -> Iterator[str]:
        node = self._tip
        while node is not None:
            yield node[1]
            node = node[0]

    def __iter__(self) -> Iterator[str]:
        return iter(self._last(self._len))

    def _last(self, n: int, skip: int = 0) -> list[str]:
        """The ``n`` lines before the last ``skip`` ones, in order."""
        out: list[str] = []
        node = self._tip
        for _ in range(skip):
            node = node[0]  # type: ignore[index]
        for _ in range(n):
            out.append(node[1])  # type: ignore[index]
            node = node[0]  # type: ignore[index]
        out.reverse()
        return out

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            if step != 1:
                return list(self)[index]
            return self._last(max(0, stop - start), self._len - stop) if stop > start else []
        i = index + self._len if index < 0 else index
        if not 0 <= i < self._len:
            raise IndexError("line index out of range")
        return self._last(1, self._len - 1 - i)[0]

    def __contains__(self, value: object) -> bool:
        return any(line == value for line in reversed(self))

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        for i, line in enumerate(self):
            if line == value and i >= start and (stop is None or i < stop):
                return i
        raise ValueError(f"{value!r} is not in the lines")

    def count(self, value: Any) -> int:
        return sum(line == value for line in reversed(self))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lines | list | tuple):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Lines({list(self)!r})"
