"""`shangrao serve` prints the address to open and opens a browser only where a display is."""

from __future__ import annotations

import threading
import webbrowser

import pytest

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
    ((_app, kw),) = ran
    assert {k: kw[k] for k in ("host", "port", "log_level")} == {
        "host": "127.0.0.1",
        "port": 8123,
        "log_level": "warning",
    }
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
    res = cli(
        "serve",
        "--claim-pause",
        "0",
        "--max-live-tables",
        "7",
        "--messages-per-second",
        "3",
        "--idle-timeout",
        "60",
        "--ws-deflate",
        "--ping-interval",
        "5",
    )
    assert res.exit_code == 0, res.output
    ((app, kw),) = ran
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
    assert (
        "connections: up to 300 at once (file limit 1024), 9 per client address group (/24, /64, loopback); "
        "a request's headers within 2.5 s" in res.output
    )
    ((app, kw),) = ran
    st = app.state.manager.settings
    assert (st.header_timeout, st.max_connections_per_address, st.max_connections) == (2.5, 9, 300)
    assert issubclass(kw["http"], guard.GuardedHttp) and kw["ws"] is guard.GuardedWebSocket
    g = kw["http"].guard
    assert (g.per_address, g.total, g.header_timeout) == (9, 300, 2.5)
    res = cli("serve")  # by default: the file limit less the reserve
    assert f"up to {1024 - guard.reserve(1024)} at once (file limit 1024), 128 per client address group" in res.output
    assert cli("serve", "--header-timeout", "0").exit_code == 2
    assert cli("serve", "--address-connections", "0").exit_code == 2


