"""The night's chips: every game played at the table added into one balance per player.

A club night is several games: a Fan Tan match for chips, a round of Sjuan, an hour of the Chinese
banking game. Each leaves chips won and lost; the settle-up at the end wants one net figure per
player. This module adds them up, and refuses anything that would not square (a round whose pot
nobody took, chips that are not whole numbers), so that `settle` gets balances that sum to zero.

Accepted, in any mix:

- a verdict of `fantan check --json` for a chip-stakes match: ``{"rounds": [{"chips": {...},
  "winner": ...}, ...], ...}`` (the rounds are added; ``totals`` is not trusted on its own);
- a verdict of the banking game: ``{"variant": "chinese-fan-tan", "balances": {...}, ...}``;
- a plain mapping of name to chips, for one round or one game kept by hand.

>>> night = [
...     {"rounds": [{"winner": "Cleo", "chips": {"Anna": -5, "Ben": -7, "Cleo": 12}}]},
...     {"variant": "chinese-fan-tan", "balances": {"Anna": 6, "Dan": -6}},
...     {"Ben": 2, "Dan": -2},
... ]
>>> night_balances(night)
{'Anna': 1, 'Ben': -5, 'Cleo': 12, 'Dan': -8}

Players are matched by name exactly as written ("Anna" and "anna" are two players). The result is in
name order and holds every player seen, at zero too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["night_balances"]


def night_balances(results: Iterable[Mapping], *, leave_out_unwon: bool = False) -> dict[str, int]:
    """Each player's net chips over the night, ready for ``scorekeeper.settle.settle``.

    A round without a winner keeps its chips in a pot nobody took: it cannot be settled. By default
    that is a ValueError naming the game and round (finish the round first); with
    ``leave_out_unwon=True`` such rounds are left out, as if the chips went back to their owners.
    Any piece whose chips do not sum to zero, a points-only verdict, or chips that are not whole
    numbers is a ValueError that says which piece (counted from 1).
    """
    net: dict[str, int] = {}
    for number, result in enumerate(results, start=1):
        for where, chips in _pieces(result, number, leave_out_unwon):
            _add(net, chips, where)
    return dict(sorted(net.items()))


def _pieces(result: Mapping, number: int, leave_out_unwon: bool) -> Iterable[tuple[str, Mapping]]:
    """The zero-sum pieces of one game's result, each with words saying where it came from."""
    if not isinstance(result, Mapping):
        raise ValueError(f"game {number} is not a result (a verdict or a name-to-chips mapping)")
    if "rounds" in result and isinstance(result["rounds"], list):
        pieces = []
        for r, round_ in enumerate(result["rounds"], start=1):
            where = f"game {number}, round {r}"
            if not isinstance(round_, Mapping) or round_.get("chips") is None:
                raise ValueError(f"{where} has no chips: that game was played for points")
            if round_.get("winner") is None and "winner" in round_:
                if leave_out_unwon:
                    continue
                pot = -sum(_whole(v, where) for v in round_["chips"].values())
                raise ValueError(
                    f"{where} has no winner: {pot} chips lie in a pot nobody took; "
                    "finish the round, or leave unwon rounds out"
                )
            pieces.append((where, round_["chips"]))
        return pieces
    if "balances" in result and isinstance(result["balances"], Mapping):
        return [(f"game {number} ({result.get('variant', 'banking game')})", result["balances"])]
    return [(f"game {number}", result)]


def _add(net: dict[str, int], chips: Mapping, where: str) -> None:
    piece: dict[str, int] = {}
    for name, value in chips.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"{where}: player name {name!r} is empty or not text")
        piece[name] = _whole(value, f"{where}: {name}'s chips")
    total = sum(piece.values())
    if total != 0:
        raise ValueError(f"{where}: the chips sum to {total:+d}, not zero, so they cannot be settled")
    for name, value in piece.items():
        net[name] = net.get(name, 0) + value


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: {value!r} is not a whole number of chips")
    return value
