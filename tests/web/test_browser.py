"""End to end in a real browser: Playwright for Python driving Debian's chromium.

Open the lobby, create a table with three bots, play by always clicking one of the
offered (legal) actions until the first hand ends, and see the settlement.
Skipped when Playwright or /usr/bin/chromium is missing (.ci/run installs chromium).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium at /usr/bin/chromium")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    from shangrao.web import Settings
    from shangrao.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'browser.sqlite3'}",
                     Settings(bot_delay=0.02, claim_timeout=60, turn_timeout=120, absent_timeout=120,
                              next_hand_timeout=600, standin_bot="random"))
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    th.join(10)


def test_lobby_create_table_with_three_bots_and_play_a_hand_in_the_browser(server):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/")
        assert "上饶麻将" in page.title()
        page.fill("input[name=hands]", "2")
        for i in (1, 2, 3):
            page.select_option(f"#seat{i}", "random")
        page.click("#create-btn")
        page.wait_for_url("**/t/*/*")
        page.wait_for_selector(".my-hand .tile", timeout=20000)
        shot = os.environ.get("SHANGRAO_WEB_SCREENSHOT")
        clicks = 0
        deadline = time.monotonic() + 240
        while not page.locator("#settlement").is_visible():
            assert time.monotonic() < deadline, "the hand did not end"
            target = page.locator("[data-action]").first
            try:
                if target.count():
                    if shot and clicks == 12 and page.locator(".my-hand .tile.playable").count():
                        page.screenshot(path=shot)
                    target.click(timeout=1000)
                    clicks += 1
                page.wait_for_timeout(30)
            except sync_api.Error:
                continue  # the table re-rendered under the click; look again
        text = page.locator("#settlement").inner_text()
        assert "结算" in text and "付分明细" in text
        assert page.locator("#settlement table.deltas td").count() >= 8
        assert clicks > 0
        assert not errors, errors
        browser.close()
