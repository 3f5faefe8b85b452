"""The lobby in a real browser (issue 34): an outside bot offered by the operator
(``SHANGRAO_WEB_BOTS="mybot=ext:…"``) is in every seat menu by its label — never its command line
or path — and a table made with it seats it; a fault of the records database's files (the WAL
deleted under the server: ``/api/server``'s ``records_problem``) is shown as a banner.
Skipped without Playwright or /usr/bin/chromium."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .serving import HAS_CHROMIUM, Watch, chromium, served

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

pytestmark = pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium at /usr/bin/chromium")

BOT = Path(__file__).resolve().parents[2] / "examples" / "bots" / "tsumogiri_bot.py"


def test_the_lobby_offers_an_outside_bot_by_its_label_seats_it_and_shows_a_records_problem(tmp_path, monkeypatch):
    from shangrao.web import Settings
    from shangrao.web.app import create_app

    monkeypatch.setenv("SHANGRAO_WEB_BOTS", f"mybot=ext:{sys.executable} {BOT}")
    app = create_app(
        f"sqlite:///{tmp_path / 'lobby.sqlite3'}",
        Settings(bot_delay=0.01, claim_pause=0.02, absent_timeout=120, turn_timeout=120),
    )
    with served(app) as (port, _srv), chromium() as browser:
        url = f"http://127.0.0.1:{port}"
        page = browser.new_page(viewport={"width": 390, "height": 844})
        watch = Watch(page)
        page.goto(url + "/")
        page.wait_for_selector("#seat3 option[value=mybot]", state="attached")
        for i in (1, 2, 3):
            options = page.eval_on_selector_all(f"#seat{i} option", "os => os.map(o => [o.value, o.textContent])")
            assert ["mybot", "mybot"] in options, options
            assert not any("ext:" in v or "ext:" in text or str(BOT) in text for v, text in options), options
        assert "ext:" not in page.content() and str(BOT) not in page.content()
        page.fill("input[name=hands]", "1")
        page.select_option("#seat1", "mybot")
        page.click("#create-btn")
        page.wait_for_url("**/t/*/*")
        table = int(page.url.split("/t/")[1].split("/")[0])
        page.wait_for_selector("#hand .tile", timeout=20000)
        players = page.evaluate(f"fetch('/api/tables?ids={table}').then(r => r.json())")
        kinds = [p["kind"] for p in (players["open"] + players["live"])[0]["players"]]
        assert kinds[1] == "mybot", kinds
        chip = page.text_content(".chip[data-seat='1'] .who")
        assert chip == "1号·mybot", chip  # the label as written, not looked up as a UI word
        page.screenshot(path=str(tmp_path / "table.png"))

        # the WAL watch's finding, as a served store would set it (records/store.py check_wal)
        app.state.store.wal_problem = "the WAL file was deleted while this process had it open"
        page.goto(url + "/")
        banner = page.wait_for_selector("#records-problem")
        assert "记录库出了问题" in banner.text_content() and "WAL file was deleted" in banner.text_content()
        box = banner.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        page.screenshot(path=str(tmp_path / "lobby-records-problem.png"))
        assert watch.problems == [], watch.problems
        page.close()
