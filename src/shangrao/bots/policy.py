"""A policy is a bot: :class:`PolicyBot` plays any policy over the documented observation.

A *policy* maps a batch of observations to actions::

    policy(planes, mask) -> actions or logits

* ``planes``: int8 array ``(B, 20, 34)`` — :func:`shangrao.env.encoding.encode_observation` of each
  deciding seat (the :mod:`shangrao.env` planes table; ``hands_left`` is 1 at a bot's table);
* ``mask``: int8 array ``(B, 110)`` — the legal flat actions (the :mod:`shangrao.env` action table);
* returns either ``(B,)`` integers (a flat action per row, which must be legal) or ``(B, 110)``
  floats (logits or scores: the bot plays the legal action of the highest score, or samples
  ``softmax(score / temperature)`` over the legal ones when ``temperature > 0``).

:class:`PolicyBot` builds the planes and mask from the engine's :class:`~shangrao.game.Observation`
and legal actions, calls the policy, and turns the flat index back into the engine's action.
``choose_batch(observations, legal_lists)`` asks the policy once for many decisions (the
interface the batched self-play core will call; the Python engine calls ``choose`` one at a time).

Saved policies (``load_policy(path)``, the bot spec ``policy:PATH``):

``.npz`` — a NumPy checkpoint (:class:`MLPPolicy`), the project's own format:

==============  ====================================================================
key             content
==============  ====================================================================
``format``      the string ``shangrao-policy``
``version``     1
``arch``        ``mlp`` (planes → hidden ReLU layers → 110 logits) or ``mlp-features`` (the
                same over the planes and the per-action features of :mod:`.features`)
``W0, b0, …``   float32 weights of layer i: ``W`` (in, out), ``b`` (out,); the first layer has
                680 inputs, the last 110 outputs
``U0, d0, …``   ``mlp-features`` only: a small net shared by all actions, from the F per-action
                features (:mod:`.features`) to one score added to that action's logit
``feature_version``  ``mlp-features`` only: the version of those features (:mod:`.features`: 1 has
                F = 4, 2 has F = 7 — the win on offer, what declining it keeps, 进张 after every
                option); absent in checkpoints written before it: version 1
``meta``        optional: a JSON string (how it was trained)
==============  ====================================================================

A checkpoint of a feature version this reader does not know is refused with a
:class:`PolicyLoadError` naming it (and a reader from before version 2 refuses a version-2
checkpoint: its feature net has 7 inputs, not 4).

The input of the planes net is ``planes.reshape(B, 680) / PLANE_SCALE`` (each cell divided by its
plane's documented maximum, :data:`PLANE_SCALE`); hidden layers are ReLU.  ``mlp-features`` adds,
for each action ``a``, ``net_U(action_features(planes, mask)[:, a])`` to logit ``a``.

``.onnx`` — an ONNX model run by onnxruntime (``pip install 'shangrao[onnx]'``): input 0 gets the
planes as float32 ``(B, 20, 34)`` (unscaled), an input named ``mask`` (if any) the mask as float32;
output 0 is ``(B, 110)`` logits.

``.pt`` / ``.pth`` — a TorchScript module (``torch.jit.save``) called as ``module(planes, mask)``
with float32 tensors, returning ``(B, 110)`` logits (needs torch: ``pip install 'shangrao[train]'``).
A live ``torch.nn.Module`` can be passed to :class:`PolicyBot` directly (:class:`TorchPolicy`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from ..game import Action, Observation
from .errors import UnknownBotError

__all__ = [
    "PLANE_SCALE",
    "MLPPolicy",
    "OnnxPolicy",
    "PolicyBot",
    "PolicyLoadError",
    "TorchPolicy",
    "encode_decision",
    "load_policy",
]

N_ACTIONS = 110


class PolicyLoadError(UnknownBotError):
    """A ``policy:`` file that is missing, unreadable or not a policy of a known format."""


def _enc() -> ModuleType:  # shangrao.encoding, imported when first used
    from .. import encoding

    return encoding


def _plane_scale() -> np.ndarray:
    high = _enc().OBS_HIGH.astype(np.float32).reshape(-1)
    return np.where(high > 0, high, 1.0).astype(np.float32)


#: each of the 680 inputs is divided by this (its plane's documented maximum, OBS_HIGH)
PLANE_SCALE = _plane_scale()


def encode_decision(obs: Observation, legal: Sequence[Action]) -> tuple[np.ndarray, np.ndarray, dict[int, Action]]:
    """(planes (20, 34) int8, mask (110,) int8, {flat index: action}) of one decision."""
    enc = _enc()
    claimed = obs.last_discard[1] if obs.last_discard is not None else None
    index = {enc.action_to_index(a, claimed): a for a in legal}
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    mask[list(index)] = 1
    return enc.encode_observation(obs, 1), mask, index


class MLPPolicy:
    """A NumPy multilayer perceptron: ReLU hidden layers, 110 logits (the ``.npz`` format above)."""

    def __init__(
        self,
        weights: Sequence[tuple[np.ndarray, np.ndarray]],
        arch: str = "mlp",
        meta: dict[str, Any] | None = None,
        feature_net: Sequence[tuple[np.ndarray, np.ndarray]] = (),
        feature_version: int = 1,
    ) -> None:
        if arch not in ("mlp", "mlp-features"):
            raise PolicyLoadError(f"unknown policy architecture {arch!r}; known: mlp, mlp-features")
        self.layers = [
            (np.ascontiguousarray(W, dtype=np.float32), np.ascontiguousarray(b, dtype=np.float32)) for W, b in weights
        ]
        if not self.layers or self.layers[-1][0].shape[1] != N_ACTIONS:
            raise PolicyLoadError(f"the last layer must have {N_ACTIONS} outputs")
        if self.layers[0][0].shape[0] != 680:
            raise PolicyLoadError(
                f"the first layer must have 680 inputs (20 x 34 planes), has {self.layers[0][0].shape[0]}"
            )
        self.feature_net = [
            (np.ascontiguousarray(U, dtype=np.float32), np.ascontiguousarray(d, dtype=np.float32))
            for U, d in feature_net
        ]
        if arch == "mlp-features":
            from .features import FEATURE_VERSIONS

            if feature_version not in FEATURE_VERSIONS:
                raise PolicyLoadError(
                    f"feature version {feature_version!r}; this reader knows "
                    f"{', '.join(str(v) for v in FEATURE_VERSIONS)}"
                )
            nf = FEATURE_VERSIONS[feature_version]
            if not self.feature_net or self.feature_net[0][0].shape[0] != nf or self.feature_net[-1][0].shape[1] != 1:
                raise PolicyLoadError(
                    f"mlp-features of feature version {feature_version} needs a feature net U0.. from {nf} "
                    f"features to 1 score"
                )
        #: the version of the per-action features (:mod:`.features`) the feature net reads (``mlp-features``)
        self.feature_version = int(feature_version)
        self.arch = arch
        self.meta = meta or {}

    def features(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The network input of the planes: (B, 680) float32, each cell divided by :data:`PLANE_SCALE`."""
        x: np.ndarray = planes.reshape(len(planes), -1).astype(np.float32) / PLANE_SCALE
        return x

    def logits_from_features(self, x: np.ndarray, f: np.ndarray | None = None) -> np.ndarray:
        for W, b in self.layers[:-1]:
            x = np.maximum(x @ W + b, 0.0)
        W, b = self.layers[-1]
        out = x @ W + b
        if f is not None and self.feature_net:
            h = f
            for U, d in self.feature_net[:-1]:
                h = np.maximum(h @ U + d, 0.0)
            U, d = self.feature_net[-1]
            out = out + (h @ U + d)[..., 0]
        return out

    def __call__(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.logits(planes, mask)

    def logits(self, planes: np.ndarray, mask: np.ndarray, action_features: np.ndarray | None = None) -> np.ndarray:
        """(B, 110) float32 logits of ``planes`` (B, 20, 34) int8 and ``mask`` (B, 110).

        action_features: ``mlp-features`` only, the (B, 110, F) per-action features of
        :attr:`feature_version` when already computed (:mod:`shangrao.sim.features` computes them in
        the core for a batch); None computes them here in Python (:func:`.features.action_features`).
        """
        f = None
        if self.arch == "mlp-features":
            if action_features is None:
                from .features import action_features as compute

                action_features = compute(planes, mask, self.feature_version)
            f = action_features
        return self.logits_from_features(self.features(planes, mask), f)

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {
            "format": np.array("shangrao-policy"),
            "version": np.array(1),
            "arch": np.array(self.arch),
            "meta": np.array(json.dumps(self.meta)),
        }
        for i, (W, b) in enumerate(self.layers):
            arrays[f"W{i}"] = W
            arrays[f"b{i}"] = b
        for i, (U, d) in enumerate(self.feature_net):
            arrays[f"U{i}"] = U
            arrays[f"d{i}"] = d
        if self.arch == "mlp-features":
            arrays["feature_version"] = np.array(self.feature_version)
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        try:
            with np.load(path, allow_pickle=False) as z:
                if "format" not in z or str(z["format"]) != "shangrao-policy":
                    raise PolicyLoadError(f"{path}: not a shangrao policy checkpoint (no format='shangrao-policy')")
                if int(z["version"]) != 1:
                    raise PolicyLoadError(f"{path}: policy checkpoint version {int(z['version'])}; this reader knows 1")
                n = sum(1 for k in z.files if k.startswith("W"))
                weights = [(z[f"W{i}"], z[f"b{i}"]) for i in range(n)]
                nf = sum(1 for k in z.files if k.startswith("U"))
                feature_net = [(z[f"U{i}"], z[f"d{i}"]) for i in range(nf)]
                meta = json.loads(str(z["meta"])) if "meta" in z else {}
                arch = str(z["arch"])
                fv = int(z["feature_version"]) if "feature_version" in z else 1
        except PolicyLoadError:
            raise
        except (OSError, ValueError, KeyError) as err:
            raise PolicyLoadError(f"{path}: not a readable .npz policy ({err})") from None
        for i, (W, b) in enumerate(weights):
            if W.ndim != 2 or b.shape != (W.shape[1],) or (i and W.shape[0] != weights[i - 1][0].shape[1]):
                raise PolicyLoadError(f"{path}: layer {i} has mismatched shapes {W.shape}, {b.shape}")
        try:
            return cls(weights, arch, meta, feature_net, fv)
        except PolicyLoadError as err:
            raise PolicyLoadError(f"{path}: {err}") from None


class OnnxPolicy:
    """An ONNX model through onnxruntime (see the module docstring for its inputs and output)."""

    def __init__(self, path: str | Path) -> None:
        try:
            import onnxruntime as ort
        except ImportError:
            raise PolicyLoadError(f"{path}: ONNX policies need onnxruntime: pip install 'shangrao[onnx]'") from None
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
        except Exception as err:  # onnxruntime raises its own exception types for a bad model file
            raise PolicyLoadError(f"{path}: not a loadable ONNX model ({' '.join(str(err).split())[:200]})") from None
        inputs = self.session.get_inputs()
        self.planes_name = inputs[0].name
        self.mask_name = next((i.name for i in inputs if i.name == "mask"), None)
        self.output_name = self.session.get_outputs()[0].name

    def __call__(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feed = {self.planes_name: planes.astype(np.float32)}
        if self.mask_name is not None:
            feed[self.mask_name] = mask.astype(np.float32)
        return np.asarray(self.session.run([self.output_name], feed)[0])


class TorchPolicy:
    """A torch module called as ``module(planes, mask)`` on float32 tensors (no gradients, CPU)."""

    def __init__(self, module: Any) -> None:
        import torch

        self.torch = torch
        self.module = module.eval() if hasattr(module, "eval") else module

    def __call__(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        t = self.torch
        with t.no_grad():
            out = self.module(t.as_tensor(planes, dtype=t.float32), t.as_tensor(mask, dtype=t.float32))
        return np.asarray(out.detach().cpu().numpy())


_cache: dict[tuple[str, int, int], Callable[[np.ndarray, np.ndarray], np.ndarray]] = {}


def load_policy(path: str | os.PathLike[str]) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The policy saved at ``path`` (``.npz``, ``.onnx``, ``.pt``/``.pth``), cached per process.

    Raises :class:`PolicyLoadError` (a ValueError) naming the file and the problem.
    """
    p = Path(path).expanduser()
    try:
        st = p.stat()
    except OSError as err:
        raise PolicyLoadError(f"policy file {str(path)!r}: {err.strerror or err}") from None
    if p.is_dir():
        raise PolicyLoadError(f"policy file {str(path)!r}: is a directory")
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    suffix = p.suffix.lower()
    policy: Callable[[np.ndarray, np.ndarray], np.ndarray]
    if suffix == ".npz":
        policy = MLPPolicy.load(p)
    elif suffix == ".onnx":
        policy = OnnxPolicy(p)
    elif suffix in (".pt", ".pth"):
        try:
            import torch
        except ImportError:
            raise PolicyLoadError(f"{path}: TorchScript policies need torch: pip install 'shangrao[train]'") from None
        try:
            policy = TorchPolicy(torch.jit.load(str(p), map_location="cpu"))
        except Exception as err:  # torch raises RuntimeError and others for a bad file
            raise PolicyLoadError(f"{path}: not a TorchScript module ({' '.join(str(err).split())[:200]})") from None
    else:
        raise PolicyLoadError(
            f"policy file {str(path)!r}: unknown format {suffix or '(no suffix)'!r}; "
            "give .npz (NumPy checkpoint), .onnx or .pt (TorchScript)"
        )
    _cache[key] = policy
    return policy


class PolicyBot:
    """A bot that plays a policy (module docstring).

    PolicyBot(policy, name="policy", seed=None, temperature=0.0): ``policy`` is a callable
    ``(planes, mask) -> actions or logits``, an :class:`MLPPolicy`, or a torch module (wrapped in
    :class:`TorchPolicy`).  ``temperature`` 0 plays the best legal action; > 0 samples.  A policy
    that returns an illegal index raises :class:`~shangrao.game.IllegalActionError` naming it.
    """

    needs_observation = True

    def __init__(
        self, policy: Any, name: str = "policy", seed: int | str | None = None, temperature: float = 0.0
    ) -> None:
        if not callable(policy):
            raise TypeError(f"policy must be callable (planes, mask) -> actions or logits, got {policy!r}")
        if type(policy).__module__.startswith("torch") or _is_torch_module(policy):
            policy = TorchPolicy(policy)
        self.policy = policy
        self.name = name
        self.temperature = float(temperature)
        self.rng = np.random.default_rng(_seed_int(seed))

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        return self.choose_batch([obs], [legal])[0]

    def choose_batch(self, observations: Sequence[Observation], legal_lists: Sequence[list[Action]]) -> list[Action]:
        """One action per decision, asking the policy once for the whole batch."""
        from ..game import IllegalActionError

        encoded = [encode_decision(o, lg) for o, lg in zip(observations, legal_lists)]
        planes = np.stack([e[0] for e in encoded])
        mask = np.stack([e[1] for e in encoded])
        out = np.asarray(self.policy(planes, mask))
        picks: list[int]
        if out.ndim == 1:
            if not np.issubdtype(out.dtype, np.integer):
                raise IllegalActionError(
                    f"{self.name}: a policy returning one value per row must return integers, got dtype {out.dtype}"
                )
            picks = [int(x) for x in out]
        elif out.ndim == 2 and out.shape[1] == N_ACTIONS:
            scores = np.where(mask.astype(bool), out.astype(np.float64), -np.inf)
            if self.temperature > 0:
                z = scores / self.temperature
                z -= z.max(axis=1, keepdims=True)
                p = np.exp(z)
                p /= p.sum(axis=1, keepdims=True)
                picks = [int(self.rng.choice(N_ACTIONS, p=row)) for row in p]
            else:
                picks = [int(i) for i in scores.argmax(axis=1)]
        else:
            raise IllegalActionError(
                f"{self.name}: the policy returned shape {out.shape}; expected "
                f"({len(encoded)},) actions or ({len(encoded)}, {N_ACTIONS}) logits"
            )
        actions = []
        for (_, _, index), i in zip(encoded, picks):
            a = index.get(i)
            if a is None:
                raise IllegalActionError(f"{self.name}: flat action {i} is not legal; legal: {sorted(index)}")
            actions.append(a)
        return actions


def _is_torch_module(obj: Any) -> bool:
    return any(c.__module__.startswith("torch.nn") for c in type(obj).__mro__)


def _seed_int(seed: int | str | None) -> int | None:
    if seed is None or isinstance(seed, int):
        return seed
    import hashlib

    return int.from_bytes(hashlib.blake2b(str(seed).encode(), digest_size=8).digest(), "big")
