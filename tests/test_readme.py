"""The README's Python example runs and prints what its comments say."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_example() -> str:
    text = README.read_text(encoding="utf-8")
    m = re.search(r"From Python:\s*```python\n(.*?)```", text, re.S)
    assert m, "README has a 'From Python:' example"
    return m.group(1)


def test_readme_python_example_runs_as_documented():
    code = _python_example()
    ns: dict = {}
    exec(compile(code, "README.md", "exec"), ns)
    # each `expression  # value` line evaluates to the value its comment starts with
    checked = 0
    for line in code.splitlines():
        expr, sep, comment = line.partition("#")
        expr = expr.strip()
        if not sep or not expr or re.match(r"[\w.]+\s*=[^=]", expr) or expr.startswith(("import", "from")):
            continue
        want = comment.strip().split(":", 1)[0].strip()
        assert str(eval(expr, ns)) == want, (expr, want)
        checked += 1
    assert checked >= 3
    assert ns["a"].waits and ns["r"].total == 6
