"""The gettext catalogs (English, German, Japanese): complete, with the same placeholders,
the right plural forms, and every message the engine produces readable in each language
with no English left over."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator

import pytest

from random_games import CONFIG_IDS, CONFIGS, play
from test_properties import ill_formed
from tikal import (
    Action,
    Bid,
    BuildCamp,
    Dig,
    Game,
    IllegalAction,
    Move,
    PickTile,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    SecretPath,
    Swap,
    TakeTreasure,
    parse_action,
)
from tikal.errors import NotationError
from tikal.hexes import neighbour
from tikal.messages import (
    LANGUAGES,
    Message,
    catalog,
    choose_language,
    counters,
    language_from_accept,
    language_from_env,
    normalize_language,
    po_catalog,
    render,
)

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
NAMES = ["Ann", "Bo", "Cy", "Di"]
#: Templates that are only placeholders and punctuation read the same in every language.
_WORDLESS = re.compile(r"^[\W\d_]*$")
#: Notation errors whose parameter is English text made by the engine (a space label's
#: ValueError, the name of a number's field): the engine should pass keys instead.
ENGLISH_FROM_THE_ENGINE = {"notation.not_a_space", "notation.not_a_number"}
#: Words a language shares with English (German says "Camps" and "AP" too; key caps).
SAME_AS_ENGLISH = {
    ("de", "term.col.camps"), ("de", "term.with_cost"), ("de", "web.cost"), ("ja", "web.cost"),
    ("de", "web.index.bot"), ("de", "web.index.ruleset_line"), ("de", "cli.arena.ray"),
    ("de", "web.ap.short"), ("ja", "web.ap.short"), ("de", "web.keys.tab_key"),
    ("ja", "web.keys.tab_key"), ("de", "web.keys.escape_key"), ("ja", "web.keys.escape_key"),
    ("ja", "web.keys.rotate_key"), ("de", "colour.orange"),  # "Orange" is German too
    ("de", "web.index.bot_rated"), ("de", "web.account.name"),  # "Name" is German too
    ("de", "web.account.passkeys"),  # the word German sites use for WebAuthn credentials
    ("de", "web.nav.lobby"), ("de", "web.lobby.heading"), ("de", "web.lobby.title"),  # "Lobby"
    ("de", "web.chat.title"),  # "Chat" is German too
}


def _fields(template: str) -> set[str]:
    """The placeholders of a str.format template, with their conversion (``word!r``)."""
    found = set()
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is not None:
            found.add(f"{name}!{conversion or ''}:{spec or ''}")
    return found


def _literal(template: str) -> str:
    return "".join(text for text, *_ in string.Formatter().parse(template))


# ---------------------------------------------------------------- the catalogs


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation(language: str) -> None:
    english, texts = catalog("en"), catalog(language)
    assert len(english) > 100
    assert sorted(set(english) - set(texts)) == []
    assert sorted(set(texts) - set(english)) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_match_the_english_ones(language: str) -> None:
    texts = catalog(language)
    for key, english in catalog("en").items():
        wanted = set.union(*(_fields(t) for t in _forms(english)))
        for form in _forms(texts[key]):
            # a language's single plural form may drop the number the English "one" spells out
            assert _fields(form) <= wanted, (key, form)
            assert _fields(form) >= wanted - {f"{counters().get(key)}!:"}, (key, form)


def _forms(entry: str | tuple[str, ...]) -> tuple[str, ...]:
    return entry if isinstance(entry, tuple) else (entry,)


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_entries_have_the_forms_of_the_language(language: str) -> None:
    po = po_catalog(language)
    assert po.num_plurals == {"en": 2, "de": 2, "ja": 1}[language]
    plural = [m for m in po if m.id and isinstance(m.id, tuple)]
    assert plural and all(len(m.string) == po.num_plurals for m in plural)
    assert set(counters(language)) == {m.id[0] for m in plural}


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_are_not_english(language: str) -> None:
    english, texts = catalog("en"), catalog(language)
    same = [key for key, text in english.items()
            if texts[key] == text and not _WORDLESS.match(_literal(str(text)))
            and (language, key) not in SAME_AS_ENGLISH]
    assert same == []


def test_plural_forms_follow_each_language() -> None:
    one = Message("refuse.dig_needs", {"cell": "B3", "need": 1, "have": 0})
    two = Message("refuse.dig_needs", {"cell": "B3", "need": 2, "have": 1})
    assert render(one) == "digging on B3 needs one own figure there, you have 0"
    assert "eine eigene Figur" in render(one, language="de")
    assert "2 eigene Figuren" in render(two, language="de")
    assert render(two, language="ja") == (
        "B3で発掘するには自分のコマが2個必要ですが、1個しかいません")


def test_numbers_are_written_per_locale() -> None:
    message = Message("refuse.bid_high", {"amount": 1234, "score": 1000})
    assert "1.234" in render(message, language="de")
    assert "1,234" in render(message, language="ja")


def test_an_unknown_key_is_an_error_in_every_language() -> None:
    for language in LANGUAGES:
        with pytest.raises(KeyError):
            render(Message("refuse.no_such_key"), language=language)


# ---------------------------------------------------------------- choosing a language


@pytest.mark.parametrize(("tag", "language"), [
    ("de_DE.UTF-8", "de"), ("ja_JP.UTF-8", "ja"), ("en_GB", "en"), ("ja-JP", "ja"),
    ("DE", "de"), ("C", None), ("POSIX", None), ("fr_FR.UTF-8", None), ("", None),
])
def test_locale_tags_name_a_catalog(tag: str, language: str | None) -> None:
    assert normalize_language(tag) == language


def test_tikal_lang_comes_before_lang_and_english_is_the_default() -> None:
    assert language_from_env({}) == "en"
    assert language_from_env({"LANG": "de_DE.UTF-8"}) == "de"
    assert language_from_env({"LANG": "de_DE.UTF-8", "TIKAL_LANG": "ja"}) == "ja"
    assert language_from_env({"LANG": "ja_JP.UTF-8", "TIKAL_LANG": "xx"}) == "ja"
    assert language_from_env({"LANG": "C.UTF-8"}) == "en"
    assert choose_language("de", {"TIKAL_LANG": "ja"}) == "de"
    assert choose_language(None, {"TIKAL_LANG": "ja"}) == "ja"
    with pytest.raises(ValueError, match="unknown language"):
        choose_language("xx", {})


@pytest.mark.parametrize(("header", "language"), [
    ("de-DE,de;q=0.9,en;q=0.8", "de"), ("ja", "ja"), ("fr-FR,fr;q=0.9,ja;q=0.5", "ja"),
    ("en;q=0.5,de;q=0.7", "de"), ("de;q=0,ja;q=0.1", "ja"), ("*", "en"), ("", "en"),
    (None, "en"), ("de;q=x", "en"),
])
def test_the_browser_language_from_accept_language(header: str | None, language: str) -> None:
    assert language_from_accept(header) == language


# ---------------------------------------------------------------- what the engine says


def _messages(rules: str, players: int, seed: int) -> Iterator[tuple[Message, str | None]]:
    """Offers, log entries, refusals, score and tile lines of one random game."""
    rng = random.Random(seed)
    seen: list[Action] = []
    game: Game | None = None
    for game in play(rules, players, seed):
        if game.is_over:
            break
        legal = game.legal_actions()
        seen.extend(rng.sample(legal, min(4, len(legal))))
        if rng.random() > 0.15:
            continue
        for action in legal[:20]:
            yield game.describe(action), "action"
        foreign = [*rng.sample(seen, min(40, len(seen))), *ill_formed(game, rng, seen)]
        for candidate in [*foreign, *_probes(game, rng)]:
            if isinstance(candidate, Action):
                refusal = game.check(candidate)
                if refusal is not None:
                    yield refusal.reason, None
            elif isinstance(candidate, str):
                try:
                    parse_action(candidate)
                except NotationError as error:
                    yield error.reason, None
        trial = game.clone()
        try:
            trial.undo()
        except IllegalAction as refusal:
            yield refusal.reason, None
    assert game is not None
    for action in game.history:
        yield game.describe(action), "log"
    for event in game.score_events:
        yield event.describe(), "log"
    for placed in game.tiles.values():
        yield game.describe_tile(placed.spec.tile_id), None


def _probes(game: Game, rng: random.Random) -> list[Action]:
    """Actions of every kind on random spaces near the tiles: most are refused, for many
    different reasons (wrong tile kind, no figure there, impassable edge, ...)."""
    cells = list(game.tiles)
    near = [neighbour(c, d) for c in cells for d in range(6)]
    probes: list[Action] = []
    for _ in range(6):
        cell, other = rng.choice(cells), rng.choice(near)
        leader = rng.random() < 0.5
        probes += [
            Dig(cell), TakeTreasure(cell), BuildCamp(cell), PlaceGuard(cell, leader),
            PutFigure(cell, leader), PlaceTile(other, rng.randrange(7)),
            PlaceTile(cell, 0), Move(cell, other, leader), Move(cell, rng.choice(cells), leader),
            SecretPath(cell, rng.choice(cells), leader), BuildCamp(other), Dig(other),
            Swap(rng.randrange(9), rng.randrange(9), rng.randrange(-1, 5)),
            Bid(rng.randrange(-1, 40)), PickTile("A.1"),
        ]
    return probes


def _english_words(message: Message, form: str | None) -> set[str]:
    """The words of the English templates a message uses (nested messages included)."""
    key = f"{form}.{message.key}" if form else message.key
    words: set[str] = set()
    for template in _forms(catalog("en")[key]):
        words |= set(re.findall(r"[a-z]{3,}", _literal(template)))
    for value in message.params.values():
        if isinstance(value, Message):
            words |= _english_words(value, None)
    return words


def _parameter_words(message: Message) -> set[str]:
    """Identifiers passed through untranslated (rule set names, verbs in notation)."""
    words: set[str] = set()
    for value in message.params.values():
        if isinstance(value, Message):
            words |= _parameter_words(value)
        else:
            words |= set(re.findall(r"[a-z]{3,}", str(value)))
    return words


@pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=CONFIG_IDS)
def test_every_message_the_engine_produces_is_translated(rules: str, players: int) -> None:
    kinds: set[str] = set()
    for message, form in _messages(rules, players, seed=players * 7 + len(rules)):
        kinds.add(f"{form}.{message.key}" if form else message.key)
        if message.key in ENGLISH_FROM_THE_ENGINE:
            continue
        english = render(message, form, names=NAMES)
        left = _english_words(message, form) - _parameter_words(message) - {"seat"}
        for language in TRANSLATED:
            text = render(message, form, names=NAMES, language=language)
            assert "{" not in text and text != english, (language, message)
            found = {w for w in left if re.search(rf"(?<![A-Za-z]){w}(?![A-Za-z])", text)}
            assert found == set(), (language, text, found)
    assert len([k for k in kinds if k.startswith("refuse.")]) >= 15
    assert any(k.startswith("notation.") for k in kinds)
    assert len([k for k in kinds if k.startswith("log.")]) >= 5


def test_notation_errors_carry_no_english_text() -> None:
    for text in ("tile Z9 0", "tile A1 x", "tile 99,0 0", "bid x", "swap a b q"):
        with pytest.raises(NotationError) as info:
            parse_action(text)
        assert not re.search(r"[a-z]{4,}", render(info.value.reason, language="ja"))


def test_every_refusal_key_reads_in_every_language() -> None:
    """Refusals seen in random play are a sample; this renders every one from its key."""
    for key, english in catalog("en").items():
        if not key.startswith(("refuse.", "notation.")):
            continue
        params = {name.split("!")[0]: 2 for t in _forms(english) for name in _fields(t)}
        for language in TRANSLATED:
            text = render(Message(key, params), language=language)
            assert "{" not in text


def test_an_illegal_action_keeps_its_english_message() -> None:
    refusal = IllegalAction("DIG-1", "refuse.not_temple_dig", {"cell": "A5"})
    assert refusal.message == "A5 is not a temple"
    assert render(refusal.reason, language="de") == "A5 ist kein Tempel"
    assert render(refusal.reason, language="ja") == "A5は神殿ではありません"


def test_the_catalogs_list_their_keys_in_the_english_order() -> None:
    """One order in all three files keeps their diffs side by side for translators."""
    english = [m.id for m in po_catalog("en") if m.id]
    for language in TRANSLATED:
        assert [m.id for m in po_catalog(language) if m.id] == english
