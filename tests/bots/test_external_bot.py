"""Outside bots over the line protocol (docs/bot-protocol.md): samples in Node.js and Python, and faults."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from shangrao.arena import run_arena
from shangrao.bots import get_bot
from shangrao.bots.external import ExternalBot, ExternalBotError, ExternalBotWarning, group_members
from shangrao.game import Game, play_hand

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "examples" / "bots" / "first_legal_bot.js"
PY_BOT = ROOT / "examples" / "bots" / "tsumogiri_bot.py"
PY = sys.executable

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (.ci/run installs nodejs)")


def _script(tmp_path, name, body):
    p = tmp_path / name
    p.write_text(textwrap.dedent(body))
    return f"{PY} {p}"


def _greedy3():
    return [get_bot("greedy", seed=i) for i in (1, 2, 3)]


@needs_node
def test_the_node_sample_bot_plays_20_hands_in_the_arena():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ExternalBotWarning)  # no fault, no stand-in
        res = run_arena([f"ext:node {NODE_BOT}", "greedy", "greedy", "greedy"], deals=5, seed=3)
    ext = res["bots"][0]
    assert ext["bot"] == f"ext:node {NODE_BOT}" and ext["hands"] == 20
    assert res["timing"]["bots"][ext["bot"]]["decisions"] > 100


def test_the_python_sample_bot_plays_and_sees_its_seats_redacted_log(tmp_path):
    log = tmp_path / "seen.jsonl"
    cmd = _script(
        tmp_path,
        "tee_bot.py",
        f"""
        import json, subprocess, sys
        out = open({str(log)!r}, "w")
        child = subprocess.Popen([{PY!r}, {str(PY_BOT)!r}], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for line in sys.stdin:
            out.write(line); out.flush()
            child.stdin.write(line); child.stdin.flush()
            if json.loads(line)["type"] == "request":
                sys.stdout.write(child.stdout.readline()); sys.stdout.flush()
    """,
    )
    bot = ExternalBot(cmd, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ExternalBotWarning)
        play_hand(Game(seed=4), [bot, *_greedy3()])
    bot.close()
    msgs = [json.loads(x) for x in log.read_text().splitlines()]
    assert msgs[0]["type"] == "hello" and msgs[0]["protocol"] == "shangrao-bot"
    deal = next(m for m in msgs if m["type"] == "deal")
    assert deal["seat"] == 0 and "wall" not in deal and "hands" not in deal and len(deal["hand"]) == 13
    others_draws = [m for m in msgs if m["type"] == "draw" and m["seat"] != 0]
    assert others_draws and all(m["tile"] is None and m["kind"] is None for m in others_draws)
    assert not [m for m in msgs if m["type"] in ("pass", "call") and m["seat"] != 0]
    assert msgs[-1]["type"] == "bye"
    assert any(m["type"] == "end" for m in msgs)  # the hand's end reaches the bot
    req = next(m for m in msgs if m["type"] == "request")
    assert set(req) == {"type", "id", "seat", "legal", "observation"}


def test_a_bot_answering_garbage_gets_the_stand_in_and_a_warning_and_the_hand_goes_on(tmp_path):
    cmd = _script(
        tmp_path,
        "garbage.py",
        """
        import sys
        for line in sys.stdin:
            if '"request"' in line:
                print("shout 9z", flush=True)
    """,
    )
    bot = ExternalBot(cmd, seed=1)
    with pytest.warns(ExternalBotWarning, match="not an action"):
        res = play_hand(Game(seed=2), [bot, *_greedy3()])
    bot.close()
    assert sum(res.deltas) == 0
    assert bot.faults and all("not an action" in f for f in bot.faults)


def test_a_bot_answering_an_illegal_action_gets_the_stand_in(tmp_path):
    cmd = _script(
        tmp_path,
        "illegal.py",
        """
        import sys
        for line in sys.stdin:
            if '"request"' in line:
                print("catch_bao", flush=True)
    """,
    )
    bot = ExternalBot(cmd, seed=1)
    with pytest.warns(ExternalBotWarning, match="not legal"):
        play_hand(Game(seed=2), [bot, *_greedy3()])
    bot.close()


def test_a_bot_answering_late_gets_the_stand_in_and_its_late_answer_is_ignored(tmp_path):
    cmd = _script(
        tmp_path,
        "late.py",
        """
        import json, sys, time
        n = 0
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "request":
                n += 1
                if n == 1:
                    time.sleep(1.3)  # the first answer comes after the timeout
                print(json.dumps({"id": msg["id"], "action": msg["legal"][-1]}), flush=True)
    """,
    )
    bot = ExternalBot(cmd, seed=1, timeout=1.0)
    with pytest.warns(ExternalBotWarning, match="no answer to request 1 within 1 s"):
        res = play_hand(Game(seed=2), [bot, *_greedy3()])
    bot.close()
    assert sum(res.deltas) == 0
    assert len(bot.faults) == 1  # the late answer (id 1) was not taken for request 2


def test_a_bot_that_dies_gets_the_stand_in_for_the_rest_of_the_hand(tmp_path):
    cmd = _script(
        tmp_path,
        "dies.py",
        """
        import sys
        sys.stdin.readline()   # hello
        sys.exit(3)
    """,
    )
    bot = ExternalBot(cmd, seed=1)
    with pytest.warns(ExternalBotWarning, match="exited"):
        res = play_hand(Game(seed=2), [bot, *_greedy3()])
    assert sum(res.deltas) == 0
    assert bot.dead and len(bot.faults) == 1 and "stand-in bot plays" in bot.faults[0]


def test_strict_mode_raises_a_clear_error(tmp_path):
    cmd = _script(
        tmp_path,
        "garbage2.py",
        """
        import sys
        for line in sys.stdin:
            if '"request"' in line:
                print("{not json", flush=True)
    """,
    )
    bot = ExternalBot(cmd, seed=1, strict=True)
    with pytest.raises(ExternalBotError, match="not JSON"):
        play_hand(Game(seed=2), [bot, *_greedy3()])
    bot.close()


def test_the_arena_goes_on_when_an_outside_bot_dies(tmp_path):
    cmd = _script(
        tmp_path,
        "dies2.py",
        """
        import sys
        sys.exit(0)
    """,
    )
    with pytest.warns(ExternalBotWarning):
        res = run_arena([f"ext:{cmd}", "greedy", "greedy", "greedy"], deals=1, seed=1)
    assert res["hands"] == 4


def test_the_schema_documents_every_message_and_the_samples_follow_it():
    schema = json.loads((ROOT / "docs" / "bot-protocol.schema.json").read_text())
    names = set(schema["$defs"])
    assert {"hello", "request", "bye", "event", "answer"} <= names
    jsonschema = pytest.importorskip("jsonschema")
    v = jsonschema.Draft202012Validator(schema)
    g = Game(seed=1)
    from shangrao.game import redact

    msgs = [{"type": "hello", "protocol": "shangrao-bot", "version": 1, "name": "x"}]
    msgs += redact(g.events, 0)
    msgs.append(
        {
            "type": "request",
            "id": 1,
            "seat": 0,
            "legal": [str(a) for a in g.legal_actions()],
            "observation": g.observation(0).to_dict(),
        }
    )
    msgs.append({"type": "bye"})
    for m in msgs:
        v.validate(json.loads(json.dumps(m)))


def test_outside_bots_are_gymnasium_opponents(tmp_path):
    gymnasium = pytest.importorskip("gymnasium")
    import numpy as np

    import shangrao.env  # noqa: F401

    env = gymnasium.make("Shangrao-v1", opponents=f"ext:{PY} {PY_BOT}", seat=0).unwrapped
    obs, _ = env.reset(seed=2)
    done = False
    with warnings.catch_warnings():
        warnings.simplefilter("error", ExternalBotWarning)
        while not done:
            obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(isinstance(b, ExternalBot) for b in env.bots[1:])


# ---------------------------------------------------------------- size, writes and lifetime (issue 34)


def _request(bot):
    g = Game(seed=2)
    while g.current_seat != 0 or len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    bot.see_log(g.events, 0)
    return g.observation(0), g.legal_actions()


def test_a_line_over_the_limit_is_one_fault_not_pieces_taken_as_answers(tmp_path):
    from shangrao.bots.external import MAX_LINE

    cmd = _script(
        tmp_path,
        "long.py",
        f"""
        import json, sys
        n = 0
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "request":
                n += 1
                if n == 1:
                    sys.stdout.write("x" * ({MAX_LINE} + 5) + "\\n")  # one line a little over the limit
                print(json.dumps({{"id": msg["id"], "action": msg["legal"][0]}}), flush=True)
    """,
    )
    bot = ExternalBot(cmd, seed=1, timeout=5.0)
    obs, legal = _request(bot)
    with pytest.warns(ExternalBotWarning, match=f"line of {MAX_LINE + 5} bytes, over the limit"):
        bot.choose(obs, legal)
    assert bot.choose(obs, legal) == legal[0]  # the next request is answered by the bot again
    assert len(bot.faults) == 1 and not bot.dead
    bot.close()


def test_the_queue_of_unread_lines_is_bounded_and_a_flood_is_a_fault(tmp_path):
    from shangrao.bots.external import MAX_QUEUED

    cmd = _script(
        tmp_path,
        "flood.py",
        """
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "request":
                sys.stdout.write("noise\\n" * 5000)
                print(json.dumps({"id": msg["id"], "action": msg["legal"][0]}), flush=True)
    """,
    )
    bot = ExternalBot(cmd, seed=1, timeout=5.0)
    obs, legal = _request(bot)
    with pytest.warns(ExternalBotWarning):
        bot.choose(obs, legal)  # "noise" is not an action
    import time as _time

    _time.sleep(0.5)  # the reader keeps reading the flood into the bounded queue
    assert bot._lines is not None and bot._lines.q.qsize() <= MAX_QUEUED + 1 and bot._lines.dropped > 0
    with pytest.warns(ExternalBotWarning) as got:
        bot.choose(obs, legal)
    assert any("dropped: more than" in str(w.message) for w in got)
    bot.close()


def test_a_bot_that_stops_reading_its_stdin_does_not_block_a_write_past_the_timeout(tmp_path):
    import time as _time

    cmd = _script(
        tmp_path,
        "deaf.py",
        """
        import time
        time.sleep(60)   # never reads its stdin
    """,
    )
    bot = ExternalBot(cmd, seed=1, timeout=0.5)
    pgid = None
    t0 = _time.monotonic()
    with pytest.warns(ExternalBotWarning, match="does not read its stdin"):
        for i in range(200):  # ~1 MB of messages: far more than a pipe holds
            if not bot._send({"type": "noise", "i": i, "pad": "x" * 5000}):
                break
            pgid = bot.pgid
    assert _time.monotonic() - t0 < 5.0 and bot.dead
    obs, legal = _request(bot)
    assert bot.choose(obs, legal) in legal  # the stand-in plays
    assert pgid is not None and group_members(pgid) == []  # ended with its group


def test_closing_a_bot_ends_its_whole_process_group_children_included(tmp_path):
    cmd = _script(
        tmp_path,
        "forks.py",
        """
        import signal, subprocess, sys
        signal.signal(signal.SIGTERM, signal.SIG_IGN)   # deaf to SIGTERM: SIGKILL follows
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        for line in sys.stdin:
            pass
    """,
    )
    bot = ExternalBot(cmd, seed=1, timeout=2.0)
    _request(bot)  # started, and shown its log
    pgid = bot.pgid
    assert pgid is not None
    import time as _time

    deadline = _time.monotonic() + 10
    while len(group_members(pgid)) < 2:  # the bot and its child
        assert _time.monotonic() < deadline, "the bot's child did not start"
        _time.sleep(0.02)
    bot.close()
    assert group_members(pgid) == []
