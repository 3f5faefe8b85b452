"""Every label of the game in one JSON-able table, for front ends (the web client) that must not copy them.

The labels themselves live with what they name — :class:`shangrao.game.ActionType`,
:class:`shangrao.melds.MeldType`, :class:`shangrao.scoring.WinBy`, the pattern, doubling and bonus
definitions of :mod:`shangrao.scoring.items`, the bot registry :data:`shangrao.bots.BOTS`, the phases
of :class:`shangrao.game.Phase` — and :func:`labels_table` only collects them.  The web server serves
it as ``GET /api/labels``.

>>> labels_table()["actions"]["concealed_kong"]
{'zh': '自摸杠', 'en': 'concealed kong'}
"""

from __future__ import annotations

from typing import Any

__all__ = ["labels_table"]

#: the phases' labels (the names of the phases themselves are :class:`shangrao.game.Phase`)
_PHASES = {
    "act": ("摸牌后", "turn"),
    "discard": ("出牌", "discard"),
    "claim": ("吃碰杠", "claim window"),
    "rob": ("抢杠?", "rob window"),
    "over": ("结束", "hand over"),
}

#: the words of the rooms (issue 24: the lobby's 房间 card, the room page, its refusals by code)
_ROOM = {
    "rooms": ("房间", "Rooms"),
    "rooms_note": (
        "朋友固定组局：开个房间，把房间号发给大家",
        "Play with the same friends: open a room and send its code",
    ),
    "open_room": ("开房间", "Open a room"),
    "your_name": ("你的名字", "Your name"),
    "room_name": ("房间名", "Room name"),
    "code": ("房间号", "Room code"),
    "enter": ("进入房间", "Enter the room"),
    "copy_link": ("复制链接", "Copy link"),
    "copied": ("已复制", "Copied"),
    "members": ("成员与座位", "Members and seats"),
    "empty_seat": ("空位（机器人）", "empty (a bot)"),
    "join": ("加入房间", "Join the room"),
    "join_note": ("输入你的名字加入这个房间", "Type your name to join this room"),
    "current": ("当前牌桌", "Current table"),
    "go_seat": ("去我的座位", "Go to my seat"),
    "no_match": ("还没开局", "No match yet"),
    "start": ("开局", "Start a match"),
    "again": ("再来一局", "Another match"),
    "back_room": ("回到房间", "Back to the room"),
    "standings": ("战绩", "Standings"),
    "csv": ("导出CSV", "Export CSV"),
    "match_no": ("第{0}场", "Match {0}"),
    "total": ("合计", "Total"),
    "hands_n": ("{0}局", "{0} hands"),
    "me": ("（你）", " (you)"),
    "match_state": ("第{0}场 · {1} · 第{2}/{3}局", "Match {0} · {1} · hand {2}/{3}"),
    "no_room": ("没有这个房间：房间号是6位数字", "There is no room with this code (six digits)"),
    "room_full": ("这个房间已经满了（4人）", "This room is full: four members have joined"),
    "guessing": ("房间号输错太多次了，请一分钟后再试", "Too many unknown room codes: try again in a minute"),
    "too_many_rooms": ("开房间太频繁了，请一分钟后再试", "Too many new rooms from here: try again in a minute"),
    "match_running": ("这一场还没打完", "The room's match is still being played"),
    "not_member": ("只有房间成员才能开局", "Only the room's members can start a match"),
    "bad_name": ("请填写名字（最多40个字）", "Please give a name (at most 40 characters)"),
    "busy": ("服务器现在太忙，请稍后再试", "The server is busy; try again later"),
    # a room's settings (issue 38): its rules, 提示 and the empty seats' bot, changed by its creator
    "room_rules": ("本房规则", "The room's rules"),
    "rules_default": ("全部按原文", "all as the text reads"),
    "hints_on": ("允许提示", "hints allowed"),
    "hints_off": ("不许提示", "no hints"),
    "empty_bot": ("空位机器人", "Bots in empty seats"),
    "strongest": ("最强", "the strongest"),
    "change_rules": ("修改规则", "Change the rules"),
    "save_rules": ("保存规则", "Save the rules"),
    "rules_note": (
        "开局前由房主修改；每一场的规则记在战绩里",
        "The creator changes them between matches; each match's rules are in the standings",
    ),
    "not_creator": ("只有房主能修改规则", "Only the room's creator can change its rules"),
    "bad_rules": ("规则填写有误", "A rule's value is not valid"),
    "bad_bot": ("没有这个机器人", "No such bot"),
    "next_match": ("再来一场（房间第{0}场）", "Next match (the room's match {0})"),
    "next_match_room": ("再来一场（房间下一场）", "Next match of the room"),
    "rank": ("名次", "Rank"),
    "match_rules": ("规则", "Rules"),
}


def labels_table() -> dict[str, Any]:
    """``{section: {id: {"zh": Chinese, "en": English}}}`` for sections ``actions``, ``melds``,
    ``win_by``, ``patterns`` (also ``factor``), ``doublings``, ``bonuses``, ``bots`` (also ``label``,
    the registry's whole line), ``phases``, ``room`` (the rooms' words, and their refusals by the
    ``code`` of :mod:`shangrao.web.rooms`' answers), and (issue 24) ``phrases`` (the quick phrases,
    快捷语) and ``manners`` (托管, 解散, the spectator's words, 任意牌（宝吊）), of
    :mod:`shangrao.game.manners`, and (issue 38) ``rules`` (every rule option's words,
    :data:`shangrao.rules.RULE_LABELS`).  Ids are the wire names (action types, meld kinds,
    pattern/doubling/bonus ids, bot names).  A bot's words are read off its registry label
    ``"<Chinese name> <name>: <what it plays>"``: ``zh`` the Chinese name, ``en`` the bot's name.
    """
    from .bots import BOTS
    from .game import ActionType, Phase
    from .game.manners import MANNER_WORDS, PHRASES
    from .melds import MeldType
    from .rules import RULE_LABELS
    from .scoring import WinBy
    from .scoring.items import BONUSES, DOUBLINGS, PATTERNS

    return {
        "actions": {t.value: {"zh": t.chinese, "en": t.english} for t in ActionType},
        "melds": {k.value: {"zh": k.chinese, "en": k.english} for k in MeldType},
        "win_by": {w.value: {"zh": w.chinese, "en": w.english} for w in WinBy},
        "patterns": {p.id: {"zh": p.name, "en": p.english, "factor": p.factor} for p in PATTERNS.values()},
        "doublings": {d.id: {"zh": d.name, "en": d.english} for d in DOUBLINGS.values()},
        "bonuses": {b.id: {"zh": b.name, "en": b.english} for b in BONUSES.values()},
        "bots": {name: {"zh": e.label.split(" ", 1)[0], "en": name, "label": e.label} for name, e in BOTS.items()},
        "phases": {p.value: {"zh": _PHASES[p.value][0], "en": _PHASES[p.value][1]} for p in Phase},
        "room": {k: {"zh": zh, "en": en} for k, (zh, en) in _ROOM.items()},
        "phrases": {k: {"zh": zh, "en": en} for k, (zh, en) in PHRASES.items()},
        "manners": {k: {"zh": zh, "en": en} for k, (zh, en) in MANNER_WORDS.items()},
        "rules": {k: {"zh": zh, "en": en} for k, (zh, en) in RULE_LABELS.items()},
    }
