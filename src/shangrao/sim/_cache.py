"""numba's on-disk cache for this package, invalidated by a change to *any* of its sources.

numba (0.68) keys a cached function on the content of its own source file only: a compiled
function of ``core.py`` that calls a kernel of ``kernels.py`` embeds that kernel's machine code,
and would keep the old one after ``kernels.py`` changed (numba PR #8396 / #9563, never merged).
:func:`install` puts three locators in front of numba's own (``numba.core.caching.CacheImpl``):
the same places numba would use (``NUMBA_CACHE_DIR``, ``__pycache__`` beside the module, the
user's cache directory), but for the functions defined in this package's directory only, with a
source stamp that is the hash of every ``*.py`` of the directory.  Any edit of the package then
recompiles all of it once; nothing else in the process is affected.  If numba's internals change
shape, :func:`install` leaves numba's default behaviour in place (a stale cache is then possible
after an edit; ``NUMBA_CACHE_DIR`` pointed at a fresh directory clears it).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

__all__ = ["PACKAGE_DIR", "install", "is_compiled", "memo_inlining", "sources_stamp", "unliteral_calls"]

PACKAGE_DIR = Path(__file__).resolve().parent
#: the Python homes the core derives constants and helpers from at import (issue 39: codes from the
#: enums, pattern factors, rule indices, the greedy bots' ``_connectivity``, the tables'
#: ``entry_fields``): compiled code freezes them, so an edit of one of these recompiles the core as
#: an edit of ``sim/`` does
HOMES = tuple(
    PACKAGE_DIR.parent / p
    for p in (
        "analysis/tables.py",
        "bots/features.py",
        "bots/greedy.py",
        "game/actions.py",
        "game/protocol.py",
        "melds.py",
        "rules.py",
        "scoring/items.py",
        "scoring/situation.py",
        "tiles.py",
    )
)


def sources_stamp(directory: Path = PACKAGE_DIR) -> str:
    """sha256 over the names and contents of the ``*.py`` files of ``directory`` (sorted), and for the
    package's own directory also of :data:`HOMES`."""
    h = hashlib.sha256()
    extra = [p for p in HOMES if p.exists()] if directory == PACKAGE_DIR else []
    for p in [*sorted(directory.glob("*.py")), *extra]:
        h.update(p.name.encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def install() -> bool:
    """Put the package's locators first in numba's list (once); False if numba's internals differ."""
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    # (numba 0.68 names them CacheImpl, InTreeCacheLocator …; earlier releases with a leading underscore)
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    bases = [
        getattr(caching, n, None) or getattr(caching, "_" + n, None)
        for n in ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
    ]
    if not isinstance(classes, list) or any(b is None for b in bases):
        return False
    if any(getattr(c, "_shangrao_sim", False) for c in classes):
        return True
    stamp = sources_stamp()
    here = os.path.normcase(str(PACKAGE_DIR))

    def locator(base: Any) -> Any:
        class Locator(base):
            _shangrao_sim = True

            def get_source_stamp(self) -> Any:
                return stamp

            @classmethod
            def from_function(cls, py_func: Any, py_file: str) -> Any:
                if os.path.normcase(os.path.dirname(os.path.abspath(py_file))) != here:
                    return None
                return super().from_function(py_func, py_file)

        Locator.__name__ = Locator.__qualname__ = "Sim" + base.__name__
        return Locator

    classes[0:0] = [locator(b) for b in bases]
    return True


#: the package's functions compiled for plain argument types (:func:`unliteral_calls`): run at most a few
#: times a hand (a win, a settlement, a kong, a new hand), so a constant folded into them buys no speed
#: while each constant cost a compile; or called with a literal only in numba's first typing round (the
#: machine code kept is the plain one either way); the hot ones (``_emit``, the draw, the discard) stay
#: specialized
UNLITERAL = frozenset(
    {
        "score_win",
        "_finish_wins",
        "_finish_drawn",
        "_bonus_all",
        "_four_bao",
        "_transfer",
        "_end",
        "new_hand",
        "_kong_window",
        "_declare_kong",
        # typed with a literal only on the way: a variable first bound to a constant (``offered = False``,
        # ``best = 999``, ``nb = 0``) reaches the callee as a literal in numba's first typing round and as
        # the plain type in its last one: numba compiled the callee for both and called the plain one
        "push",
        "useful_tiles",
        "_sl_readings",
    }
)


def unliteral_calls() -> bool:
    """Compile a call between the package's functions for the plain types of its arguments, not
    one specialization per constant (once; False if numba's internals differ).

    numba types a constant argument inside compiled code as a literal (``Literal[int](2)``) and
    compiles the callee for it: a kernel called with different constants from different call sites
    was compiled once per combination (``score_win`` 7 times, ``_emit`` 28 times in the game loop),
    a large part of the game loop's first compile.  For a callee of :data:`UNLITERAL` (the package's cold
    kernels: specializing its hot ones on constants is worth their compile),
    the call is typed first with :func:`numba.core.types.unliteral` of each argument (an ``int64``, a
    ``bool``), and with the literals only where that does not type.  The machine code computes the
    same values (the constants become arguments); LLVM still folds them where it inlines."""
    try:
        from numba.core import dispatcher, errors, types
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    cls: Any = getattr(dispatcher, "Dispatcher", None)
    orig = getattr(cls, "get_call_template", None)
    if orig is None:
        return False
    if getattr(orig, "_shangrao_sim", False):
        return True
    unliteral: Any = types.unliteral  # numba is untyped

    def get_call_template(self: Any, args: Any, kws: Any) -> Any:
        ours = self.__dict__.get("_shangrao_sim")
        if ours is None:
            code = getattr(self.py_func, "__code__", None)
            ours = self._shangrao_sim = code is not None and code.co_name in UNLITERAL and _ours(self.py_func)
        if ours and not kws:
            plain = tuple(unliteral(a) for a in args)
            if plain != tuple(args):
                try:
                    return orig(self, plain, kws)
                except errors.TypingError:
                    pass
        return orig(self, args, kws)

    get_call_template._shangrao_sim = True  # type: ignore[attr-defined]
    cls.get_call_template = get_call_template
    return True


def _ours(func: Any) -> bool:
    """``func`` (a Python function) is defined in this package's directory."""
    code = getattr(func, "__code__", None)
    here = os.path.normcase(str(PACKAGE_DIR))
    return code is not None and os.path.normcase(os.path.dirname(os.path.abspath(code.co_filename))) == here


def memo_inlining() -> bool:
    """Build the numba IR of an ``inline="always"`` function of this package once per process, not once
    per call site (once; False if numba's internals differ).

    numba inlines such a function by running its whole untyped pipeline again at every call site
    (``InlineWorker.run_untyped_passes``: the bytecode read, the IR built, the callee's own inlinable
    calls inlined in turn), then copying that IR into the caller: ``_emit`` alone is called from
    dozens of sites, most of them in functions that are themselves inlined.  The IR built depends on
    the function only (the package's functions all compile with the same flags), and the inliner
    copies it before changing it, so the first one built is kept and handed out again: the same IR,
    the same machine code, a fraction of the typing time (docs/performance.md, "Compile time")."""
    try:
        from numba.core import inline_closurecall
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    cls: Any = getattr(inline_closurecall, "InlineWorker", None)
    orig = getattr(cls, "run_untyped_passes", None)
    if orig is None:
        return False
    if getattr(orig, "_shangrao_sim", False):
        return True
    built: dict[Any, Any] = {}

    def run_untyped_passes(self: Any, func: Any, enable_ssa: bool = False) -> Any:
        if enable_ssa or not _ours(func):
            return orig(self, func, enable_ssa)
        key = (func, self.flags.nrt, self.flags.boundscheck, self.flags.error_model)
        if key not in built:
            built[key] = orig(self, func, enable_ssa)
        self.flags.enable_ssa = enable_ssa  # as numba's own does to the caller's flags
        return built[key]

    run_untyped_passes._shangrao_sim = True  # type: ignore[attr-defined]
    cls.run_untyped_passes = run_untyped_passes
    return True


def is_compiled(dispatcher: Any) -> bool:
    """Whether numba's on-disk cache holds machine code of ``dispatcher`` (an ``@njit(cache=True)``
    function) for the package's present sources, so that calling it loads instead of compiling.
    Reads numba's index only (milliseconds); False where it cannot tell (numba's internals differ)."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # a private numba interface: not knowing is "not compiled"
        return False
