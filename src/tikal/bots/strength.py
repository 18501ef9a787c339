"""Bot strength over time: a history of arena results, and its plot.

An arena run appends one line to a JSON-lines history file (``tikal arena
--history FILE --tag TEXT``), or a saved result is added afterwards
(``tikal strength FILE --add results.json --tag TEXT``).  ``tikal strength FILE
--plot strength.png`` then shows, for every match-up (rule set, players,
line-up, budgets), each bot's win rate with its 95% interval, run after run, so
a change to a bot can be judged against the runs before it.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__


class HistoryError(ValueError):
    """A history line or a results file that cannot be read; says where and what."""


@dataclass(frozen=True, slots=True)
class BotStrength:
    games: int
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    mean_score: float


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One arena run: when, a tag naming the bots' version, the match-up and the results."""

    when: str
    tag: str
    version: str
    rules: str
    players: int
    lineup: tuple[str, ...]
    budgets: tuple[tuple[str, str], ...]
    games: int
    seed: int
    bots: dict[str, BotStrength]

    @property
    def matchup(self) -> str:
        """What makes two runs comparable: rules, players, line-up and the search budgets."""
        searched = [f"{bot} {budget}" for bot, budget in self.budgets if budget != "-"]
        budgets = f" ({', '.join(searched)})" if searched else ""
        counts = Counter(self.lineup)  # keeps the line-up's order
        bots = [f"{name} x{k}" if k > 1 else name for name, k in counts.items()]
        return f"{self.rules}, {self.players} players: {' vs '.join(bots)}{budgets}"

    def to_json(self) -> dict[str, Any]:
        return {
            "when": self.when,
            "tag": self.tag,
            "version": self.version,
            "config": {
                "rules": self.rules,
                "players": self.players,
                "lineup": list(self.lineup),
                "budgets": dict(self.budgets),
                "games": self.games,
                "seed": self.seed,
            },
            "bots": {
                name: {
                    "games": b.games,
                    "wins": b.wins,
                    "win_rate": b.win_rate,
                    "ci95": list(b.ci95),
                    "mean_score": b.mean_score,
                }
                for name, b in self.bots.items()
            },
        }


def entry_from_results(data: Any, tag: str, when: str, version: str = __version__) -> HistoryEntry:
    """A history entry from an arena result (the JSON of ``tikal arena --out``)."""
    if not isinstance(data, dict):
        raise HistoryError("expected an arena result object (the JSON of tikal arena --out)")
    config = _field(data, "config", dict)
    bots_data = _field(data, "bots", dict)
    bots = {}
    for name, b in bots_data.items():
        where = f"bots.{name}."
        if not isinstance(b, dict):
            raise HistoryError(f"bots.{name}: expected an object")
        ci = _field(b, "ci95", list, where)
        if len(ci) != 2 or not all(isinstance(x, (int, float)) for x in ci):
            raise HistoryError(f"{where}ci95: expected two numbers")
        bots[str(name)] = BotStrength(
            games=_field(b, "games", int, where),
            wins=float(_field(b, "wins", (int, float), where)),
            win_rate=float(_field(b, "win_rate", (int, float), where)),
            ci95=(float(ci[0]), float(ci[1])),
            mean_score=float(_field(b, "mean_score", (int, float), where)),
        )
    if not bots:
        raise HistoryError("bots: no bot in the result")
    budgets = _field(config, "budgets", dict, "config.")
    return HistoryEntry(
        when=when,
        tag=tag,
        version=version,
        rules=_field(config, "rules", str, "config."),
        players=_field(config, "players", int, "config."),
        lineup=tuple(str(x) for x in _field(config, "lineup", list, "config.")),
        budgets=tuple((str(k), str(v)) for k, v in budgets.items()),
        games=_field(config, "games", int, "config."),
        seed=_field(config, "seed", int, "config."),
        bots=bots,
    )


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    if name not in data:
        raise HistoryError(f"{where}{name}: missing")
    value = data[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        expected = " or ".join(k.__name__ for k in kinds)
        raise HistoryError(f"{where}{name}: expected {expected}, got {value!r}")
    return value


def append_entry(path: Path, entry: HistoryEntry) -> None:
    """Add one line to the history file (created if missing)."""
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(entry.to_json(), sort_keys=True) + "\n")


def read_history(path: Path) -> list[HistoryEntry]:
    """Every entry of a history file, oldest first; a bad line is reported by its number."""
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise HistoryError("expected an object")
            entries.append(
                entry_from_results(
                    data,
                    tag=_field(data, "tag", str),
                    when=_field(data, "when", str),
                    version=_field(data, "version", str),
                )
            )
        except (json.JSONDecodeError, HistoryError) as exc:
            raise HistoryError(f"{path}, line {number}: {exc}") from None
    return entries


def by_matchup(entries: list[HistoryEntry]) -> dict[str, list[HistoryEntry]]:
    groups: dict[str, list[HistoryEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.matchup, []).append(entry)
    return groups


def save_strength_plot(entries: list[HistoryEntry], path: Path) -> None:
    """One panel per match-up: every bot's win rate and 95% interval, run after run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = by_matchup(entries)
    if not groups:
        raise HistoryError("the history is empty: nothing to plot")
    fig, axes = plt.subplots(len(groups), 1, figsize=(9, 3.2 * len(groups)), squeeze=False)
    for ax, (matchup, runs) in zip(axes[:, 0], groups.items(), strict=True):
        xs = list(range(len(runs)))
        names = list(dict.fromkeys(
            name for run in runs for name in (*run.lineup, *run.bots) if name in run.bots
        ))
        for k, name in enumerate(names):
            shift = (k - (len(names) - 1) / 2) * 0.08
            points = [(x + shift, run.bots[name]) for x, run in zip(xs, runs, strict=True)
                      if name in run.bots]
            rates = [b.win_rate for _, b in points]
            ax.errorbar(
                [x for x, _ in points],
                rates,
                yerr=[[r - b.ci95[0] for r, (_, b) in zip(rates, points, strict=True)],
                      [b.ci95[1] - r for r, (_, b) in zip(rates, points, strict=True)]],
                marker="o",
                capsize=4,
                label=name,
            )
        ax.axhline(1 / runs[0].players, color="grey", linestyle="--", linewidth=1, label="par")
        ax.set_xticks(xs, [f"{run.tag}\n{run.when[:10]}\n{run.games} games" for run in runs],
                      fontsize=8)
        ax.set_xlim(-0.5, len(runs) - 0.5)
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate")
        ax.set_title(matchup, fontsize=10)
        ax.legend(fontsize=8, loc="best")
    fig.suptitle("Bot strength over time (95% intervals)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
