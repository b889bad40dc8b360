"""Standings, chips and the settle-up are the engine's verdict for the night, shown: a simulated
match imported here gives exactly what `fantan check` gives."""


from scorekeeper.match import replay
from scorekeeper.record import write_record
from scorekeeper.simulate import simulate_match


def _import(table, events, name="sim"):
    r = table.post("/api/import", {"record": write_record(events), "name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"]


def test_standings_equal_the_verdict(table):
    events = simulate_match("sjuan", ["Anna", "Ben", "Cleo"], seed=4, target=30, strategy="cheater")
    night = _import(table, events)
    data = table.get(f"/api/nights/{night}/standings").get_json()
    verdict = replay(events).verdict()
    assert data["verdict"] == verdict
    assert data["totals"] == verdict["totals"]
    assert data["series"][-1] == verdict["totals"]  # the chart ends at the totals
    assert len(data["series"]) == len(verdict["rounds"]) + 1
    html = table.get(f"/nights/{night}/standings").get_data(as_text=True)
    assert "<svg" in html and "<polyline" in html


def test_chips_balances_add_up_to_the_totals_and_settle_squares_everyone(table):
    events = simulate_match("fan-tan", ["Anna", "Ben", "Cleo", "Dan"], seed=6, stakes="chips", rounds=2,
                            strategy=["greedy", "cheater", "random", "greedy"])
    night = _import(table, events)
    chips = table.get(f"/api/nights/{night}/chips").get_json()
    totals = replay(events).totals
    assert chips["balances"] == totals and chips["pot"] == 0
    assert sum(t["chips"] for t in chips["transfers"] if t["to"] == "pot") == \
        sum(t["chips"] for t in chips["transfers"] if t["from"] == "pot")
    settle = table.get(f"/api/nights/{night}/settle").get_json()
    net = {p: 0 for p in totals}
    for p in settle["payments"]:
        net[p["from"]] -= p["chips"]
        net[p["to"]] += p["chips"]
    assert net == totals  # the losers pay what they lost, the winners get what they won
    assert len(settle["payments"]) <= len([v for v in totals.values() if v]) - 1


def test_settle_waits_while_chips_are_in_the_pot(table):
    night = table.new_night(stakes="chips")
    table.play(night, "Ben", "7d")
    table.pass_(night, "Cleo")
    data = table.get(f"/api/nights/{night}/settle").get_json()
    assert data["payments"] == [] and "in the pot" in data["settle_note"]
    assert table.get(f"/api/nights/{night}/chips").get_json()["pot"] > 0


def test_chip_value_turns_chips_into_money(table):
    events = simulate_match("parliament", ["Anna", "Ben", "Cleo"], seed=3, stakes="chips", rounds=1)
    night = _import(table, events)
    # the imported night has no chip value; a night made here has one
    night2 = table.new_night(players=("Anna", "Ben", "Cleo"), stakes="chips", chip_value="0.25", currency="$")
    html = table.get(f"/nights/{night2}/chips").get_data(as_text=True)
    assert "Pot" in html
    assert "$" not in table.get(f"/nights/{night}/settle").get_data(as_text=True)


def test_points_night_has_nothing_to_settle(table):
    night = table.new_night()
    html = table.get(f"/nights/{night}/settle").get_data(as_text=True)
    assert "played for points" in html


import pytest


@pytest.mark.parametrize("variant, options", [
    ("fan-tan", {}), ("sjuan", {}), ("parliament", {"ace_high": True}), ("free", {}),
    ("domino", {"hand_size": 7}),
])
def test_every_game_is_drawn_on_every_page(table, variant, options):
    from scorekeeper.variants import Options

    players = ["Anna", "Ben"] if variant == "domino" else ["Anna", "Ben", "Cleo"]
    events = simulate_match(variant, players, seed=5, stakes="chips", rounds=1, options=Options(**options),
                            strategy="cheater", known_hands=True)
    half = write_record(events[: len(events) // 2])  # the round still going on
    night = table.post("/api/import", {"record": half}).get_json()["id"]
    for page in ("", "/live", "/standings", "/chips", "/settle"):
        assert table.get(f"/nights/{night}{page}").status_code == 200, page
    state = table.state(night)
    on_table = sum(len(cards) for cards in state["round"]["rows"].values())
    drawn = table.get(f"/nights/{night}").get_data(as_text=True).count('<span class="card black') + \
        table.get(f"/nights/{night}").get_data(as_text=True).count('<span class="card red')
    assert drawn == on_table  # every card on the table is drawn once
