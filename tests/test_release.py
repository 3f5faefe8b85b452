"""What a release is made of agrees with itself: the package's version is the CHANGELOG's latest
release, and constraints.txt pins every dependency pyproject.toml names, at a version it allows."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import shangrao

ROOT = Path(__file__).resolve().parents[1]
#: extras CI does not install (.ci/run installs test and lint): a GPU wheel and the developer's tools
UNPINNED_EXTRAS = {"train", "dev"}


def _release_headings() -> list[str]:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.findall(r"^## (?!Unreleased\b)(\S+)", text, re.M)


def test_the_package_version_is_the_changelogs_latest_release():
    releases = _release_headings()
    assert releases, "CHANGELOG.md has no '## X.Y.Z' release heading"
    assert shangrao.__version__ == releases[0]


def test_the_changelogs_releases_are_versions_newest_first_each_once():
    versions = [Version(v) for v in _release_headings()]
    assert versions == sorted(set(versions), reverse=True)


def test_pyproject_reads_the_version_from_the_package():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["dynamic"] == ["version"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "shangrao.__version__"}


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for n, line in enumerate((ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", line)
        assert m, f"constraints.txt line {n} is not NAME==VERSION: {line!r}"
        name = canonicalize_name(m.group(1))
        assert name not in pins, f"constraints.txt pins {name} twice (line {n})"
        pins[name] = Version(m.group(2))
    return pins


def _requirements() -> list[tuple[str, Requirement]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    groups = {"dependencies": project["dependencies"]}
    groups |= {f"[{k}]": v for k, v in project["optional-dependencies"].items() if k not in UNPINNED_EXTRAS}
    out = []
    for group, reqs in groups.items():
        for text in reqs:
            req = Requirement(text)
            if canonicalize_name(req.name) != "shangrao":  # shangrao[rl,ray]: an extra of its own
                out.append((group, req))
    return out


def test_constraints_pin_every_dependency_at_a_version_pyproject_allows():
    pins = _pins()
    assert "shangrao" not in pins, "constraints.txt pins the project itself"
    missing = [f"{group}: {req}" for group, req in _requirements() if canonicalize_name(req.name) not in pins]
    assert missing == [], "not in constraints.txt (pip freeze of the CI venv): " + ", ".join(missing)
    refused = [
        f"{group}: {req} but constraints.txt has {pins[canonicalize_name(req.name)]}"
        for group, req in _requirements()
        if not req.specifier.contains(pins[canonicalize_name(req.name)], prereleases=True)
    ]
    assert refused == []
