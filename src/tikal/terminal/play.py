"""A human against bots in the terminal (``tikal play``).

Everything goes through a rich :class:`Console` and a ``read_line`` function,
so the game runs the same with a keyboard, with piped input or inside tests.
The human sees only their own view of the game [HIDDEN-1].  Input is a number
from the list of legal actions or an action in notation (``move W A5 B4``),
plus ``undo``, ``help [topic or rule id]``, ``board``, ``actions`` and
``quit``.  Illegal input gets the engine's reason and rule id.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

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
from ..messages import render
from ..rulebook import rules_starting
from ..seats import seat_look
from ..state import GUARDING, OUT, SUPPLY, GameState, Phase
from .textboard import LEGEND, board_text

HELP = """\
Type the number of an action from the list, or the action itself in notation:
  tile <space> <rotation>    place the drawn tile, rotation 0-5 [TILE-1..5]
  put W|L <space>            bring a worker/leader onto the basecamp or an own camp, 1 AP [PLACE-1]
  move W|L <from> <to>       walk across one edge, 1 AP per stone [MOVE-1..5]
  path W|L <from> <to>       secret path between basecamp and own camps, 1 AP [CAMPMOVE-1]
  dig <space>                excavate the next temple level, 2 AP [DIG-1..5]
  take <space>               recover the top treasure token, 3 AP [TREASURE-1..3]
  swap <give> <take> <seat>  exchange single treasures with another player, 3 AP [SWAP-1]
  camp <space>               build a camp, 5 AP [CAMP-1..4]
  guard W|L <space>          turn a figure into the temple's guard, 5 AP [GUARD-1..4]
  end                        end the turn; unused AP are lost [TURN-2]
  bid <n> | pass             auction variant [AUC-3]; pick <tile> chooses a shown tile [AUC-5]
Other commands:
  undo        take back your last action of this turn (not once a tile or token was revealed)
  board       show the board again;  actions  list the legal actions again
  help <id>   show a rule of the rulebook, e.g. 'help MOVE-1', or a topic: 'help scoring'
  quit        stop; the record of the game so far is saved
