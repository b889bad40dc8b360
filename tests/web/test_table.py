"""The table: plays and passes go into the night's log; the engine judges them; mistakes of the
person typing are refused with a message and leave nothing behind."""


def test_the_opening_seven_then_turns_go_clockwise(table):
    night = table.new_night()  # Dan deals; fan-tan: whoever holds 7d opens
    assert table.state(night)["round"]["to_move"] is None
    assert table.play(night, "Ben", "7d").status_code == 201
    s = table.state(night)
    assert s["round"]["to_move"] == "Cleo"
    assert s["round"]["rows"]["d"] == ["7d"]
    assert {"6d", "8d", "7c", "7h", "7s"} == set(s["round"]["legal"])


def test_cards_are_read_in_any_spelling_and_stored_canonically(table):
    night = table.new_night()
    assert table.play(night, "Ben", "7♦️").status_code == 201
    assert table.play(night, "Cleo", "8D").status_code == 201
    record = table.get(f"/nights/{night}/record.jsonl").get_data(as_text=True)
    assert '"card": "7d"' in record and '"card": "8d"' in record


def test_the_pass_button_passes_for_whoever_is_to_move(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    r = table.post(f"/api/nights/{night}/events", {"event": "pass", "player": ""})
    assert r.status_code == 201
    assert table.state(night)["log"][-1]["text"] == "Cleo passes"


def test_a_pass_out_of_turn_is_refused_and_nothing_is_stored(stored, table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    before = stored()
    r = table.pass_(night, "Anna")  # it is Cleo's turn
    assert r.status_code == 409
    assert "Anna cannot move now" in r.get_json()["error"] and "Cleo" in r.get_json()["error"]
    assert stored() == before


def test_an_unknown_card_or_player_is_refused_with_a_message(stored, table):
    night = table.new_night()
    before = stored()
    r = table.play(night, "Ben", "7x")
    assert r.status_code == 400 and "is not a card" in r.get_json()["error"]
    r = table.play(night, "Zed", "7d")
    assert r.status_code == 400 and "not at this table" in r.get_json()["error"]
    assert stored() == before


def test_a_card_that_does_not_fit_is_recorded_with_a_flag_and_goes_back_to_the_hand(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    r = table.play(night, "Cleo", "5d")
    assert r.status_code == 201
    flag = r.get_json()["flag"]
    assert flag["kind"] == "illegal_play" and "5d" in flag["explain"]
    s = table.state(night)
    assert s["round"]["to_move"] == "Cleo"  # still Cleo's turn
    assert s["log"][-1]["flag"]["kind"] == "illegal_play"


def test_a_pass_is_proven_illegal_by_a_later_play_and_undo_takes_the_proof_back(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")          # line 3
    table.pass_(night, "Cleo")              # line 4: 6d and 8d were playable
    table.play(night, "Dan", "8d")          # line 5
    table.play(night, "Anna", "7h")         # line 6
    table.play(night, "Ben", "9d")          # line 7
    r = table.play(night, "Cleo", "6d")     # line 8: Cleo held 6d when she passed
    assert r.get_json()["flag"] is None     # the flag sits on the pass, not on the play
    log = table.state(night)["log"]
    assert log[3]["line"] == 4 and log[3]["flag"]["kind"] == "illegal_pass"
    assert log[3]["flag"]["proof_line"] == 8 and "6d" in log[3]["flag"]["explain"]
    assert table.post(f"/api/nights/{night}/undo", {"line": 8}).status_code == 200
    assert table.state(night)["log"][3]["flag"] is None


def test_undo_needs_the_line_you_saw_so_two_phones_never_undo_twice(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    assert table.post(f"/api/nights/{night}/undo", {"line": 3}).status_code == 200
    r = table.post(f"/api/nights/{night}/undo", {"line": 3})
    assert r.status_code == 409 and "moved on" in r.get_json()["error"]


def test_nothing_to_undo_on_a_bare_night(table):
    night = table.new_night(dealer=None, start_now=False)
    r = table.post(f"/api/nights/{night}/undo", {"line": 1})
    assert r.status_code == 409


def test_a_line_is_corrected_and_the_rest_replayed(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    table.play(night, "Cleo", "8d")
    table.play(night, "Dan", "9d")
    r = table.post(f"/api/nights/{night}/lines/4", {"event": "play", "player": "Cleo", "card": "6d"})
    assert r.status_code == 200
    log = table.state(night)["log"]
    assert log[3]["text"] == "Cleo plays 6♦"
    assert log[4]["flag"]["kind"] == "illegal_play"  # 9d no longer fits: the engine says so


def test_a_line_is_deleted_and_later_lines_move_up(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    table.pass_(night, "Cleo")
    r = table.post(f"/api/nights/{night}/lines/4", {"delete": True})
    assert r.status_code == 200
    s = table.state(night)
    assert s["lines"] == 3 and s["round"]["to_move"] == "Cleo"


def test_a_correction_that_is_a_typing_mistake_is_refused(stored, table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    before = stored()
    r = table.post(f"/api/nights/{night}/lines/3", {"event": "play", "player": "Ben", "card": "77"})
    assert r.status_code == 400
    r = table.post(f"/api/nights/{night}/lines/1", {"event": "pass", "player": "Ben"})
    assert r.status_code == 404  # the match line is the night's settings, not a move
    assert stored() == before


def test_a_new_deal_waits_for_the_round_to_finish(table):
    night = table.new_night()
    r = table.post(f"/api/nights/{night}/events", {"event": "round", "dealer": "Anna"})
    assert r.status_code == 409 and "still being played" in r.get_json()["error"]


def test_ending_a_round_without_a_winner_then_dealing_again(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    assert table.post(f"/api/nights/{night}/events", {"event": "end"}).status_code == 201
    s = table.state(night)
    assert s["round"]["is_over"] and s["round"]["winner"] is None
    assert s["next_dealer"] == "Anna"  # the deal passes to the left
    assert table.post(f"/api/nights/{night}/events", {"event": "round", "dealer": "Anna"}).status_code == 201
    assert table.state(night)["round"]["number"] == 2


def test_the_state_has_an_etag_and_answers_304_while_nothing_changed(table):
    night = table.new_night()
    r = table.get(f"/api/nights/{night}/state")
    etag = r.headers["ETag"]
    assert table.get(f"/api/nights/{night}/state", headers={"If-None-Match": etag}).status_code == 304
    table.play(night, "Ben", "7d")
    assert table.get(f"/api/nights/{night}/state", headers={"If-None-Match": etag}).status_code == 200


def test_the_table_page_draws_the_rows_and_the_pass_button(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    html = table.get(f"/nights/{night}").get_data(as_text=True)
    assert 'data-card="7d"' in html and "Cleo passes" in html  # the big button's label
    assert html.count('class="card legal') == 5


def test_a_plain_html_form_is_redirected_back_to_the_table(client, table):
    night = table.new_night()
    r = client.post(f"/api/nights/{night}/events",
                    data={"csrf_token": table.token, "event": "play", "player": "Ben", "card": "7d"},
                    headers={"Accept": "text/html"})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/nights/{night}")
    r = client.post(f"/api/nights/{night}/events",
                    data={"csrf_token": table.token, "event": "play", "player": "Ben", "card": "zz"},
                    headers={"Accept": "text/html"})
    assert r.status_code == 400 and "is not a card" in r.get_data(as_text=True)


def test_the_fix_page_offers_the_line_as_it_is(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    html = table.get(f"/nights/{night}/lines/3/fix").get_data(as_text=True)
    assert 'value="7d"' in html and "<option selected>Ben</option>" in html
    assert table.get(f"/nights/{night}/lines/1/fix").status_code == 404
    assert table.get(f"/nights/{night}/lines/9/fix").status_code == 404


def test_the_fix_page_of_a_show_or_a_deal_is_filled_in(table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    table.post(f"/api/nights/{night}/events", {"event": "show", "player": "Anna", "cards": ["3c", "9h"]})
    assert 'value="3c 9h"' in table.get(f"/nights/{night}/lines/4/fix").get_data(as_text=True)
    assert "<option selected>Dan</option>" in table.get(f"/nights/{night}/lines/2/fix").get_data(as_text=True)


def test_the_live_part_is_the_same_for_every_phone_and_holds_no_token(client, table):
    night = table.new_night()
    table.play(night, "Ben", "7d")
    other = client.application.test_client()
    mine = table.get(f"/nights/{night}/live").get_data(as_text=True)
    assert mine == other.get(f"/nights/{night}/live").get_data(as_text=True)
    assert table.token not in mine and "Cleo passes" in mine
    assert table.token in table.get(f"/nights/{night}").get_data(as_text=True)  # works without script
    table.pass_(night, "Cleo")
    assert "Dan passes" in other.get(f"/nights/{night}/live").get_data(as_text=True)  # a new revision
