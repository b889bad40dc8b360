"""Findings on a banking record: a line that breaks a rule but can still be read.

A flagged line is ignored (the bet is not placed, the cut does not count), except `wrong_banker`,
which is noted but stands, because the chips moved at the table all the same.
"""

from __future__ import annotations

from dataclasses import dataclass

#: kind -> the fields its JSON carries besides `kind` and `line`.
FIELDS: dict[str, tuple[str, ...]] = {
    "unknown_player": ("player",),
    "out_of_turn": ("player",),
    "bad_card": ("player", "card"),
    "wrong_banker": ("player", "expected"),
    "bank_open": ("player",),
    "bad_bank": ("player", "chips"),
    "no_bank": ("player",),
    "banker_bet": ("player",),
    "bad_spot": ("player", "spot"),
    "under_limit": ("player", "spot", "chips", "limit"),
    "over_limit": ("player", "spot", "chips", "limit"),
    "bad_cut": ("count",),
    "bad_result": ("number",),
}


@dataclass(frozen=True)
class Flag:
    """What is wrong at one record line. Unused fields stay None."""

    kind: str
    line: int
    player: str | None = None
    card: str | None = None
    spot: str | None = None
    chips: int | None = None
    limit: int | None = None
    count: int | None = None
    number: int | None = None
    expected: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in FIELDS:
            raise ValueError(f"unknown flag kind {self.kind!r}")

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind, "line": self.line}
        for name in FIELDS[self.kind]:
            out[name] = getattr(self, name)
        return out

    def explain(self) -> str:
        """One sentence for a person at the table."""
        who = self.player
        return {
            "unknown_player": f"{who} is not at this table; the line is ignored.",
            "out_of_turn": f"{who} is not due to cut for the bank now; the cut is ignored.",
            "bad_card": f"{who} cut {self.card!r}, which is not a card; the cut is ignored.",
            "wrong_banker": f"{who} took the bank, but it was {self.expected}'s; it stands."
            if self.expected
            else f"{who} took the bank before the cut for the bank was decided; it stands.",
            "bank_open": f"{who} opened a bank while a bank was running; the line is ignored.",
            "bad_bank": f"{who} opened a bank of {self.chips} chips; a bank holds at least 1.",
            "no_bank": (f"{who} bet" if who else "A cut was made") + " while no bank was open; ignored.",
            "banker_bet": f"{who} is the banker, and the banker does not bet; the bet is refused.",
            "bad_spot": f"{who} bet on {self.spot!r}, which is no place on the layout; refused.",
            "under_limit": f"{who} bet {self.chips} on {self.spot}, under the minimum of {self.limit}; refused.",
            "over_limit": f"{who} bet {self.chips} on {self.spot}, over the maximum of {self.limit}; refused.",
            "bad_cut": f"A cut of {self.count} cards is not at least a third of the pack (18 to 52); cut again.",
            "bad_result": f"{self.number} is not a winning number (1 to 4); ignored.",
        }[self.kind]
