"""In a real headless browser (Debian's chromium, driven by Playwright): create a night, play a
round by manual entry, pass, see a flag, undo, finish, see the standings and the settle-up."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


@pytest.fixture
def server(app):
    from werkzeug.serving import make_server

    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


@pytest.fixture
def page(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1,
                                      is_mobile=True, has_touch=True)  # a phone
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.base = server
        yield page
        browser.close()


def last_line(page) -> int:
    return int(page.locator("ol.events li.ev").first.get_attribute("data-line"))


def act(page, click) -> None:
    """Do something on the table page and wait until the log shows the new line."""
    before = last_line(page)
    click()
    page.wait_for_function(
        "n => { const li = document.querySelector('ol.events li.ev'); return li && +li.dataset.line !== n; }",
        arg=before)


def test_a_whole_round_in_the_browser(page):
    page.goto(page.base + "/nights/new")
    page.fill("textarea[name=players]", "Anna\nBen\nCleo")
    page.fill("input[name=dealer]", "Cleo")
    page.check("input[name=stakes][value=chips]")
    page.fill("input[name=rounds]", "1")
    page.fill("input[name=chip_value]", "0.10")
    page.click("button[type=submit]")
    page.wait_for_url("**/nights/*")
    assert "Waiting for the opening card" in page.inner_text("#live-top")

    # Anna holds the 7♦: nobody's turn is known until it is played, so say who plays it.
    page.select_option("#manual-player", "Anna")
    page.fill("#manual-card", "7d")
    act(page, lambda: page.click("#manual-form button[value=play]"))
    assert page.inner_text("#to-move") == "Ben to play"

    # A card typed wrong is refused in words, and nothing changes.
    page.fill("#manual-card", "7x")
    page.click("#manual-form button[value=play]")
    page.wait_for_selector("#toast.error")
    assert "is not a card" in page.inner_text("#toast")

    # Ben passes with the big button although 6♦ could be played.
    act(page, lambda: page.click("#pass-button"))
    act(page, lambda: page.click("button.card.legal[data-card='8d']"))   # Cleo
    act(page, lambda: page.click("button.card.legal[data-card='7h']"))   # Anna
    act(page, lambda: page.click("button.card.legal[data-card='6d']"))   # Ben: so he held 6♦ at his pass
    flag = page.locator("li.ev[data-line='4'] .flag")
    flag.wait_for()
    assert "Ben passed while holding 6d" in flag.inner_text()

    # Undo the play that proved it: the flag goes away.
    act(page, lambda: page.click("#undo-button"))
    assert page.locator("li.ev[data-line='4'] .flag").count() == 0
    act(page, lambda: page.click("button.card.legal[data-card='9d']"))   # Ben plays what he could not before

    # Play the round out, tapping a playable card for whoever is to move.
    for _ in range(80):
        if page.locator("#pass-button").count() == 0:
            break
        act(page, lambda: page.locator("button.card.legal").first.click())
    text = page.inner_text("#live-top")
    assert "The night is over" in text
    winner = page.locator(".players li.winner .name").inner_text()

    page.click("nav >> text=Standings")
    assert page.inner_text("#match-winner") == winner
    assert page.locator("#standings-table tbody tr").count() == 1
    assert page.locator("svg.chart polyline").count() == 3

    page.click("nav >> text=Settle up")
    payments = page.locator("#payments li")
    assert payments.count() >= 1
    assert all(" pays " in t for t in payments.all_inner_texts())
    assert winner in page.inner_text("#payments")


def test_two_phones_see_each_other_live(page, server):
    from playwright.sync_api import sync_playwright

    page.goto(server + "/nights/new")
    page.fill("textarea[name=players]", "Anna\nBen")
    page.select_option("select[name=variant]", "parliament")
    page.click("button[type=submit]")
    page.wait_for_url("**/nights/*")
    url = page.url
    other = page.context.browser.new_context().new_page()
    other.goto(url)
    other.wait_for_selector("#live-dot.on")
    act(page, lambda: page.click("button.card.legal[data-card='7s']"))
    other.wait_for_selector(".row span.card[data-card='7s']", timeout=5000)  # no reload on the other phone
