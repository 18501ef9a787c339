"""A human against bots in the terminal (``tikal play``).

Everything goes through a rich :class:`Console` and a ``read_line`` function,
so the game runs the same with a keyboard, with piped input or inside tests.
The human sees only their own view of the game [HIDDEN-1].  Input is a number
from the list of legal actions or an action in notation (``move W A5 B4``),
plus ``undo``, ``help [topic or rule id]``, ``board``, ``actions`` and
``quit``.  Illegal input gets the engine's reason and rule id.

Every sentence comes from the message catalogs (keys ``term.*``) in the player's
language (``--lang``, ``TIKAL_LANG``, ``LANG``); the board's codes (``T5``, ``BC``) and
the notation stay the same in every language, so typed actions work everywhere.
"""

from __future__ import annotations

import json
import string
import sys
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import hexes
from ..actions import Action, Draw, parse_action, token_name
from ..bots import Bot, make_bot
from ..components import TEMPLE, TREASURE, VOLCANO
from ..errors import IllegalAction, NotationError
from ..game import Game
from ..loop import play_game
from ..messages import DEFAULT_LANGUAGE, Message, render, template
from ..rulebook import rules_starting
from ..seats import seat_look
from ..state import GUARDING, OUT, SUPPLY, GameState, Phase
from .textboard import board_text, legend

#: ``help <topic>`` words (typed commands, the same in every language) and their rule groups.
TOPICS = {
    "scoring": "SCORE-",
    "figures": "FIG-",
    "tiles": "TILE-",
    "treasures": "TREASURE-",
    "camps": "CAMP-",
    "guards": "GUARD-",
    "auction": "AUC-",
    "end": "END-",
}


def rule_lines(prefix: str, language: str = DEFAULT_LANGUAGE) -> list[str]:
    """The rulebook entries whose id starts with ``prefix`` (``MOVE-1`` or ``SCORE-``).

    An exact id gives that rule alone; a prefix gives the whole group.
    """
    return [f"[{rule_id}] {text}" for rule_id, text in rules_starting(prefix, language)]


def compose(key: str, language: str, /, **params: Any) -> Text:
    """A catalog sentence whose parameters may be styled :class:`Text` (a seat's colour).

    The template decides where each part goes, so styled names land where the
    language's grammar puts them instead of being glued on in English order.
    """
    out = Text()
    for literal, name, _, _ in string.Formatter().parse(template(key, params, language)):
        out.append(literal)
        if name is not None:
            value = params[name]
            out.append_text(value) if isinstance(value, Text) else out.append(str(value))
    return out


class _Stop(Exception):
    """The human ends the game early (``quit``, or the end of the input)."""


