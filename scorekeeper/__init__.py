"""scorekeeper: the Fan Tan rules engine - pure, no I/O, no clock, no camera.

One idea per module, in the order a card player would meet them:

- `cards`: the 52 cards and their codes (`parse_card('10♦️') -> Card('Td')`);
- `variants`: the presets (`fan-tan`, `sjuan`, `parliament`, `free`, `domino`) and `Options`;
- `events`: the record's lines as values (`MatchStart`, `RoundStart`, `Play`, `Pass`, `Draw`, `Show`, `End`);
- `round`: one deal, the state that knows the rules (`to_move`, `table`, `legal_plays`, push/pop);
- `flags`: what a replay finds wrong at a line;
- `scoring` and `ledger`: penalty points, and chips as transfers with reasons;
- `match`: the rounds of a night, totals, the match winner and the verdict;
- `record`: JSON Lines text <-> events;
- `simulate`: random matches with simple players;
- `settle`: the fewest payments that square the night; `banking`: the Chinese banking game.

The rules as implemented: docs/RULES.md; the record format: docs/RECORD.md.
"""
