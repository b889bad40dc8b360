"""Cards and card codes.

A card is a small immutable value, like `chess.Move`: there are exactly 52 of them, made once and
shared, so comparing and hashing are cheap on the replay's hot path.

Codes are read leniently and written one way (record-format.md): ``7d``, ``Th``; readers also accept
``10`` for ``T``, any letter case, and a suit symbol (``♣ ♦ ♥ ♠``, each optionally followed by the
emoji variation selector U+FE0F) before or after the rank.  The suit *letter* never comes first:
``d7`` is no card.

>>> parse_card("10♦️")
Card('Td')
>>> str(parse_card("♠a"))
'As'
>>> [c.code for c in DECK[:3]]
['Ac', '2c', '3c']
"""

from __future__ import annotations

from typing import Iterable, Iterator

SUITS = "cdhs"
"""Suit letters in deck order: clubs, diamonds, hearts, spades."""

RANKS = "A23456789TJQK"
"""Rank letters in deck order, ace low; rank number = index + 1."""

SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
VARIATION_SELECTOR = "\ufe0f"


class BadCard(ValueError):
    """A card code that names no card (the record keeps it as written and flags `bad_card`)."""


class Card:
    """One of the 52 cards. ``rank`` is 1..13 (A=1, K=13), ``suit`` one of ``c d h s``.

    Cards are interned: ``Card`` objects are only made for the deck, so ``parse_card`` and
    ``card_from_index`` always hand back the same object for the same card.
    """

    __slots__ = ("rank", "suit", "index", "code", "bit")

    rank: int
    suit: str
    index: int  # position in deck order, 0..51
    code: str  # canonical code, e.g. '7d'
    bit: int  # 1 << index: cards in a hand or on the table are kept as bit masks

    def __init__(self, rank: int, suit: str) -> None:
        if not (1 <= rank <= 13) or suit not in SUITS:
            raise BadCard(f"no card has rank {rank!r} and suit {suit!r}")
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        index = SUITS.index(suit) * 13 + rank - 1
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "code", RANKS[rank - 1] + suit)
        object.__setattr__(self, "bit", 1 << index)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __new__(cls, rank: int, suit: str) -> "Card":
        # Interning: Card(7, 'd') is DECK[...] once the deck exists.
        try:
            return _DECK_BY_RANK_SUIT[(rank, suit)]
        except (KeyError, NameError):
            return super().__new__(cls)

    def __reduce__(self):  # copy / pickle give back the interned card
        return (card_from_index, (self.index,))

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.index == self.index)

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: "Card") -> bool:
        return self.index < other.index

    def __le__(self, other: "Card") -> bool:
        return self.index <= other.index

    def __gt__(self, other: "Card") -> bool:
        return self.index > other.index

    def __ge__(self, other: "Card") -> bool:
        return self.index >= other.index

    @property
    def suit_index(self) -> int:
        return self.index // 13

    def name(self) -> str:
        """Words for a person: 'seven of diamonds'."""
        words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                 9: "nine", 10: "ten"}
        rank = RANK_NAMES.get(self.rank) or words[self.rank]
        return f"{rank} of {SUIT_NAMES[self.suit]}"


_DECK_BY_RANK_SUIT: dict[tuple[int, str], Card] = {}
DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
"""The 52 cards in deck order (suits c d h s, within a suit A 2 ... K)."""
for _card in DECK:
    _DECK_BY_RANK_SUIT[(_card.rank, _card.suit)] = _card
del _card

FULL_MASK = (1 << 52) - 1


def card_from_index(index: int) -> Card:
    """The card at ``index`` in deck order (0 = Ac, 51 = Ks)."""
    return DECK[index]


_RANK_WORDS = {letter: i + 1 for i, letter in enumerate(RANKS)}
_RANK_WORDS.update({letter.lower(): i + 1 for i, letter in enumerate(RANKS)})
_RANK_WORDS["10"] = 10
_SUIT_LETTERS = {**{s: s for s in SUITS}, **{s.upper(): s for s in SUITS}}
_PARSED: dict[str, Card] = {}


def _parse(code: str) -> Card:
    if not code:
        raise BadCard("an empty card code")
    if code[0] in SUIT_SYMBOLS:  # symbol first: '♦7', '♦️10'
        suit, rank_text = SUIT_SYMBOLS[code[0]], code[1:]
        if rank_text.startswith(VARIATION_SELECTOR):
            rank_text = rank_text[1:]
    elif code.endswith(VARIATION_SELECTOR) and len(code) > 1 and code[-2] in SUIT_SYMBOLS:
        suit, rank_text = SUIT_SYMBOLS[code[-2]], code[:-2]
    elif code[-1] in SUIT_SYMBOLS:
        suit, rank_text = SUIT_SYMBOLS[code[-1]], code[:-1]
    elif code[-1] in _SUIT_LETTERS:  # the suit letter comes last, never first
        suit, rank_text = _SUIT_LETTERS[code[-1]], code[:-1]
    else:
        raise BadCard(f"{code!r} is not a card code (no suit)")
    rank = _RANK_WORDS.get(rank_text)
    if rank is None:
        raise BadCard(f"{code!r} is not a card code (no rank)")
    return _DECK_BY_RANK_SUIT[(rank, suit)]


def parse_card(code: str) -> Card:
    """Read a card code in any accepted spelling; raise `BadCard` if it names no card."""
    card = _PARSED.get(code)
    if card is not None:
        return card
    if isinstance(code, Card):
        return code
    if not isinstance(code, str):
        raise BadCard(f"{code!r} is not a card code")
    card = _parse(code)
    if len(_PARSED) < 10_000:  # bounded cache: records are written by people and cameras
        _PARSED[code] = card
    return card


def is_card_code(code: str) -> bool:
    """True if `parse_card` would accept ``code``."""
    try:
        parse_card(code)
    except BadCard:
        return False
    return True


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a bit mask, in deck order."""
    while mask:
        low = mask & -mask
        yield DECK[low.bit_length() - 1]
        mask ^= low


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted in deck order (how every list of cards in a verdict is written)."""
    return sorted(cards, key=lambda c: c.index)
