"""Card codes as people, cameras and the spec write them."""

from __future__ import annotations

import copy
import pickle

import pytest

from scorekeeper.cards import DECK, BadCard, Card, parse_card


@pytest.mark.parametrize("code", ["7d", "7D", "♦7", "7♦", "♦️7", "7♦️"])
def test_the_seven_of_diamonds_in_every_spelling(code):
    assert parse_card(code) == Card(7, "d")
    assert parse_card(code).code == "7d"


@pytest.mark.parametrize("code, canonical", [
    ("10d", "Td"), ("Td", "Td"), ("td", "Td"), ("10♦️", "Td"), ("♦10", "Td"),
    ("ah", "Ah"), ("♣a", "Ac"), ("♠️J", "Js"), ("K♥️", "Kh"), ("qc", "Qc"), ("2S", "2s"),
])
def test_other_accepted_spellings(code, canonical):
    assert str(parse_card(code)) == canonical


@pytest.mark.parametrize("code", [
    "d7",      # the suit letter never comes first
    "1h",      # there is no rank 1
    "11s", "0c", "7x", "77d", "7", "d", "", " 7d", "7d ", "♦", "♦7d", "7d♦", "7♦️️", "️7♦", "10",
    "T10d", "7dd",
])
def test_codes_that_name_no_card(code):
    with pytest.raises(BadCard):
        parse_card(code)


def test_bad_card_is_a_value_error():
    assert issubclass(BadCard, ValueError)


def test_the_deck_is_52_cards_in_deck_order():
    assert len(DECK) == 52 == len(set(DECK))
    assert [c.code for c in DECK[:14]] == ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc",
                                          "Jc", "Qc", "Kc", "Ad"]
    assert DECK[-1].code == "Ks"
    assert sorted(DECK, key=lambda c: (c.suit == "c", c.rank)) != list(DECK)  # the check can fail
    assert sorted(reversed(DECK)) == list(DECK)


def test_a_card_is_a_small_immutable_value():
    card = parse_card("7d")
    assert (card.rank, card.suit, card.code, str(card)) == (7, "d", "7d", "7d")
    with pytest.raises(AttributeError):
        card.rank = 8
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert {card: 1}[Card(7, "d")] == 1


def test_card_names_in_words():
    assert parse_card("7d").name() == "seven of diamonds"
    assert parse_card("Qs").name() == "queen of spades"
