"""Chinese Fan-Tan, the banking game: bets on a joker's corners and sides against a banker's cut.

Small values (`Spot`, `Bet`, `Limits`), one state object (`BankGame`, push/pop), the pay order as a
pure function (`pay_hand`), and the record and verdict behind `fantan check` (docs/BANKING.md).
"""

from scorekeeper.banking.events import VARIANT, BankMatch, Cut, CutForBank, OpenBank, PlaceBet, Result
from scorekeeper.banking.flags import Flag
from scorekeeper.banking.game import BankGame, CutCard, Hand, Tenure
from scorekeeper.banking.layout import (
    CORNERS, MIN_CUT, PACK_SIZE, SIDES, SPOTS, BadSpot, Bet, Limits, Spot, is_fair_cut, winning_number,
)
from scorekeeper.banking.payout import BANK, Payout, Step, pay_hand, pay_order
from scorekeeper.banking.record import RecordError, read_record, write_record
from scorekeeper.banking.verdict import check_record, format_verdict, replay, verdict

__all__ = [
    "VARIANT", "BankMatch", "Cut", "CutForBank", "OpenBank", "PlaceBet", "Result", "Flag", "BankGame",
    "CutCard", "Hand", "Tenure", "CORNERS", "MIN_CUT", "PACK_SIZE", "SIDES", "SPOTS", "BadSpot", "Bet",
    "Limits", "Spot", "is_fair_cut", "winning_number", "BANK", "Payout", "Step", "pay_hand", "pay_order",
    "RecordError", "read_record", "write_record", "check_record", "format_verdict", "replay", "verdict",
]