class TerminalGame:
    """One game in the terminal; :meth:`run` plays it to the end (or ``quit``)."""

    def __init__(
        self,
        rules: str = "standard",
        players: int = 2,
        bots: list[str] | None = None,
        seat: int = 0,
        seed: int | None = 0,
        console: Console | None = None,
        read_line: Callable[[str], str] | None = None,
        record_path: Path | None = None,
        bot_seconds: float | None = None,
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.language = language
        self.game = Game.new(rules, players, seed=seed)
        if not 0 <= seat < players:
            raise ValueError(self.t("term.bad_seat", last=players - 1))
        names = list(bots or ["greedy"])
        while len(names) < players - 1:
            names.append(names[-1])
        if len(names) > players - 1:
            raise ValueError(self.t("term.bot_count", bots=len(names), seats=players - 1))
        self.seat = seat
        self.bots: dict[int, Bot] = {}
        self.bot_names: dict[int, str] = {}
        others = [s for s in range(players) if s != seat]
        base = 0 if seed is None else seed
        for s, name in zip(others, names, strict=True):
            seconds = bot_seconds if name in ("mcts", "hard", "expert") else None
            self.bots[s] = make_bot(name, seed=base * 10 + s, players=players, seconds=seconds)
            self.bot_names[s] = name
        self.console = console or Console()
        self.read_line = read_line or self._stdin_line
        self.record_path = record_path or Path(f"tikal-{rules}-{seed}.json")
        self.names = [self.colour(p) for p in range(players)]
        self.fresh = True  # the board changed since the human last saw it
        self._actor = seat  # who chose the action being applied
        self._before = 0  # the history length before it

    # ------------------------------------------------------------ io

    def _stdin_line(self, prompt: str) -> str:
        self.console.print(prompt, end="")
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    def say(self, *objects: object, style: str | None = None) -> None:
        self.console.print(*objects, style=style, highlight=False)

    def t(self, key: str, /, **params: Any) -> str:
        """A catalog sentence in the player's language."""
        return render(Message(key, params), language=self.language)

    def styled(self, key: str, /, **params: Any) -> Text:
        """A catalog sentence with styled parts (see :func:`compose`)."""
        return compose(key, self.language, **params)

    def colour(self, p: int) -> str:
        """The seat's colour name in the player's language (also the player's name)."""
        return self.t(f"colour.{seat_look(p).name.lower()}")

    def who(self, p: int) -> Text:
        role = self.t("term.you") if p == self.seat else f"{self.bot_names[p]}"
        look = seat_look(p)
        return Text(self.t("term.who", name=self.colour(p), seat=p, role=role),
                    style=f"bold {look.terminal}")

    def text(self, action: Action, form: str = "log") -> str:
        """How an action reads (``form``: ``action`` offered, ``log`` played)."""
        return render(self.game.describe(action), form, names=self.names,
                      language=self.language)

    # ------------------------------------------------------------ main loop

    def run(self) -> Game:
        game = self.game
        welcome = self.styled("term.welcome", rules=game.rules.name, players=game.players,
                              you=self.who(self.seat))
        welcome.stylize("bold", 0, welcome.plain.index(self.who(self.seat).plain))
        self.say(welcome)
        with suppress(_Stop):  # the human quit: the record so far is still saved
            play_game(game, self.choose, on_action=self.report)
        if game.is_over:
            self.show_board()
            self.show_result()
        else:
            self.say(self.t("term.stopped"))
        self.save_record()
        return game

    def choose(self, game: Game) -> Action:
        """The next action: the human types it, a bot chooses from its own view [HIDDEN-1]."""
        p = game.current_player
        if p == self.seat:
            action = self.ask_human()
        else:
            self.fresh = True
            action = self.bots[p].choose(game.view(p))
        self._actor, self._before = p, len(game.history)
        return action

    def report(self, game: Game, action: Action) -> None:
        """After an action: what was played, what chance brought, scoring; the human's options."""
        done, *chance = game.history[self._before :]
        if self._actor != self.seat:
            shown = [self.text(a) for a in chance if a.verb != Draw.verb]
            line = Text("  ") + self.who(self._actor) + Text(f": {self.text(done)}")
            if shown:
                line += Text(f"  ({'; '.join(shown)})", style="dim")
            self.say(line)
            self._report_scoring(self._before)
            return
        extra = f"  ({'; '.join(self.text(a) for a in chance)})" if chance else ""
        self.say(Text(f"  {self.t('term.you_did', action=self.text(done))}{extra}",
                      style=f"bold {seat_look(self.seat).terminal}"))
        self._report_scoring(self._before)
        if game.current_player == self.seat and not game.is_over:
            self.say(self.status_line(game.view(self.seat).state))
            self.show_actions()

    def _report_scoring(self, before: int) -> None:
        for event in self.game.score_events:
            if event.at >= before:  # scored while that action was applied
                line = Text("  ") + self.styled(
                    "term.scoring", who=self.who(event.player), temples=event.temples,
                    treasures=event.treasures, total=event.total)
                self.say(line)

    # ------------------------------------------------------------ the human's input

    def ask_human(self) -> Action:
        """Read lines until one is a legal action; commands (help, undo, ...) run meanwhile."""
        if self.fresh:
            self.show_board()
            self.show_actions()
            self.fresh = False
        while True:
            action = self.handle(self.read_input())
            if action is not None:
                return action

    def read_input(self) -> str:
        game = self.game
        phase = self.t(f"term.phase.{game.phase.value}")
        if game.phase in (Phase.TURN, Phase.SCORING):
            prompt = self.t("term.prompt_ap", phase=phase, ap=game.ap)
        else:
            prompt = self.t("term.prompt", phase=phase)
        try:
            return self.read_line(prompt).strip()
        except (EOFError, KeyboardInterrupt):
            self.say("\n" + self.t("term.end_of_input"))
            raise _Stop from None

    def handle(self, line: str) -> Action | None:
        """The action ``line`` names, or None after a command or a refusal."""
        if not line:
            return None
        word = line.split()[0].lower()
        if word in ("quit", "exit", "q"):
            raise _Stop
        if word in ("help", "?", "h"):
            self.show_help(line.split()[1:])
        elif word in ("board", "b"):
            self.show_board()
        elif word in ("actions", "a", "list", "ls"):
            self.show_actions()
        elif word == "undo":
            self.undo()
        else:
            return self.legal_input(line)
        return None

    def undo(self) -> None:
        try:
            undone = self.game.undo()
        except IllegalAction as exc:
            reason = render(exc.reason, language=self.language)
            self.say(self.t("term.cannot_undo", rule=exc.rule, reason=reason), style="red")
            return
        self.say(self.t("term.undone", action=self.text(undone, "action")))
        self.show_actions()

    def legal_input(self, line: str) -> Action | None:
        """A number from the list or an action in notation, if it is legal now."""
        legal = self.game.legal_actions()
        if line.isdigit():
            i = int(line)
            if 1 <= i <= len(legal):
                return legal[i - 1]
            self.say(self.t("term.no_action_number", number=i, count=len(legal)),
                     style="red")
            return None
        try:
            action = parse_action(line)
        except NotationError as exc:
            self.refuse("NOTATION", render(exc.reason, language=self.language))
            return None
        refusal = self.game.check(action)
        if refusal is not None:
            self.refuse(refusal.rule, render(refusal.reason, language=self.language))
            return None
        return action

    def refuse(self, rule: str, message: str) -> None:
        self.say(self.t("term.illegal", rule=rule, reason=message), style="red")
        self.say(self.t("term.illegal_hint", rule=rule), style="dim")

    # ------------------------------------------------------------ display

    def show_help(self, args: list[str]) -> None:
        if not args:
            self.say(self.t("term.help"))
            return
        topic = args[0]
        prefix = TOPICS.get(topic.lower(), topic.upper())
        lines = rule_lines(prefix, self.language)
        if not lines:
            self.say(self.t("term.no_rule", rule=prefix, topics=", ".join(TOPICS)))
            return
        for text in lines:
            self.say(text)

    def show_actions(self) -> None:
        game = self.game
        legal = game.legal_actions()
        lines = []
        for i, action in enumerate(legal, start=1):
            cost = game.cost(action)
            offer = self.text(action, "action")
            if cost:
                offer = self.t("term.with_cost", action=offer, cost=cost)
            lines.append(f"{i:>3}. {offer}")
        width = max((cell_len(s) for s in lines), default=10) + 2
        columns = max(1, min(4, (self.console.width or 100) // width))
        self.say(Text(self.t("term.legal_actions"), style="bold"))
        for row in range(0, len(lines), columns):
            self.say("".join(s + " " * (width - cell_len(s)) for s in lines[row : row + columns]))

    def show_board(self) -> None:
        game = self.game
        view = game.view(self.seat).state
        self.say(Text(self.t("term.board"), style="bold"))
        self.say(board_text(view))
        self.say(Text(legend(self.language), style="dim"))
        self.say(self.tile_table(view))
        self.say(self.player_table(view))
        self.say(self.status_line(view))

    def figures_text(self, g: GameState, cell: int) -> Text:
        """Figures per seat, e.g. ``B:L2 R:1`` (Blue's leader and 2 workers, 1 Red worker)."""
        text = Text()
        for q in range(g.players):
            w = g.workers[q].get(cell, 0)
            lead = g.leader[q] == cell
            if w or lead:
                if text.plain:
                    text.append(" ")
                look = seat_look(q)
                code = f"{look.initial}:" + ("L" if lead else "") + (f"{w}" if w else "")
                text.append(code, style=look.terminal)
        return text

    def tile_table(self, g: GameState) -> Table:
        table = Table(title=self.t("term.tiles_title", initial=seat_look(0).initial,
                                   name=self.colour(0)))
        for name in ("space", "tile", "value", "stones", "exits", "camp_guard", "figures"):
            table.add_column(self.t(f"term.col.{name}"))
        for cell in sorted(g.tiles, key=lambda c: hexes.cell_to_offset(c)):
            tile = g.tiles[cell]
            spec = tile.spec
            kind = spec.kind
            if kind == TEMPLE:
                value = self.t("term.temple_value", level=g.levels[cell], printed=spec.value)
            elif kind == TREASURE:
                value = self.t("term.treasure_value", left=len(g.tokens.get(cell, ())),
                               masks=spec.masks)
            else:
                value = ""
            stones = " ".join(str(s) for s in tile.stones) if kind != VOLCANO else "-"
            exits = " ".join(f"{hexes.label(e.dst)}:{e.cost}" for e in g.exits.get(cell, ()))
            extra = Text()
            if cell in g.camps:
                camp = seat_look(g.camps[cell])
                extra.append(self.t("term.camp_of", name=self.colour(g.camps[cell])),
                             style=camp.terminal)
            if cell in g.guards:
                owner, leader = g.guards[cell]
                guard = seat_look(owner)
                extra.append(self.t("term.guard_of", name=self.colour(owner),
                                    figure="L" if leader else "W"), style=guard.terminal)
            table.add_row(hexes.label(cell), self.t(f"kind.{kind}"), value, stones, exits, extra,
                          self.figures_text(g, cell))
        return table

    def player_table(self, g: GameState) -> Table:
        table = Table(title=self.t("term.players_title"))
        for name in ("seat", "score", "leader", "workers", "camps", "guards", "treasures"):
            table.add_column(self.t(f"term.col.{name}"))
        for q in range(g.players):
            lead = g.leader[q]
            where = {SUPPLY: "supply", OUT: "out", GUARDING: "guard"}.get(lead)
            lead_text = self.t(f"term.leader.{where}") if where else hexes.label(lead)
            board = sum(g.workers[q].values())
            treasures = " ".join(
                f"{token_name(t)}x{n}" for t, n in enumerate(g.treasures[q]) if n
            ) or "-"
            marker = "" if g.markers[q] or not g.rules.auction else self.t("term.marker_down")
            table.add_row(
                self.who(q) + Text(" <" if q == g.current else "") + Text(marker),
                str(g.scores[q]),
                lead_text,
                f"{board} / {g.supply[q]} / {g.out[q]}",
                f"{len(g.own_camps(q))}/{g.rules.camps_max}",
                f"{g.guards_of(q)}/{g.rules.guards_max}",
                treasures,
            )
        return table

    def status_line(self, g: GameState) -> Text:
        left: dict[str, int] = {}
        for t in g.stack:
            letter = g.rules.tile(t).letter
            left[letter] = left.get(letter, 0) + 1
        stack = " ".join(f"{k}:{v}" for k, v in sorted(left.items())) or self.t("term.stack_empty")
        hidden = len(g.token_pool) + sum(len(t) for t in g.tokens.values())
        text = Text(self.t("term.status", rounds=g.scoring_rounds, stack=stack, hidden=hidden))
        supply = [f"{v}x{n}" for v, n in enumerate(g.level_supply) if n]
        if supply:
            text.append(self.t("term.levels_left", levels=" ".join(supply)))
        text.append(self.t("term.phase_to_act", phase=self.t(f"term.phase.{g.phase.value}")))
        text.append_text(self.who(g.current))
        if g.phase in (Phase.TURN, Phase.SCORING):
            text.append(self.t("term.ap_left", ap=g.ap), style="bold")
        if g.phase is Phase.TILE and g.drawn is not None:
            tile = render(g.describe_tile(g.drawn), language=self.language)
            text.append(self.t("term.tile_to_place", tile_id=g.drawn, tile=tile), style="bold")
        if g.display:
            text.append(self.t("term.display", tiles=", ".join(g.display)))
        if g.phase is Phase.AUCTION:
            text.append(self.t("term.highest_bid", bid=max(g.high_bid, 0)))
        return text

    def show_result(self) -> None:
        game = self.game
        table = Table(title=self.t("term.final_scores"))
        for name in ("seat", "score", "per_round"):
            table.add_column(self.t(f"term.col.{name}"))
        for q in range(game.players):
            parts = [f"{e.temples}+{e.treasures}" for e in game.score_events if e.player == q]
            table.add_row(self.who(q), str(game.scores[q]), "  ".join(parts))
        self.say(table)
        winners = game.winners
        names = Text(self.t("term.and")).join(self.who(w) for w in winners)
        heading = self.t("term.winner" if len(winners) == 1 else "term.shared_win")
        self.say(Text(heading, style="bold") + names)

    def save_record(self) -> None:
        record = self.game.record()
        record["bots"] = [
            "human" if s == self.seat else self.bot_names[s] for s in range(self.game.players)
        ]
        try:
            self.record_path.write_text(json.dumps(record, indent=1), encoding="utf-8")
        except OSError as exc:
            self.say(self.t("term.save_failed", path=self.record_path, error=exc), style="red")
            return
        self.say(self.t("term.saved", path=self.record_path))

