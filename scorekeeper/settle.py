"""The end-of-night settle-up: the fewest payments that square every player.

Why it is a search and not a greedy loop: a set of payments squares everyone exactly when every
group of players it connects has net chips summing to zero, and a connected group of k players
needs at least k - 1 payments. So the fewest payments for n players with non-zero balances is
n minus the largest number of zero-sum groups those balances can be split into. Paying largest
debtor to largest creditor finds *a* settlement of at most n - 1 payments, but it misses splits
such as {+5 -2 -3} {+4 -1 -3}: four payments where greedy pays five.

    >>> s = settle({"Anna": 12, "Ben": -5, "Cleo": -7})
    >>> [(p.src, p.dst, p.chips) for p in s.payments], s.proven_minimal
    ([('Ben', 'Anna', 5), ('Cleo', 'Anna', 7)], True)

How the split is found (docs/SETTLE.md has the long version):

1. Players at zero pay nothing. A player at +x and one at -x always settle with each other: some
   best split keeps them as a group of two, so matched pairs are peeled off first (exact).
2. Up to ``exact_up_to`` remaining players, an exhaustive dynamic programme over all subsets (bit
   sets held in numpy words) gives a proven optimum.
3. Beyond that, a branch-and-bound search over the group holding the hardest player, with the
   exhaustive programme for small remainders and upper bounds to stop early. It works to a fixed
   step budget (so the same balances give the same answer) with the clock only as a backstop;
   ``proven_minimal`` says whether it finished or met its bound.

The engine is pure: no I/O; the only clock is the one passed in for the time budget.
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

__all__ = ["Payment", "Settlement", "settle", "EXACT_UP_TO"]

#: Largest number of players left after peeling zeros and matched pairs that the exhaustive
#: programme takes on: 0.03-0.15 s at 24 on the project's shared 2-core build machine, 0.2-0.8 s
#: at 26 (each player more doubles it).
EXACT_UP_TO = 24
#: Deterministic work budget of the search beyond EXACT_UP_TO (steps of group enumeration).
DEFAULT_MAX_STEPS = 150_000
#: Remainders this small are handed from the search to the exhaustive programme.
_LEAF = 14
#: Steps of the short search tried before the exhaustive programme.
_QUICK_STEPS = 5_000
#: Give up on the exhaustive programme (fall back to the search) past this many zero-sum subsets.
_MAX_ZERO_SUBSETS = 4_000_000
#: The search lists every zero-sum subset up front for at most this many players...
_LISTED_UP_TO = 34
#: ...when there are no more than this many (amounts spread wide); else it generates groups.
_MAX_LISTED_SETS = 50_000


@dataclass(frozen=True)
class Payment:
    """``src`` hands ``dst`` a positive number of ``chips``."""

    src: str
    dst: str
    chips: int

    def to_json(self) -> dict:
        """The shape of ``fantan settle --json`` (spec/cli.md)."""
        return {"from": self.src, "to": self.dst, "chips": self.chips}


@dataclass(frozen=True)
class Settlement:
    """The payments, in a stable order, and whether no shorter list can exist.

    ``lower_bound`` is the fewest payments any settlement can have, as far as was proven; when it
    equals ``len(payments)`` the list is proven minimal.
    """

    payments: list[Payment]
    proven_minimal: bool
    lower_bound: int = field(default=0, compare=False)


class _OutOfBudget(Exception):
    """The search used its steps or its time; the best split so far stands."""


def settle(
    balances: Mapping[str, int],
    *,
    time_limit: float = 0.8,
    clock: Callable[[], float] = time.perf_counter,
    max_steps: int = DEFAULT_MAX_STEPS,
    exact_up_to: int = EXACT_UP_TO,
) -> Settlement:
    """Fewest payments squaring every player's net chips (name -> chips, summing to zero).

    The same balances give the same list, whatever the order of the mapping: players are taken
    in name order (Unicode code points) and payments come sorted by payer, then payee.

    Raises ValueError on an empty or non-string name, chips that are not integers, or balances
    that do not sum to zero (the message says by how much).
    """
    players = _checked(balances)
    deadline = clock() + time_limit
    nonzero = [(name, chips) for name, chips in players if chips != 0]

    groups, rest = _matched_pairs(nonzero)
    values = [chips for _, chips in rest]
    split, proven, best_possible = _best_split(values, deadline, clock, max_steps, exact_up_to)
    groups += [[rest[i] for i in group] for group in split]

    payments = sorted(
        (p for group in groups for p in _pay_within(group)), key=lambda p: (p.src, p.dst)
    )
    lower_bound = len(nonzero) - len(groups) + len(split) - best_possible
    return Settlement(payments=payments, proven_minimal=proven, lower_bound=lower_bound)


def _checked(balances: Mapping[str, int]) -> list[tuple[str, int]]:
    """The players in name order, after refusing anything that cannot be settled."""
    if not isinstance(balances, Mapping):
        raise ValueError("balances must map each player's name to their net chips")
    for name, chips in balances.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"player name {name!r} is empty or not text")
        if isinstance(chips, bool) or not isinstance(chips, int):
            raise ValueError(f"{name}'s chips {chips!r} are not a whole number")
    total = sum(balances.values())
    if total != 0:
        raise ValueError(
            f"the balances sum to {total:+d}, not zero: every chip won was lost by someone, "
            "so a count is wrong"
        )
    return sorted(balances.items())


def _matched_pairs(
    nonzero: list[tuple[str, int]],
) -> tuple[list[list[tuple[str, int]]], list[tuple[str, int]]]:
    """Pair each +x with a -x (in name order); the rest stay for the search.

    Peeling is exact: if +x and -x sit in different groups A and B of a best split, then {+x, -x}
    and the rest of A and B are as many zero-sum groups; if they share a group, splitting them
    out gives one more.
    """
    waiting: dict[int, list[int]] = {}  # chips -> indices of unmatched players holding them
    partner: dict[int, int] = {}
    for i, (_, chips) in enumerate(nonzero):
        if waiting.get(-chips):
            j = waiting[-chips].pop(0)
            partner[i], partner[j] = j, i
        else:
            waiting.setdefault(chips, []).append(i)
    pairs = [[nonzero[j], nonzero[i]] for i, j in partner.items() if j < i]
    rest = [p for i, p in enumerate(nonzero) if i not in partner]
    return pairs, rest


def _pay_within(group: list[tuple[str, int]]) -> Iterator[Payment]:
    """At most len(group) - 1 payments squaring a zero-sum group: biggest debtor to biggest creditor."""
    creditors = sorted(([c, n] for n, c in group if c > 0), key=lambda x: (-x[0], x[1]))
    debtors = sorted(([-c, n] for n, c in group if c < 0), key=lambda x: (-x[0], x[1]))
    ci = di = 0
    while ci < len(creditors) and di < len(debtors):
        amount = min(creditors[ci][0], debtors[di][0])
        yield Payment(src=debtors[di][1], dst=creditors[ci][1], chips=amount)
        creditors[ci][0] -= amount
        debtors[di][0] -= amount
        ci += creditors[ci][0] == 0
        di += debtors[di][0] == 0


def _best_split(
    values: list[int],
    deadline: float,
    clock: Callable[[], float],
    max_steps: int,
    exact_up_to: int,
) -> tuple[list[list[int]], bool, int]:
    """Split zero-sum ``values`` (no zeros, no +x/-x pairs) into as many zero-sum groups as found.

    Returns (groups of indices, proven, most groups possible as far as proven).
    """
    if not values:
        return [], True, 0
    unit = math.gcd(*values)  # chips counted in fives split like chips counted in ones
    values = [v // unit for v in values]
    m = len(values)
    if sum(map(abs, values)) >= 1 << 62:  # past numpy's integers: plain Python search only
        return _Search(values, _Budget(max_steps, deadline, clock), leaf=0).run()
    leaf = min(_LEAF, exact_up_to)
    if m <= leaf:
        groups = _exhaustive_split(values)
        return groups, True, len(groups)
    import numpy as np

    if m <= exact_up_to:
        # A short search first: where amounts are close together it proves its answer at once,
        # and there the exhaustive programme is slowest (many zero-sum subsets to go through).
        # Steps only, no clock: up to here the answer never depends on the machine's speed.
        quick = _Search(values, _Budget(_QUICK_STEPS, math.inf, clock), leaf).run()
        if quick[1]:
            return quick
        zero_sets = _zero_sum_subsets(np, values, cap=_MAX_ZERO_SUBSETS)
        if zero_sets is not None:
            groups = _exhaustive_split(values, zero_sets)
            return groups, True, len(groups)
    listed = None
    if m <= _LISTED_UP_TO:
        listed = _zero_sum_subsets(np, values, cap=_MAX_LISTED_SETS)
    return _Search(values, _Budget(max_steps, deadline, clock), leaf, listed).run()


# --- the exhaustive programme -------------------------------------------------------------------
#
# dp(S) = most disjoint zero-sum subsets inside the set S. Two facts make it cheap:
#   * for a zero-sum S, dp(S without its lowest member) = dp(S) - 1 (an extra group there would
#     leave a zero-sum remainder holding that member: one group too many for S);
#   * "contains k disjoint zero-sum subsets" is closed upwards.
# So with A_k = {S : dp(S) >= k} held as a bit set over all 2^m subsets,
#   Z_1 = zero-sum subsets,  Z_{k+1} = {Z in Z_k : Z minus its lowest member in A_k},
#   A_k = upward closure of Z_k,
# and the answer is the largest k with the full set in Z_k. The upward closure is m word-wide
# passes over 2^m bits.

_IN_WORD_LOW = [
    0x5555555555555555,
    0x3333333333333333,
    0x0F0F0F0F0F0F0F0F,
    0x00FF00FF00FF00FF,
    0x0000FFFF0000FFFF,
    0x00000000FFFFFFFF,
]


def _subset_sums(np, values: list[int]):
    """sums[mask] = sum of values[i] for the bits i of mask."""
    sums = np.zeros(1, dtype=np.int64)
    for v in values:
        sums = np.concatenate([sums, sums + v])
    return sums


def _zero_sum_subsets(np, values: list[int], cap: int = _MAX_ZERO_SUBSETS):
    """Every non-empty zero-sum subset as a bit mask, by meeting in the middle; None if too many."""
    m = len(values)
    h = m // 2
    low = _subset_sums(np, values[:h])
    high = _subset_sums(np, values[h:])
    order = np.argsort(high, kind="stable")
    high_sorted = high[order]
    first = np.searchsorted(high_sorted, -low, side="left")
    count = np.searchsorted(high_sorted, -low, side="right") - first
    total = int(count.sum())
    if total > cap:
        return None
    low_masks = np.repeat(np.arange(low.size, dtype=np.int64), count)
    starts = np.repeat(np.cumsum(count) - count, count)
    within = np.arange(total, dtype=np.int64) - starts
    high_masks = order[np.repeat(first, count) + within].astype(np.int64)
    masks = low_masks | (high_masks << h)
    return masks[masks != 0]


def _bitset(np, m: int, masks):
    words = np.zeros(max(1, 1 << max(0, m - 6)), dtype=np.uint64)
    np.bitwise_or.at(words, masks >> 6, np.left_shift(np.uint64(1), (masks & 63).astype(np.uint64)))
    return words


def _close_upwards(np, m: int, words) -> None:
    """Add every superset (within m bits) of every member, in place."""
    for j in range(min(m, 6)):
        words |= (words & np.uint64(_IN_WORD_LOW[j])) << np.uint64(1 << j)
    for j in range(6, m):
        pairs = words.reshape(-1, 2, 1 << (j - 6))
        pairs[:, 1, :] |= pairs[:, 0, :]


def _holds(np, words, masks):
    return ((words[masks >> 6] >> (masks & 63).astype(np.uint64)) & np.uint64(1)).astype(bool)


def _exhaustive_split(values: list[int], zero=None) -> list[list[int]]:
    """A proven best split of zero-sum ``values`` into zero-sum groups.

    ``zero``: every non-empty zero-sum subset as a mask array, if already listed.
    """
    import numpy as np

    m = len(values)
    full = (1 << m) - 1
    if zero is None:
        zero = _zero_sum_subsets(np, values, cap=1 << m)
    positives = sum(v > 0 for v in values)
    most = min(positives, m - positives, m // 2)
    levels = [zero]  # levels[k-1] = zero-sum subsets Z with dp(Z) >= k
    while len(levels) < most:
        current = levels[-1]
        at_least = _bitset(np, m, current)
        _close_upwards(np, m, at_least)
        following = current[_holds(np, at_least, current & (current - 1))]
        if not (following == full).any():
            break
        levels.append(following)

    groups = []
    rest = full
    for k in range(len(levels) - 1, 0, -1):
        inside = rest & (rest - 1)
        candidates = levels[k - 1]
        smaller = int(candidates[(candidates & ~np.int64(inside)) == 0].max())
        groups.append(rest & ~smaller)
        rest = smaller
    groups.append(rest)
    return sorted(([i for i in range(m) if g >> i & 1] for g in groups))


# --- the search for larger tables ---------------------------------------------------------------


class _Budget:
    """Work counted in steps, so the same balances get the same answer on any machine; the clock
    only stops a search that a slow machine would otherwise let run long."""

    def __init__(self, max_steps: int, deadline: float, clock: Callable[[], float]) -> None:
        self.steps_left = max_steps
        self.deadline = deadline
        self.clock = clock
        self.since_clock = 0

    def tick(self, steps: int = 1) -> None:
        self.steps_left -= steps
        self.since_clock += steps
        if self.steps_left < 0:
            raise _OutOfBudget
        if self.since_clock >= 512:
            self.since_clock = 0
            if self.clock() > self.deadline:
                raise _OutOfBudget


class _Search:
    """Branch and bound on the group that holds the hardest player, smallest groups first.

    Candidate groups come from a list of every zero-sum subset when the amounts are spread wide
    enough for that list to be short (found by meeting in the middle), else they are generated
    as the search goes. Upper bounds on how many groups a set S of players can still form: each
    group needs a creditor and a debtor, three players once pairs are gone, and at least s_e
    players if it holds player e, where s_e is the smallest zero-sum group e belongs to (so the
    groups number at most the sum of 1/s_e over S). Sets searched to the end remember what they
    proved. Small remainders go to the exhaustive programme.
    """

    def __init__(self, values: list[int], budget: _Budget, leaf: int = _LEAF, zero_sets=None) -> None:
        self.values = values
        self.m = len(values)
        self.budget = budget
        self.leaf_size = leaf
        self.full = (1 << self.m) - 1
        self.positive = sum(1 << i for i, v in enumerate(values) if v > 0)
        self.sets_with: list[list[int]] | None = None
        if zero_sets is not None:
            self.sets_with = self._sets_by_player(zero_sets)
            self.smallest_group = [sets[0].bit_count() for sets in self.sets_with]
            self.choices = [len(sets) for sets in self.sets_with]
        else:
            self.smallest_group = self._smallest_groups()
            self.choices = [0] * self.m
        self.by_amount = sorted(range(self.m), key=lambda i: (values[i], i))
        self.by_difficulty = sorted(
            range(self.m),
            key=lambda i: (-self.smallest_group[i], self.choices[i], -abs(values[i]), i),
        )
        lcm = math.lcm(*set(self.smallest_group))
        self.scale = lcm
        self.weight_masks = [  # (weight lcm/s_e, players with that s_e)
            (lcm // size, sum(1 << i for i, s in enumerate(self.smallest_group) if s == size))
            for size in sorted(set(self.smallest_group))
        ]
        self.proved: dict[int, int] = {}  # set -> most groups it can form, as proven
        self.leaf: dict[int, list[int]] = {}
        self.best: list[int] = [self.full]
        self.path: list[int] = []

    def run(self) -> tuple[list[list[int]], bool, int]:
        ceiling = self.bound(self.full)
        proven = True
        try:
            self.dfs(self.full)
        except _OutOfBudget:
            proven = len(self.best) >= ceiling
        most = len(self.best) if proven else ceiling
        groups = sorted([i for i in range(self.m) if g >> i & 1] for g in self.best)
        return groups, proven, most

    def bound(self, s: int) -> int:
        count = s.bit_count()
        pos = (s & self.positive).bit_count()
        weight = sum(w * (s & players).bit_count() for w, players in self.weight_masks) // self.scale
        return min(pos, count - pos, count // 3, weight, self.proved.get(s, count))

    def dfs(self, s: int) -> None:
        depth = len(self.path)
        count = s.bit_count()
        self.budget.tick(1 + (count >> 4))
        if count <= self.leaf_size:
            found = self.split_small(s)
            if depth + len(found) > len(self.best):
                self.best = self.path + found
            self.proved[s] = len(found)
            return
        if depth + self.bound(s) <= len(self.best):
            return
        if depth + 1 > len(self.best):
            self.best = self.path + [s]
        for group in self.groups_with(self.hardest(s), s):
            if group.bit_count() > count - 3 * (len(self.best) - depth):
                break  # the rest could not hold enough groups of three
            rest = s & ~group
            if depth + 1 + self.bound(rest) <= len(self.best):
                continue
            self.path.append(group)
            self.dfs(rest)
            self.path.pop()
            if depth + self.bound(s) <= len(self.best):
                break
        self.proved[s] = min(self.proved.get(s, count), len(self.best) - depth)

    def split_small(self, s: int) -> list[int]:
        if s not in self.leaf:
            self.budget.tick(1 << max(0, s.bit_count() - 6))
            members = [i for i in range(self.m) if s >> i & 1]
            groups = _exhaustive_split([self.values[i] for i in members])
            self.leaf[s] = [sum(1 << members[j] for j in g) for g in groups]
        return self.leaf[s]

    def hardest(self, s: int) -> int:
        """The player with the fewest choices: largest smallest group, fewest groups, most chips."""
        for i in self.by_difficulty:
            if s >> i & 1:
                return i
        raise AssertionError("no player left")  # dfs never asks about an empty set

    def groups_with(self, pivot: int, s: int) -> Iterator[int]:
        """Zero-sum proper subsets of s holding pivot, smallest first (two players at least remain)."""
        count = s.bit_count()
        if self.sets_with is not None:
            for group in self.sets_with[pivot]:
                self.budget.tick()
                if group & ~s == 0 and group != s:
                    yield group
            return
        self.budget.tick(count >> 3)
        items = [i for i in self.by_amount if s >> i & 1 and i != pivot]
        for size in range(3, count - 2):
            yield from self._generate(pivot, items, size - 1)

    def _generate(self, pivot: int, items: list[int], picks: int) -> Iterator[int]:
        """Masks of pivot plus ``picks`` of ``items`` (sorted by amount) summing to zero; equal
        amounts tried once."""
        vals = [self.values[i] for i in items]
        prefix = [0]
        for v in vals:
            prefix.append(prefix[-1] + v)
        n = len(vals)

        def choose(start: int, r: int, target: int, mask: int) -> Iterator[int]:
            self.budget.tick()
            if r == 1:
                i = bisect.bisect_left(vals, target, start)
                if i < n and vals[i] == target:
                    yield mask | 1 << items[i]
                return
            if r == 2:  # two pointers closing in from both ends, each amount once
                lo, hi = start, n - 1
                while lo < hi:
                    pair = vals[lo] + vals[hi]
                    if pair < target:
                        lo += 1
                    elif pair > target:
                        hi -= 1
                    else:
                        yield mask | 1 << items[lo] | 1 << items[hi]
                        lo += 1
                        while lo < hi and vals[lo] == vals[lo - 1]:
                            lo += 1
                self.budget.tick(n - start >> 3)
                return
            if target > prefix[n] - prefix[n - r]:
                return  # even the r largest fall short
            for i in range(start, n - r + 1):
                if target < prefix[i + r] - prefix[i]:
                    return  # the r smallest from here already overshoot
                if i > start and vals[i] == vals[i - 1]:
                    continue
                yield from choose(i + 1, r - 1, target - vals[i], mask | 1 << items[i])

        return choose(0, picks, -self.values[pivot], 1 << pivot)

    def _sets_by_player(self, zero_sets) -> list[list[int]]:
        """Each player's zero-sum subsets, smallest first (then by mask, for a stable order)."""
        import numpy as np

        sizes = np.zeros(zero_sets.size, dtype=np.int64)
        for i in range(self.m):
            sizes += (zero_sets >> i) & 1
        ordered = zero_sets[np.lexsort((zero_sets, sizes))]
        return [ordered[(ordered >> i) & 1 == 1].tolist() for i in range(self.m)]

    def _smallest_groups(self) -> list[int]:
        """For each player, a lower bound on the size of any zero-sum group holding them."""
        m = len(self.values)
        spread = sum(abs(v) for v in self.values)
        if m * m * (spread + 1) <= 30_000_000:
            import numpy as np

            result = []
            for e in range(m):
                low = sum(v for i, v in enumerate(self.values) if i != e and v < 0)
                fewest = np.full(spread + 1, m + 1, dtype=np.int16)
                fewest[-low] = 0
                for i, v in enumerate(self.values):
                    if i == e:
                        continue
                    shifted = np.full_like(fewest, m + 1)
                    if v > 0:
                        shifted[v:] = fewest[:-v] + 1
                    else:
                        shifted[:v] = fewest[-v:] + 1
                    np.minimum(fewest, shifted, out=fewest)
                result.append(1 + int(fewest[-self.values[e] - low]))
            return result
        # Too wide for the table: only ask whether a group of three exists (no pairs are left).
        result = []
        for e in range(m):
            others: dict[int, int] = {}
            has_three = False
            for i, v in enumerate(self.values):
                if i == e:
                    continue
                if -self.values[e] - v in others:
                    has_three = True
                    break
                others[v] = i
            result.append(3 if has_three else 4)
        return result
