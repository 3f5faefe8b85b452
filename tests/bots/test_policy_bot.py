"""A policy is a bot: PolicyBot over callables and checkpoints; bot specs everywhere a bot name is."""

from __future__ import annotations

import multiprocessing
from importlib.metadata import EntryPoint

import numpy as np
import pytest

pytest.importorskip("numpy")

from shangrao import bots
from shangrao.arena import run_arena
from shangrao.bots import UnknownBotError, check_bot_spec, get_bot
from shangrao.bots.policy import MLPPolicy, PolicyBot, PolicyLoadError, load_policy
from shangrao.game import Game, IllegalActionError, play_hand, play_match
from shangrao.selfplay import simulate_hands


def _first_legal(planes, mask):
    assert planes.shape[1:] == (20, 34) and planes.dtype == np.int8
    assert mask.shape[1:] == (110,) and mask.dtype == np.int8
    return np.array([int(np.flatnonzero(m)[0]) for m in mask])


def _tiny_checkpoint(path, seed=0, arch="mlp"):
    rng = np.random.default_rng(seed)
    layers = [
        (rng.standard_normal((680, 16)).astype(np.float32), np.zeros(16, np.float32)),
        (rng.standard_normal((16, 110)).astype(np.float32), np.zeros(110, np.float32)),
    ]
    fnet = (
        [
            (rng.standard_normal((4, 8)).astype(np.float32), np.zeros(8, np.float32)),
            (rng.standard_normal((8, 1)).astype(np.float32), np.zeros(1, np.float32)),
        ]
        if arch == "mlp-features"
        else []
    )
    MLPPolicy(layers, arch, {"test": True}, fnet).save(path)
    return path


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory):
    return str(_tiny_checkpoint(tmp_path_factory.mktemp("ckpt") / "tiny.npz"))


def test_a_callable_returning_actions_plays_a_hand():
    bot = PolicyBot(_first_legal)
    result = play_hand(Game(seed=1), [bot, get_bot("greedy", 1), get_bot("greedy", 2), get_bot("greedy", 3)])
    assert sum(result.deltas) == 0


def test_a_callable_returning_logits_plays_the_best_legal_action():
    def prefer_pass(planes, mask):
        logits = np.zeros((len(mask), 110))
        logits[:, 108] = 10.0  # pass, whenever legal
        logits[:, 0] = 5.0
        return logits

    g = Game(seed=3)
    bot = PolicyBot(prefer_pass)
    play_hand(g, [bot] * 4)
    assert g.is_over


def test_a_policy_returning_an_illegal_index_is_an_error_naming_it():
    bot = PolicyBot(lambda planes, mask: np.full(len(mask), 109))
    g = Game(seed=1)
    with pytest.raises(IllegalActionError, match="109 is not legal"):
        bot.choose(g.observation(g.current_seat), g.legal_actions())


def test_choose_batch_answers_many_decisions_with_one_call():
    calls = []

    def policy(planes, mask):
        calls.append(len(planes))
        return _first_legal(planes, mask)

    bot = PolicyBot(policy)
    games = [Game(seed=s) for s in range(5)]
    acts = bot.choose_batch([g.observation(g.current_seat) for g in games], [g.legal_actions() for g in games])
    assert calls == [5]
    assert all(a in g.legal_actions() for a, g in zip(acts, games))


def test_npz_checkpoint_round_trips_and_plays(ckpt, tmp_path):
    p = load_policy(ckpt)
    assert isinstance(p, MLPPolicy) and p.meta == {"test": True}
    g = Game(seed=2)
    obs = g.observation(g.current_seat)
    from shangrao.bots.policy import encode_decision

    planes, mask, _ = encode_decision(obs, g.legal_actions())
    again = MLPPolicy.load(ckpt)
    np.testing.assert_allclose(p(planes[None], mask[None]), again(planes[None], mask[None]))
    feat = _tiny_checkpoint(tmp_path / "f.npz", arch="mlp-features")
    assert load_policy(feat)(planes[None], mask[None]).shape == (1, 110)


