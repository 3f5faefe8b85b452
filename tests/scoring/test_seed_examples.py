"""The seed's five 计分举例, through the public API and through ``shangrao score``.

四、计分举例:
1. 平糊自摸, no 飞宝: the other three pay 2 each, the winner gains 6.
2. 无宝十三浪: 4 each, 12.
3. 无宝九幺: 4 each, 12.
4. 飞了1个宝 + 无宝十三浪: 8 each, 24.
5. The largest hand: 飞4宝, four concealed kongs in a row, 清碰碰糊, 九幺, 单吊, 杠开,
   four 自摸杠, 四个宝: 1*10*2*2*2*2*2*2*2*2*2*2*2 + 8 + 10 = 10258 each, 30774.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import shangrao

ROOT = Path(__file__).resolve().parents[2]

EXAMPLES = {
    "pinghu_zimo": (
        {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"},
        "平糊自摸",
        2,
        6,
    ),
    "wubao_shisanlang": (
        {"hand": "147m147p147s1234z", "win_tile": "5z", "bao": "9m"},
        "无宝十三浪",
        4,
        12,
    ),
    "wubao_jiuyao": (
        {"hand": "119m199p19s11235z", "win_tile": "6z", "bao": "5m"},
        "无宝九幺",
        4,
        12,
    ),
    "feibao_1_wubao_shisanlang": (
        {"hand": "147m147p147s1234z", "win_tile": "5z", "bao": "9m", "winner_flown": 1},
        "无宝十三浪",
        8,
        24,
    ),
    "largest": (
        json.loads((ROOT / "examples" / "seed_largest.json").read_text(encoding="utf-8")),
        "清碰碰糊",
        10258,
        30774,
    ),
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_seed_example_api(name):
    situation, pattern, each, total = EXAMPLES[name]
    r = shangrao.score(situation)
    assert r.winning
    assert r.pattern.name == pattern
    assert r.payments == (each, each, each)
    assert r.total == total


def test_seed_largest_breakdown():
    # 1*10（清碰碰糊）*2（单吊）*2^4（飞4个宝）*2^4（4杠）*2（九幺）+8（4个自摸杠）+10（4个宝）
    situation = EXAMPLES["largest"][0]
    r = shangrao.score(situation)
    assert r.hand_value == 10240
    assert {d.id: (d.count, d.factor) for d in r.doublings} == {
        "gangkai": (4, 16),
        "dandiao": (1, 2),
        "feibao": (4, 16),
        "jiuyao": (1, 2),
    }
    assert {b.name: b.points for b in r.bonuses} == {"自摸杠": 8, "四个宝": 10}
    assert r.bonus_payments == (18, 18, 18)
    assert "10240" in r.breakdown()


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run the ``shangrao`` console script's entry point in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; from shangrao.cli import main; sys.exit(main())", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_seed_example_cli_stdin(name):
    situation, pattern, each, total = EXAMPLES[name]
    proc = _cli("score", "--json", stdin=json.dumps(situation, ensure_ascii=False))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["pattern"]["name"] == pattern
    assert out["payments"] == [each, each, each]
    assert out["total"] == total


def test_seed_largest_cli_file():
    proc = _cli("score", "--json", str(ROOT / "examples" / "seed_largest.json"))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["payments"] == [10258, 10258, 10258] and out["total"] == 30774


def test_seed_examples_cli_jsonl():
    lines = "\n".join(json.dumps(s, ensure_ascii=False) for s, *_ in EXAMPLES.values()) + "\n"
    proc = _cli("score", "--jsonl", stdin=lines)
    assert proc.returncode == 0, proc.stderr
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert [r["total"] for r in results] == [t for *_, t in EXAMPLES.values()]
