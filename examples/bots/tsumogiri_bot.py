#!/usr/bin/env python3
"""A Shangrao outside bot in plain Python (docs/bot-protocol.md), no shangrao import needed.

Follows the seat's event log to know the tile it just drew; wins when it can, passes on every
claim, and discards the tile it drew (摸切, tsumogiri) — else the first legal discard.

    shangrao arena --bots "ext:python3 examples/bots/tsumogiri_bot.py,greedy" --deals 5
"""

import json
import sys


def main() -> None:
    seat = None
    drawn = None  # mpsz kind of the tile this seat just drew (from the "draw" events)
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        t = msg.get("type")
        if t == "deal":
            seat = msg["seat"]
        elif t == "draw" and msg["seat"] == seat:
            drawn = msg["kind"]
        elif t == "request":
            legal = msg["legal"]
            if "win" in legal:
                pick = "win"
            elif "pass" in legal:
                pick = "pass"
            elif drawn is not None and f"discard {drawn}" in legal:
                pick = f"discard {drawn}"
            else:
                pick = next((a for a in legal if a.startswith("discard")), legal[0])
            print(json.dumps({"id": msg["id"], "action": pick}), flush=True)
        elif t == "bye":
            return


if __name__ == "__main__":
    main()
