"""What every fuzz target shares: reading the input, calling both cores, comparing.

A target's ``TestOneInput(data)`` reads its arguments with :class:`Input` (a few
choice bytes, then the payload), calls the entry point under each core with
:func:`on_both` (or each twin module directly with :func:`on_twins`), and checks the
invariants with :func:`require`. Whatever goes wrong raises :class:`Finding`, which
atheris reports as a crash and saves the input.

Both twins must give the same result, or raise the same exception type with the same
message (and position/code for :class:`urlsift.URLSyntaxError`). An exception is
documented behaviour only when it is a ``ValueError`` (``URLSyntaxError`` included)
or a ``TypeError``; any other one (IndexError, SystemError, RecursionError...) is a
finding even when both twins raise it.

atheris is optional: without it :class:`StandIn` replaces its ``FuzzedDataProvider``
(the targets use only ``ConsumeBytes`` and ``remaining_bytes``, whose meaning is
simple enough to copy exactly), so ``tests/test_fuzz_targets.py`` replays the seed
corpus with the test extra alone.
"""
from __future__ import annotations

import contextlib
import sys
from typing import Any, Callable, ContextManager, Optional

try:
    import atheris
except ImportError:      # the corpus replay in tests/ runs without it
    atheris = None


def instrumented() -> ContextManager[Any]:
    """``atheris.instrument_imports()``: Python modules imported inside it report
    coverage to libFuzzer (the pure twins do; compiled Cython does not)."""
    return atheris.instrument_imports() if atheris is not None else contextlib.nullcontext()


with instrumented():
    import urlsift
    from urlsift import _select
    from urlsift.errors import URLSyntaxError

#: The cores importable here: both when the extension is built.
KINDS: list[str] = _select.available_kinds()
#: Exceptions urlsift raises on purpose (its messages say what is wrong with the input).
DOCUMENTED: tuple[type, ...] = (ValueError, TypeError)


class Finding(AssertionError):
    """A disagreement between the twins, a broken invariant, or an undocumented error."""


class StandIn:
    """The part of ``atheris.FuzzedDataProvider`` the targets use, for replay without atheris."""

    def __init__(self, data: bytes) -> None:
        self._data = bytes(data)
        self._pos = 0

    def ConsumeBytes(self, count: int) -> bytes:  # noqa: N802 - atheris's name
        out = self._data[self._pos:self._pos + max(count, 0)]
        self._pos += len(out)
        return out

    def remaining_bytes(self) -> int:
        return len(self._data) - self._pos


def provider(data: bytes) -> Any:
    """atheris's FuzzedDataProvider over ``data``, or the stand-in."""
    return atheris.FuzzedDataProvider(data) if atheris is not None else StandIn(data)


class Input:
    """The fuzz input: choice bytes taken from the front, then the payload.

    Choices come first so a seed file is its choice bytes followed by readable text
    (``make_corpus.py`` writes them that way); an input too short for its choices
    reads zeros.
    """

    #: separates the fields of a payload holding several strings (not valid UTF-8,
    #: so nothing lost in a text target but the octet itself)
    SEP = b"\xff"

    def __init__(self, data: bytes) -> None:
        self.fdp = provider(data)

    def byte(self) -> int:
        got = self.fdp.ConsumeBytes(1)
        return got[0] if got else 0

    def pick(self, options: "list[Any] | tuple[Any, ...]") -> Any:
        return options[self.byte() % len(options)]

    def number(self, lo: int, hi: int) -> int:
        """An int in [lo, hi] from two bytes."""
        raw = self.byte() << 8 | self.byte()
        return lo + raw % (hi - lo + 1)

    def rest(self) -> bytes:
        return self.fdp.ConsumeBytes(self.fdp.remaining_bytes())

    def text(self) -> str:
        """The rest as str: UTF-8, bytes that are not UTF-8 as lone surrogates
        (``surrogateescape``), so a text target sees 1-, 2- and 4-byte str kinds."""
        return self.rest().decode("utf-8", "surrogateescape")

    def texts(self, k: int) -> list[str]:
        """The rest cut into ``k`` strings at :data:`SEP` (missing ones are "")."""
        parts = self.rest().split(self.SEP, k - 1)
        parts += [b""] * (k - len(parts))
        return [p.decode("utf-8", "surrogateescape") for p in parts]


