"""The rooms' records (shangrao.records.rooms, issue 24): codes unique among live rooms, members at the
lowest free seat and at most four, matches in order, and the 战绩 equal to the sum of the stored hands
(a property test against the obvious sum, and the CSV read back)."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shangrao.records import Store
from shangrao.records.rooms import (
    CodeTaken,
    RoomError,
    RoomFull,
    RoomNotFound,
    add_member,
    add_room_game,
    create_room,
    is_code,
    load_room,
    room_of_game,
    standings,
)
from shangrao.records.schema import RoomRow


@pytest.fixture
def store():
    s = Store("sqlite://")
    yield s
    s.close()


def _hashes(c: str) -> str:
    return c * 64


def test_a_live_rooms_code_is_unique(store):
    create_room(store, "123456", "甲", 8, {}, "老王", _hashes("a"))
    with pytest.raises(CodeTaken, match="123456"):
        create_room(store, "123456", "乙", 8, {}, "小李", _hashes("b"))


def test_a_closed_rooms_code_may_be_drawn_again(store):
    first = create_room(store, "123456", "甲", 8, {}, "老王", _hashes("a"))
    with store._write() as s:
        s.get(RoomRow, first.id).status = "closed"
    again = create_room(store, "123456", "乙", 8, {}, "小李", _hashes("b"))
    assert again.id != first.id and load_room(store, "123456").name == "乙"


def test_a_code_is_six_ascii_digits():
    assert is_code("000000") and is_code("987654")
    for bad in ("12345", "1234567", "abcdef", "12345a", "１２３４５６", "", None, 123456):
        assert not is_code(bad), bad


def test_a_code_not_in_form_is_no_room_and_is_not_stored(store):
    with pytest.raises(RoomNotFound):
        load_room(store, "12345")
    with pytest.raises(RoomNotFound):
        load_room(store, "000000")
    with pytest.raises(RoomError):
        create_room(store, "abcdef", "甲", 8, {}, "老王", _hashes("a"))


def test_members_take_the_lowest_free_seat_and_a_fifth_is_refused(store):
    create_room(store, "222222", "周三局", 8, {}, "老王", _hashes("a"))
    seats = [add_member(store, "222222", n, _hashes(c)).seat for n, c in (("小李", "b"), ("阿三", "c"), ("丁", "d"))]
    assert seats == [1, 2, 3]
    with pytest.raises(RoomFull, match="4 members"):
        add_member(store, "222222", "多余", _hashes("e"))
    room = load_room(store, "222222")
    assert [(m.seat, m.name) for m in room.members] == [(0, "老王"), (1, "小李"), (2, "阿三"), (3, "丁")]


def test_matches_are_numbered_in_order_and_a_game_knows_its_room(store):
    room = create_room(store, "333333", "周三局", 8, {}, "老王", _hashes("a"))
    g1 = store.create_game("web", ["human"] * 4, seed=1)
    g2 = store.create_game("web", ["human"] * 4, seed=2)
    assert add_room_game(store, room.id, g1) == 1 and add_room_game(store, room.id, g2) == 2
    assert load_room(store, "333333").games == [g1, g2]
    assert room_of_game(store, g2).code == "333333"
    assert room_of_game(store, store.create_game("web", ["human"] * 4, seed=3)) is None


deltas4 = st.lists(st.integers(-500, 500), min_size=3, max_size=3).map(lambda d: [*d, -sum(d)])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(matches=st.lists(st.lists(deltas4, max_size=5), min_size=1, max_size=3))
def test_the_standings_are_the_sum_of_the_stored_hands(matches):
    from shangrao.web.api_rooms import standings_csv

    with Store("sqlite://") as store:
        room = create_room(store, "444444", "周三局", 8, {}, "老王", _hashes("a"))
        add_member(store, "444444", "小李", _hashes("b"))
        for n, hands in enumerate(matches):
            gid = store.create_game("web", ["human"] * 4, seed=n)
            for i, d in enumerate(hands):
                store.append_hand(gid, i, dealer=0, events=[], result={"deltas": d})
            add_room_game(store, room.id, gid)
        table = standings(store, load_room(store, "444444"))
        every = [d for hands in matches for d in hands]
        assert table["totals"] == [sum(d[i] for d in every) for i in range(4)]
        assert table["hands"] == len(every)
        assert [m["totals"] for m in table["matches"]] == [[sum(d[i] for d in h) for i in range(4)] for h in matches]
        text = standings_csv(table)
        assert text.startswith("\ufeff")
        rows = list(csv.reader(io.StringIO(text[1:])))
        assert rows[0][4:] == ["0号 老王", "1号 小李", "2号", "3号"]
        assert [[int(x) for x in r[4:]] for r in rows[1:-1]] == every
        assert rows[-1][0] == "合计 total" and [int(x) for x in rows[-1][4:]] == table["totals"]