W = worker, L = leader (strength 3 in majorities [TURN-3]).  Spaces: A1..H5 (demo: q,r).
Scoring rounds start when a volcano is drawn [SCORE-1]: every player takes a 10 AP scoring turn
and then scores temples where they are strictly strongest or guard [SCORE-2] and treasure sets
[SET-1]: 1 / 3 / 6 points for 1 / 2 / 3 of a kind.  The game ends with a final round [END-1]."""

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


def rule_lines(prefix: str) -> list[str]:
    """The rulebook entries whose id starts with ``prefix`` (``MOVE-1`` or ``SCORE-``).

    An exact id gives that rule alone; a prefix gives the whole group.
    """
    return [f"[{rule_id}] {text}" for rule_id, text in rules_starting(prefix)]


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
    ) -> None:
        self.game = Game.new(rules, players, seed=seed)
        if not 0 <= seat < players:
            raise ValueError(f"--seat must be 0..{players - 1}")
        names = list(bots or ["greedy"])
        while len(names) < players - 1:
            names.append(names[-1])
        if len(names) > players - 1:
            raise ValueError(f"{len(names)} bots for {players - 1} other seats")
        self.seat = seat
        self.bots: dict[int, Bot] = {}
        self.bot_names: dict[int, str] = {}
        others = [s for s in range(players) if s != seat]
        base = 0 if seed is None else seed
        for s, name in zip(others, names, strict=True):
            if bot_seconds is not None and name in ("mcts", "hard"):
                self.bots[s] = make_bot(name, seed=base * 10 + s, seconds=bot_seconds)
            else:
                self.bots[s] = make_bot(name, seed=base * 10 + s)
            self.bot_names[s] = name
        self.console = console or Console()
        self.read_line = read_line or self._stdin_line
        self.record_path = record_path or Path(f"tikal-{rules}-{seed}.json")
        self.names = [seat_look(p).name for p in range(players)]
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

    def who(self, p: int) -> Text:
        name = "You" if p == self.seat else f"{self.bot_names[p]}"
        look = seat_look(p)
        return Text(f"{look.name} (seat {p}, {name})", style=f"bold {look.terminal}")

    def text(self, action: Action, form: str = "log") -> str:
        """How an action reads in English (``form``: ``action`` offered, ``log`` played)."""
        return render(self.game.describe(action), form, names=self.names)

    # ------------------------------------------------------------ main loop

    def run(self) -> Game:
        game = self.game
        self.say(Text(f"Tikal - {game.rules.name}, {game.players} players. You are ", style="bold")
                 + self.who(self.seat) + Text(". Type 'help' for commands."))
        with suppress(_Stop):  # the human quit: the record so far is still saved
            play_game(game, self.choose, on_action=self.report)
        if game.is_over:
            self.show_board()
            self.show_result()
        else:
            self.say("Game stopped.")
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
        self.say(Text(f"  You: {self.text(done)}{extra}",
                      style=f"bold {seat_look(self.seat).terminal}"))
        self._report_scoring(self._before)
        if game.current_player == self.seat and not game.is_over:
            self.say(self.status_line(game.view(self.seat).state))
            self.show_actions()

    def _report_scoring(self, before: int) -> None:
        for event in self.game.score_events:
            if event.at > before:
                self.say(Text("  Scoring: ") + self.who(event.player)
                         + Text(f" scores {event.temples} for temples + {event.treasures} for "
                                f"treasures = {event.total}", style="bold"))

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
        prompt = f"[{game.phase.value}"
        if game.phase in (Phase.TURN, Phase.SCORING):
            prompt += f", {game.ap} AP left"
        prompt += "] your action> "
        try:
            return self.read_line(prompt).strip()
        except (EOFError, KeyboardInterrupt):
            self.say("\n(end of input)")
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
            self.say(f"Cannot undo: [{exc.rule}] {exc.message}", style="red")
            return
        self.say(f"Undone: {self.text(undone, 'action')}")
        self.show_actions()

    def legal_input(self, line: str) -> Action | None:
        """A number from the list or an action in notation, if it is legal now."""
        legal = self.game.legal_actions()
        if line.isdigit():
            i = int(line)
            if 1 <= i <= len(legal):
                return legal[i - 1]
            self.say(f"There is no action {i}: choose 1..{len(legal)}, or type 'actions'.",
                     style="red")
            return None
        try:
            action = parse_action(line)
        except NotationError as exc:
            self.refuse("NOTATION", str(exc))
            return None
        refusal = self.game.check(action)
        if refusal is not None:
            self.refuse(refusal.rule, refusal.message)
            return None
        return action

    def refuse(self, rule: str, message: str) -> None:
        self.say(f"Illegal: [{rule}] {message}", style="red")
        self.say(f"'help {rule}' shows the rule, 'help' the notation, 'actions' the list.",
                 style="dim")

    # ------------------------------------------------------------ display

    def show_help(self, args: list[str]) -> None:
        if not args:
            self.say(HELP)
            return
        topic = args[0]
        prefix = TOPICS.get(topic.lower(), topic.upper())
        lines = rule_lines(prefix)
        if not lines:
            self.say(f"No rule {prefix} in the rulebook; rule ids look like MOVE-1, topics are "
                     f"{', '.join(TOPICS)}.")
            return
        for text in lines:
            self.say(text)

    def show_actions(self) -> None:
        game = self.game
        legal = game.legal_actions()
        lines = []
        for i, action in enumerate(legal, start=1):
            cost = game.cost(action)
            tail = f" ({cost} AP)" if cost else ""
            lines.append(f"{i:>3}. {self.text(action, 'action')}{tail}")
        width = max((len(s) for s in lines), default=10) + 2
        columns = max(1, min(4, (self.console.width or 100) // width))
        self.say(Text("Legal actions (number or notation; 'help' for more):", style="bold"))
        for row in range(0, len(lines), columns):
            self.say("".join(s.ljust(width) for s in lines[row : row + columns]))

    def show_board(self) -> None:
        game = self.game
        view = game.view(self.seat).state
        self.say(Text("Board", style="bold"))
        self.say(board_text(view))
        self.say(Text(LEGEND, style="dim"))
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
        first = seat_look(0)
        table = Table(title="Tiles (stones per edge N NE SE S SW NW; exits: neighbour:AP; "
                      f"figures {first.initial}:L2 = {first.name}'s leader + 2 workers)")
        for name in ("Space", "Tile", "Value / tokens", "Stones", "Exits", "Camp/guard",
                     "Figures"):
            table.add_column(name)
        for cell in sorted(g.tiles, key=lambda c: hexes.cell_to_offset(c)):
            tile = g.tiles[cell]
            spec = tile.spec
            kind = spec.kind
            if kind == TEMPLE:
                value = f"level {g.levels[cell]} (printed {spec.value})"
            elif kind == TREASURE:
                value = f"{len(g.tokens.get(cell, ()))} of {spec.masks} tokens left"
            else:
                value = ""
            stones = " ".join(str(s) for s in tile.stones) if kind != VOLCANO else "-"
            exits = " ".join(f"{hexes.label(e.dst)}:{e.cost}" for e in g.exits.get(cell, ()))
            extra = Text()
            if cell in g.camps:
                camp = seat_look(g.camps[cell])
                extra.append(f"camp {camp.name}", style=camp.terminal)
            if cell in g.guards:
                owner, leader = g.guards[cell]
                guard = seat_look(owner)
                extra.append(f"guard {guard.name} {'L' if leader else 'W'}", style=guard.terminal)
            table.add_row(hexes.label(cell), kind, value, stones, exits, extra,
                          self.figures_text(g, cell))
        return table

    def player_table(self, g: GameState) -> Table:
        table = Table(title="Players (L = leader; W on board / supply / out)")
        for name in ("Seat", "Score", "Leader", "Workers", "Camps", "Guards", "Treasures"):
            table.add_column(name)
        for q in range(g.players):
            lead = g.leader[q]
            lead_text = {SUPPLY: "supply", OUT: "out", GUARDING: "guard"}.get(lead) or (
                hexes.label(lead)
            )
            board = sum(g.workers[q].values())
            treasures = " ".join(
                f"{token_name(t)}x{n}" for t, n in enumerate(g.treasures[q]) if n
            ) or "-"
            marker = "" if g.markers[q] or not g.rules.auction else " (marker down)"
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
        stack = " ".join(f"{k}:{v}" for k, v in sorted(left.items())) or "empty"
        hidden = len(g.token_pool) + sum(len(t) for t in g.tokens.values())
        text = Text(f"Scoring rounds so far: {g.scoring_rounds}. Stack {stack}. "
                    f"Face-down treasures: {hidden}. ")
        supply = [f"{v}x{n}" for v, n in enumerate(g.level_supply) if n]
        if supply:
            text.append(f"Temple levels left: {' '.join(supply)}. ")
        text.append(f"Phase: {g.phase.value}; to act: ")
        text.append_text(self.who(g.current))
        if g.phase in (Phase.TURN, Phase.SCORING):
            text.append(f"; {g.ap} AP left", style="bold")
        if g.phase is Phase.TILE and g.drawn is not None:
            text.append(f"; tile to place: {g.drawn} ({g.rules.tile(g.drawn).describe()})",
                        style="bold")
        if g.display:
            text.append(f"; display: {', '.join(g.display)}")
        if g.phase is Phase.AUCTION:
            text.append(f"; highest bid {max(g.high_bid, 0)}")
        return text

    def show_result(self) -> None:
        game = self.game
        table = Table(title="Final scores")
        table.add_column("Seat")
        table.add_column("Score")
        table.add_column("Temples / treasures per round")
        for q in range(game.players):
            parts = [f"{e.temples}+{e.treasures}" for e in game.score_events if e.player == q]
            table.add_row(self.who(q), str(game.scores[q]), "  ".join(parts))
        self.say(table)
        winners = game.winners
        names = Text(" and ").join(self.who(w) for w in winners)
        self.say(Text("Winner: " if len(winners) == 1 else "Shared win: ", style="bold") + names)

    def save_record(self) -> None:
        record = self.game.record()
        record["bots"] = [
            "human" if s == self.seat else self.bot_names[s] for s in range(self.game.players)
        ]
        try:
            self.record_path.write_text(json.dumps(record, indent=1), encoding="utf-8")
        except OSError as exc:
            self.say(f"Could not save the record to {self.record_path}: {exc}", style="red")
            return
        self.say(f"Game record saved to {self.record_path}")