def test_has_display_reads_the_environment(monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert serve_cmd._has_display() is False
    monkeypatch.setenv("DISPLAY", ":0")
    assert serve_cmd._has_display() is True


def test_every_server_setting_is_a_serve_option_and_an_environment_variable(cli, monkeypatch):
    """The options are made from shangrao.web.Settings: each field is --name and SHANGRAO_NAME, with its
    description as help; the variable is read when the option is not given, and the option wins."""
    from shangrao.web.settings import Settings, env_var, option_name

    monkeypatch.setenv("COLUMNS", "250")  # one line per option's help: names are not wrapped
    res = cli("serve", "--help")
    assert res.exit_code == 0
    flat = " ".join(res.output.replace("│", " ").split())
    for name, field in Settings.model_fields.items():
        assert option_name(name) in flat, name
        assert " ".join(field.description.split()[:3]) in flat, name
        assert env_var(name) == "SHANGRAO_" + option_name(name)[2:].replace("-", "_").upper()
    assert "SHANGRAO_CLAIM_TIMEOUT=5 for --claim-timeout 5" in flat  # the rule of the variables' names
    ran, _ = _patch(monkeypatch, display=False)
    monkeypatch.setenv("SHANGRAO_CLAIM_TIMEOUT", "5")
    monkeypatch.setenv("SHANGRAO_STANDIN_BOT", "random")
    monkeypatch.setenv("SHANGRAO_RETRY_DELAY", "0.25")
    monkeypatch.setenv("SHANGRAO_DB_THREADS", "2")
    monkeypatch.setenv("SHANGRAO_NEXT_HAND_TIMEOUT", "7")
    monkeypatch.setenv("SHANGRAO_TURN_TIMEOUT", "40")
    res = cli("serve", "--turn-timeout", "50", "--read-threads", "3")
    assert res.exit_code == 0, res.output
    ((app, _kw),) = ran
    st = app.state.manager.settings
    assert (
        st.claim_timeout,
        st.standin_bot,
        st.retry_delay,
        st.db_threads,
        st.next_hand_timeout,
        st.turn_timeout,
        st.read_threads,
    ) == (5.0, "random", 0.25, 2, 7.0, 50.0, 3)


def test_a_bad_setting_is_one_line_naming_the_option_or_the_variable(shangrao_cmd, tmp_path, one_line_error):
    import os
    import subprocess

    def run(*args, **env):
        e = {**os.environ, "SHANGRAO_DB": str(tmp_path / "d.sqlite3"), **env}
        return subprocess.run(
            [*shangrao_cmd, "serve", "--no-browser", *args], capture_output=True, text=True, env=e, timeout=120
        )

    one_line_error(run("--standin-bot", "nobody"), "--standin-bot", "SHANGRAO_STANDIN_BOT", "greedy")
    one_line_error(run(SHANGRAO_CLAIM_TIMEOUT="soon"), "--claim-timeout")
    one_line_error(run(SHANGRAO_CLAIM_TIMEOUT="0"), "--claim-timeout", "SHANGRAO_CLAIM_TIMEOUT", "greater than 0")
    one_line_error(run("--bot-delay", "inf"), "--bot-delay")
    one_line_error(run(SHANGRAO_MAX_NAME="500"), "--max-name")


@pytest.mark.parametrize(
    "value,words",
    [
        ("我的=ext:{py} -V", "a label is 1-32 ASCII letters"),  # non-ASCII
        ("=ext:{py} -V", "the label ''"),  # empty
        ("mine=", "has no bot after '='"),
        ("a=ext:{py} -V;a=ext:{py} -V", "given twice"),
        ("Greedy=ext:{py} -V", "names a registered bot"),
        ("human=ext:{py} -V", "names a registered bot"),
        ("mine=ext:/no/such/bot", "not found"),
    ],
    ids=["non-ascii", "empty", "no-spec", "twice", "registered", "human", "missing"],
)
def test_bad_offered_bot_labels_are_refused_naming_the_variable(value, words):
    import sys

    from shangrao.bots import UnknownBotError, _web_bot_labels

    with pytest.raises(UnknownBotError, match="SHANGRAO_WEB_BOTS") as err:
        _web_bot_labels(value.format(py=sys.executable))
    assert words in str(err.value)


def test_an_equals_sign_inside_a_spec_is_part_of_its_command():
    import sys

    from shangrao.bots import _web_bot_labels

    assert _web_bot_labels(f"b=ext:{sys.executable} -c x=1;ext:{sys.executable} -c y=2") == (
        ("b", f"ext:{sys.executable} -c x=1"),
        ("bot1", f"ext:{sys.executable} -c y=2"),
    )


def test_serve_refuses_bad_offered_bots_in_one_line_before_listening(shangrao_cmd, tmp_path, one_line_error):
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "SHANGRAO_DB": str(tmp_path / "d.sqlite3"),
        "SHANGRAO_WEB_BOTS": f"我的=ext:{sys.executable} -V",
    }
    proc = subprocess.run(
        [*shangrao_cmd, "serve", "--no-browser", "--port", "1"], capture_output=True, text=True, env=env, timeout=60
    )
    one_line_error(proc, "SHANGRAO_WEB_BOTS", "a label is 1-32 ASCII letters")
    assert not (tmp_path / "d.sqlite3").exists()  # refused before the database was opened


def test_settings_made_by_a_program_read_the_environment_and_check_their_bounds(monkeypatch):
    import pytest
    from pydantic import ValidationError

    from shangrao.web import Settings
    from shangrao.web.tables import Settings as TablesSettings

    assert TablesSettings is Settings
    monkeypatch.setenv("SHANGRAO_CLAIM_TIMEOUT", "5")
    assert Settings().claim_timeout == 5.0 and Settings(claim_timeout=6).claim_timeout == 6.0
    with pytest.raises(ValidationError, match="claim_timeout"):
        Settings(claim_timeout=-1)
    with pytest.raises(ValueError, match="standin_bot: one of"):
        Settings(standin_bot="nobody")


def test_docs_list_every_setting_with_its_option_variable_and_default():
    """docs/web.md's table of settings is the model's: one row per field, in its order."""
    from pathlib import Path

    from shangrao.web.settings import Settings, env_var, option_name

    text = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `--") and "| `SHANGRAO_" in line]
    documented = {r.split("|")[3].strip(): [c.strip() for c in r.split("|")[1:-1]] for r in rows}
    fields = [n for n in documented if n != "—"]
    assert fields == [f"`{n}`" for n in Settings.model_fields]
    for name, f in Settings.model_fields.items():
        option, var, _, default, what = documented[f"`{name}`"]
        assert (option, var, default) == (f"`{option_name(name)}`", f"`{env_var(name)}`", str(f.default)), name
        assert what == f.description, name