# ---- calling both cores ----------------------------------------------------------

def outcome(fn: Callable[..., Any], *args: Any, shape: Callable[[Any], Any] = lambda r: r,
            **kwargs: Any) -> tuple:
    """``("ok", shape(result))`` or ``("raised", type, message, position, code)``."""
    try:
        return ("ok", shape(fn(*args, **kwargs)))
    except Exception as exc:  # noqa: BLE001 - how each twin fails is compared
        return ("raised", type(exc).__name__, str(exc), getattr(exc, "position", None),
                getattr(exc, "code", None), exc)


def _judge(what: str, results: dict[str, tuple]) -> tuple:
    """The common outcome of all kinds; a Finding when they differ or raised oddly."""
    first = next(iter(results.values()))
    for kind, got in results.items():
        if got[:5] != first[:5]:
            raise Finding(f"{what}: the twins disagree:\n"
                          + "\n".join(f"  {k}: {g[:5]!r}" for k, g in results.items()))
    if first[0] == "raised" and not isinstance(first[5], DOCUMENTED):
        raise Finding(f"{what}: undocumented {first[1]}: {first[2]}") from first[5]
    return first


def on_both(fn: Callable[..., Any], *args: Any, shape: Callable[[Any], Any] = lambda r: r,
            **kwargs: Any) -> tuple:
    """``fn(*args, **kwargs)`` with all of urlsift switched to each core in turn
    (``_select.use``); ``shape`` turns the result into comparable data (it runs under
    the same core, so lazy results are consumed there). Returns the outcome."""
    results = {}
    for kind in KINDS:
        with _select.use(kind):
            results[kind] = outcome(fn, *args, shape=shape, **kwargs)
    return _judge(f"{getattr(fn, '__name__', fn)}{_brief(args, kwargs)}", results)


def on_twins(core: str, name: str, *args: Any, shape: Callable[[Any], Any] = lambda r: r,
             **kwargs: Any) -> tuple:
    """Function ``name`` of each twin module of ``core`` ("_core", "_scan"...) called directly."""
    results = {kind: outcome(getattr(mod, name), *args, shape=shape, **kwargs)
               for kind, mod in _select.twins(core).items()}
    return _judge(f"{core}.{name}{_brief(args, kwargs)}", results)


def _brief(args: tuple, kwargs: dict) -> str:
    shown = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
    return f"({shown[:300]}{'...' if len(shown) > 300 else ''})"


def ok(result: tuple) -> bool:
    return result[0] == "ok"


def require(condition: bool, message: str, *details: Any) -> None:
    """An invariant: a Finding naming it (and the values shown) when it does not hold."""
    if not condition:
        raise Finding(message + "".join(f"\n  {d!r}" for d in details))


def spans_ok(spans: "list[tuple[int, int]]", n: int, what: str) -> None:
    """Spans inside [0, n], not empty, in order and not overlapping."""
    last = 0
    for a, b in spans:
        require(0 <= a < b <= n, f"{what}: span outside the input or empty", (a, b), n)
        require(a >= last, f"{what}: spans out of order or overlapping", (a, b), last)
        last = b


def main(test_one_input: Callable[[bytes], None], argv: Optional[list[str]] = None) -> None:
    """Fuzz ``test_one_input`` with libFuzzer's arguments (``argv``, default sys.argv)."""
    if atheris is None:
        sys.exit("atheris is not installed: pip install 'urlsift[fuzz]'")
    atheris.Setup(sys.argv if argv is None else argv, test_one_input)
    atheris.Fuzz()

