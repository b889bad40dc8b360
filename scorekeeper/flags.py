"""Flags: what a replay finds wrong at a line of the record.

A flag is a finding, not an error: the record stays readable and the line is ignored (or, for an
illegal pass, costs extra).  Kinds, in the order they are checked on a line:
``unknown_player`` > ``out_of_turn`` > ``bad_card`` > ``illegal_play``; ``illegal_pass`` is raised
later, when a later line proves the passer held a playable card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

UNKNOWN_PLAYER = "unknown_player"
OUT_OF_TURN = "out_of_turn"
BAD_CARD = "bad_card"
ILLEGAL_PLAY = "illegal_play"
ILLEGAL_PASS = "illegal_pass"
KINDS = (ILLEGAL_PLAY, ILLEGAL_PASS, OUT_OF_TURN, UNKNOWN_PLAYER, BAD_CARD)


@dataclass(frozen=True, slots=True)
class Flag:
    """A finding at ``line``.

    ``card`` is the card code of an illegal play (canonical) or of a bad card (as written);
    ``proof_line`` and ``cards`` (canonical, deck order) say what proves an illegal pass;
    ``reason`` is a short note for people (not part of the verdict).
    """

    kind: str
    line: int
    player: Optional[str] = None
    card: Optional[str] = None
    proof_line: Optional[int] = None
    cards: Optional[tuple[str, ...]] = None
    reason: str = ""

    def to_json(self) -> dict:
        """Exactly the fields record-format.md gives this kind, in its order."""
        if self.kind == ILLEGAL_PASS:
            return {"kind": self.kind, "line": self.line, "player": self.player,
                    "proof_line": self.proof_line, "cards": list(self.cards or ())}
        if self.kind == ILLEGAL_PLAY:
            return {"kind": self.kind, "line": self.line, "player": self.player, "card": self.card}
        if self.kind == BAD_CARD:
            return {"kind": self.kind, "line": self.line, "card": self.card}
        return {"kind": self.kind, "line": self.line, "player": self.player}

    def explain(self) -> str:
        """One sentence in words, for the table and the dashboard."""
        if self.kind == ILLEGAL_PASS:
            cards = ", ".join(self.cards or ())
            proof = self.reason or "a later line"
            return (f"Line {self.line}: {self.player} passed while holding {cards}, which could be "
                    f"played (proven by {proof} at line {self.proof_line}).")
        if self.kind == ILLEGAL_PLAY:
            why = f" ({self.reason})" if self.reason else ""
            return f"Line {self.line}: {self.player} played {self.card}, which was not a legal play{why}; it goes back to the hand."
        if self.kind == OUT_OF_TURN:
            why = f" ({self.reason})" if self.reason else ""
            return f"Line {self.line}: {self.player} acted out of turn{why}; the line is ignored."
        if self.kind == UNKNOWN_PLAYER:
            return f"Line {self.line}: {self.player!r} is not at this table; the line is ignored."
        if self.kind == BAD_CARD:
            whose = f" ({self.player}'s line)" if self.player else (f" ({self.reason})" if self.reason else "")
            return f"Line {self.line}: {self.card!r} is not a card code{whose}; the line is ignored."
        return f"Line {self.line}: {self.kind}."
