"""The learned evaluation: each player's expected final result and chance to win.

A :class:`ValueModel` maps a player's feature row (:mod:`.features`, public
information only [HIDDEN-1]) to that player's expected *final margin over the
players' mean* (points): a linear model plus a small network's correction (one
hidden layer of ``tanh`` units; none for a linear model), trained by regression on
the results of self-play games (:mod:`.learn`, ``tikal learn``).  The win chances are a softmax
over the players' predicted margins with a temperature that grows with the scoring
rounds still ahead, fitted per player count for the lowest log loss on the training
games.  Per count, because one spread for all was a compromise that made the
two-player chances overconfident where both players are strong: the self-play mixes
strengths, and there an early lead says more about who is the stronger player than it
does between equals (measured on games of the search bots, ``tikal learn calibrate``).

Inference is plain Python (a few thousand multiply-adds per position, about
0.1 ms with the features): playing needs no numpy; only training does.  The model
is a data file, ``data/value_model.json``; :func:`load_model` reads it or another
file, and a saved model evaluates identically after loading (tested).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from ..packaged import data_json
from ..state import GameState
from .features import NAMES, rows_of

#: The win chances' temperature in points (base, per scoring round ahead) where none was
#: fitted: a hand-set guess.
DEFAULT_TEMPERATURE: Final = (3.0, 2.5)

#: The column of the scoring rounds still ahead, which sets the win chances' spread.
ROUNDS_AHEAD = NAMES.index("ctx.rounds_ahead")

#: The packaged model's file name under ``tikal/data``.
PACKAGED_MODEL = "value_model.json"


@dataclass(frozen=True)
class ValueModel:
    """A fitted value model; see the module docstring.  The prediction is a linear term
    over the standardized features plus a hidden layer's correction (none when
    ``hidden`` is empty: a linear model)."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    linear: tuple[float, ...]
    bias: float
    hidden: tuple[tuple[float, ...], ...] = ()
    hidden_bias: tuple[float, ...] = ()
    output: tuple[float, ...] = ()
    temperature: tuple[float, float] = DEFAULT_TEMPERATURE  # points: base + per round ahead
    #: ``(players, base, per round)``: the temperature for that player count, where
    #: fitted (:attr:`temperature` for the others).
    temperatures: tuple[tuple[int, float, float], ...] = ()
    features: tuple[str, ...] = NAMES
    about: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.features != NAMES:
            raise ValueError("the model was trained on other features than this version "
                             f"computes ({len(self.features)} named, {len(NAMES)} now)")
        f = len(NAMES)
        if len(self.mean) != f or len(self.scale) != f or len(self.linear) != f:
            raise ValueError(f"mean, scale and linear need {f} values each")
        if (not len(self.output) == len(self.hidden) == len(self.hidden_bias)
                or any(len(row) != f for row in self.hidden)):
            raise ValueError("the layers' sizes do not fit together")

    def predict_row(self, row: list[float]) -> float:
        """The expected final margin over the mean of one feature row."""
        x = [(v - m) / s for v, m, s in zip(row, self.mean, self.scale, strict=True)]
        total = self.bias + sum(map(float.__mul__, self.linear, x))
        for w, b, out in zip(self.hidden, self.hidden_bias, self.output, strict=True):
            total += out * math.tanh(b + sum(map(float.__mul__, w, x)))
        return total

    def values(self, game: GameState) -> list[float]:
        """Every player's expected final margin over the players' mean (points)."""
        return [self.predict_row(row) for row in rows_of(game)]

    def chances_of_rows(self, rows: list[list[float]]) -> list[float]:
        """The win chances of a position's feature rows (one per player)."""
        rounds = max(row[ROUNDS_AHEAD] for row in rows)
        return softmax([self.predict_row(row) for row in rows], self.spread(rounds, len(rows)))

    def spread(self, rounds_ahead: float, players: int | None = None) -> float:
        """The softmax's temperature in points: wider with more scoring rounds ahead."""
        base, per_round = self.temperature_for(players)
        return base + per_round * rounds_ahead

    def temperature_for(self, players: int | None) -> tuple[float, float]:
        for count, base, per_round in self.temperatures:
            if count == players:
                return base, per_round
        return self.temperature

    def win_chances(self, game: GameState) -> list[float]:
        """Every player's chance to finish first (sums to 1; a finished game's winners
        share it)."""
        if game.is_over:
            return game.win_shares
        return self.chances_of_rows(rows_of(game))

    def to_json(self) -> dict[str, Any]:
        return {"about": self.about, "features": list(self.features),
                "mean": list(self.mean), "scale": list(self.scale),
                "linear": list(self.linear), "bias": self.bias,
                "hidden": [list(r) for r in self.hidden], "hidden_bias": list(self.hidden_bias),
                "output": list(self.output), "temperature": list(self.temperature),
                "temperature_by_players": {str(n): [b, r] for n, b, r in self.temperatures}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ValueModel:
        """A model from its JSON; a ValueError says what is missing or does not fit."""
        try:
            return cls(
                mean=_floats(data["mean"]), scale=_floats(data["scale"]),
                linear=_floats(data["linear"]), bias=float(data["bias"]),
                hidden=tuple(_floats(r) for r in data["hidden"]),
                hidden_bias=_floats(data["hidden_bias"]), output=_floats(data["output"]),
                temperature=_pair(data["temperature"]),
                temperatures=tuple((int(n), *_pair(pair)) for n, pair in
                                   dict(data.get("temperature_by_players") or {}).items()),
                features=tuple(str(n) for n in data["features"]),
                about=dict(data.get("about") or {}))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a value model: {exc!r}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1), encoding="utf-8")


def _floats(values: Any) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def _pair(values: Any) -> tuple[float, float]:
    base, per_round = _floats(values)
    return base, per_round


def softmax(values: list[float], spread: float) -> list[float]:
    top = max(values)
    weights = [math.exp(max(-50.0, (v - top) / spread)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def load_model(path: str | Path | None = None) -> ValueModel:
    """A model file; the packaged one by default."""
    if path is None:
        return packaged_model()
    try:
        return ValueModel.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read a value model from {str(path)!r}: {exc}") from None


@cache
def packaged_model() -> ValueModel:
    """The model in the package (read once per process)."""
    return ValueModel.from_json(data_json(PACKAGED_MODEL))
