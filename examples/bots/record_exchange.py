#!/usr/bin/env python3
"""Record an outside bot's exchange with the engine (docs/bot-protocol.md), no shangrao import.

    shangrao simulate --engine python --hands 1 --seed 7 \
        --bots "ext:python3 examples/bots/record_exchange.py exchange.txt python3 examples/bots/tsumogiri_bot.py,greedy"

Starts the bot named after the file argument, passes every engine line to it and every answer back,
and writes both to the file in order: ``> `` before a line the engine sent, ``< `` before the bot's
answer.  docs/bot-protocol-example.txt is such a file, from a real run (tests/bots/test_bot_protocol_doc.py
plays the hand again and compares).
"""

import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: record_exchange.py FILE BOT-COMMAND…", file=sys.stderr)
        return 2
    bot = subprocess.Popen(
        sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1
    )
    assert bot.stdin is not None and bot.stdout is not None
    with open(sys.argv[1], "w", encoding="utf-8") as log:
        for line in sys.stdin:
            log.write("> " + line)
            log.flush()
            bot.stdin.write(line)
            bot.stdin.flush()
            if '"type": "request"' in line or '"type":"request"' in line:
                answer = bot.stdout.readline()
                if not answer:
                    break
                log.write("< " + answer)
                log.flush()
                sys.stdout.write(answer)
                sys.stdout.flush()
    bot.stdin.close()
    return bot.wait()


if __name__ == "__main__":
    sys.exit(main())