def test_policy_spec_in_get_bot_play_match_and_simulate(ckpt):
    spec = f"policy:{ckpt}"
    assert check_bot_spec(spec) == spec
    bot = get_bot(spec, seed=1)
    assert isinstance(bot, PolicyBot) and bot.name == spec
    play_match([bot, get_bot("greedy"), get_bot("greedy"), get_bot("greedy")], seed=1)
    recs = simulate_hands(2, seed=1, bots=[spec, "greedy", "greedy", "greedy"])
    assert recs[0]["bots"][0] == spec


def test_policy_spec_in_the_arena_same_numbers_with_two_spawned_workers(ckpt):
    lineup = [f"policy:{ckpt}", "greedy", "greedy", "greedy"]
    one = run_arena(lineup, deals=2, seed=4)
    two = run_arena(lineup, deals=2, seed=4, workers=2, mp_context=multiprocessing.get_context("spawn"))
    one.pop("timing")
    two.pop("timing")
    assert one == two
    assert one["bots"][0]["bot"] == f"policy:{ckpt}"


@pytest.mark.parametrize(
    "spec, words",
    [
        ("policy:/nonexistent/x.npz", "No such file"),
        ("policy:", "give a file"),
        ("ext:", "give a command"),
        ("ext:/nonexistent/bot --x", "not found"),
        ("nosuchbot", "unknown bot"),
    ],
)
def test_bad_bot_specs_are_one_clear_error(spec, words):
    with pytest.raises(UnknownBotError, match=words):
        check_bot_spec(spec)


def test_a_file_that_is_not_a_policy_is_refused_naming_it(tmp_path):
    bad = tmp_path / "bad.npz"
    np.savez(bad, x=np.zeros(3))
    with pytest.raises(PolicyLoadError, match="not a shangrao policy"):
        load_policy(bad)
    txt = tmp_path / "p.txt"
    txt.write_text("hi")
    with pytest.raises(PolicyLoadError, match="unknown format"):
        load_policy(txt)
    garbage = tmp_path / "g.npz"
    garbage.write_bytes(b"not a zip")
    with pytest.raises(PolicyLoadError, match="not a readable"):
        load_policy(garbage)


def test_plugins_registered_under_the_entry_point_group_are_bots(monkeypatch):
    ep = EntryPoint(name="Plugged", value="shangrao.bots.random_bot:RandomBot", group=bots.PLUGIN_GROUP)
    monkeypatch.setattr(bots, "_plugin_cache", {"plugged": ep})
    assert "plugged" in bots.plugin_names()
    assert check_bot_spec("PLUGGED") == "plugged"
    b = get_bot("plugged", seed=1)
    assert hasattr(b, "choose")
    res = run_arena(["plugged", "greedy", "greedy", "greedy"], deals=1, seed=1)
    assert res["bots"][0]["bot"] == "plugged"


def test_a_plugin_that_returns_no_bot_is_an_error(monkeypatch):
    ep = EntryPoint(name="broken", value="builtins:str", group=bots.PLUGIN_GROUP)
    monkeypatch.setattr(bots, "_plugin_cache", {"broken": ep})
    with pytest.raises(UnknownBotError, match="no choose"):
        get_bot("broken", seed=1)


def test_onnx_policy_through_onnxruntime(tmp_path):
    pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    w = np.zeros((680, 110), np.float32)
    w[:, 108] = 1.0  # pass is the best when legal
    nodes = [
        helper.make_node("Flatten", ["planes"], ["flat"], axis=1),
        helper.make_node("MatMul", ["flat", "W"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes,
        "p",
        [helper.make_tensor_value_info("planes", TensorProto.FLOAT, ["B", 20, 34])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["B", 110])],
        [numpy_helper.from_array(w, "W")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    path = tmp_path / "p.onnx"
    onnx.save(model, str(path))
    bot = get_bot(f"policy:{path}")
    res = play_hand(Game(seed=1), [bot, get_bot("greedy"), get_bot("greedy"), get_bot("greedy")])
    assert sum(res.deltas) == 0


def test_a_torch_module_is_a_policy():
    torch = pytest.importorskip("torch")

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(680, 110)

        def forward(self, planes, mask):
            return self.lin(planes.flatten(1))

    bot = PolicyBot(Net())
    play_hand(Game(seed=1), [bot, get_bot("greedy"), get_bot("greedy"), get_bot("greedy")])
