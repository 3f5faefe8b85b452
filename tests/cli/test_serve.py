"""`shangrao serve` prints the address to open and opens a browser only where a display is."""

from __future__ import annotations

import threading
import webbrowser

from shangrao.cli import serve_cmd


class _NowTimer:
    def __init__(self, _delay, fn):
        self.fn = fn

    def start(self):
        self.fn()


def _patch(monkeypatch, display: bool):
    ran, opened = [], []
    monkeypatch.setattr(serve_cmd, "_bind", lambda host, port: None)  # no real socket, no real server
    monkeypatch.setattr(serve_cmd, "_serve", lambda app, sock, **kw: ran.append((app, kw)))
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url))
    monkeypatch.setattr(threading, "Timer", _NowTimer)
    monkeypatch.setattr(serve_cmd, "_has_display", lambda: display)
    return ran, opened


def test_serve_prints_the_address_and_opens_a_browser_where_a_display_is(cli, monkeypatch):
    ran, opened = _patch(monkeypatch, display=True)
    res = cli("serve", "--port", "8123")
    assert res.exit_code == 0, res.output
    assert "http://127.0.0.1:8123/" in res.output
    (_app, kw), = ran
    assert {k: kw[k] for k in ("host", "port", "log_level")} == {"host": "127.0.0.1", "port": 8123,
                                                                  "log_level": "warning"}
    assert kw["ws_per_message_deflate"] is False and kw["ws_ping_interval"] == kw["ws_ping_timeout"] == 20.0
    # the tables-per-minute limit counts the TCP peer: X-Forwarded-For from a local client names nobody
    assert kw["proxy_headers"] is False
    assert opened == ["http://127.0.0.1:8123/"]


def test_serve_opens_no_browser_without_a_display_or_with_no_browser(cli, monkeypatch):
    _, opened = _patch(monkeypatch, display=False)
    assert cli("serve").exit_code == 0 and opened == []
    _, opened = _patch(monkeypatch, display=True)
    res = cli("serve", "--no-browser", "--host", "0.0.0.0")
    assert res.exit_code == 0 and opened == [] and "http://127.0.0.1:8000/" in res.output


def test_serve_passes_its_limits_and_timing_to_the_server(cli, monkeypatch):
    ran, _ = _patch(monkeypatch, display=False)
    res = cli("serve", "--claim-pause", "0", "--max-live-tables", "7", "--messages-per-second", "3",
              "--idle-timeout", "60", "--ws-deflate", "--ping-interval", "5")
    assert res.exit_code == 0, res.output
    (app, kw), = ran
    st = app.state.manager.settings
    assert (st.claim_pause, st.max_live_tables, st.messages_per_second, st.idle_timeout) == (0.0, 7, 3.0, 60.0)
    assert kw["ws_per_message_deflate"] is True and kw["ws_ping_interval"] == 5.0
    assert cli("serve", "--claim-pause", "-1").exit_code == 2


def test_serve_guards_its_connections_and_says_how_many_it_holds(cli, monkeypatch):
    from shangrao.web import guard

    ran, _ = _patch(monkeypatch, display=False)
    monkeypatch.setattr(guard, "raise_file_limit", lambda: 1024)
    res = cli("serve", "--header-timeout", "2.5", "--address-connections", "9", "--max-connections", "300")
    assert res.exit_code == 0, res.output
    assert "connections: up to 300 at once (file limit 1024), 9 per client address; " \
           "a request's headers within 2.5 s" in res.output
    (app, kw), = ran
    st = app.state.manager.settings
    assert (st.header_timeout, st.max_connections_per_address, st.max_connections) == (2.5, 9, 300)
    assert issubclass(kw["http"], guard.GuardedHttp) and kw["ws"] is guard.GuardedWebSocket
    g = kw["http"].guard
    assert (g.per_address, g.total, g.header_timeout) == (9, 300, 2.5)
    res = cli("serve")  # by default: the file limit less the reserve
    assert f"up to {1024 - guard.reserve(1024)} at once (file limit 1024), 64 per client address" in res.output
    assert cli("serve", "--header-timeout", "0").exit_code == 2
    assert cli("serve", "--address-connections", "0").exit_code == 2


def test_has_display_reads_the_environment(monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert serve_cmd._has_display() is False
    monkeypatch.setenv("DISPLAY", ":0")
    assert serve_cmd._has_display() is True
