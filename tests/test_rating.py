"""Ratings (issue 28): the pure logic of ``tikal.server.rating``.

``update`` is checked against an independent, plain-math implementation of Weng & Lin (2011),
"A Bayesian Approximation Method for Online Ranking", Algorithm 4 (Plackett-Luce), written
here from the paper with OpenSkill 6's defaults and its two additions: tau (sigma widened by
tau before the game) and limit_sigma (a game never leaves sigma larger than it found it).
OpenSkill 6.2 also has code meant to average the mu changes of tied teams, but it compares
each rating with itself (``_compute`` updates its inputs in place), so it changes nothing:
the paper's equations are what it computes.  Should a later OpenSkill make that averaging
real, the tie cases below fail, which is right: ratings would change.

Places follow [END-2]: the highest score wins, no tie-break, tied players share the place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tikal.components import RULE_SET_NAMES
from tikal.server.rating import (
    ACCOUNT,
    BOT,
    GUEST,
    RatedResult,
    Rating,
    display,
    initial,
    is_provisional,
    is_rated,
    ranks_from_scores,
    rated_rule_sets,
    rating_params,
    update,
)

# OpenSkill 6's Plackett-Luce defaults (openskill/models/weng_lin/plackett_luce.py).
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0  # sigma / 2
KAPPA = 0.0001
TAU = 25.0 / 300.0  # sigma / 100

# ------------------------------------------------------------------ the paper's equations


def weng_lin(players: Sequence[tuple[float, float]],
             ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Algorithm 4 of Weng & Lin, every team one player: (mu, sigma) before -> after."""
    k = range(len(players))
    sigmas = [math.sqrt(sigma**2 + TAU**2) for _, sigma in players]  # tau, before the game
    c = math.sqrt(sum(s**2 + BETA**2 for s in sigmas))
    e = [math.exp(mu / c) for mu, _ in players]
    # C_q = sum of exp(mu_s / c) over s not ahead of q; A_q = how many share q's rank
    big_c = [sum(e[s] for s in k if ranks[s] >= ranks[q]) for q in k]
    a = [sum(1 for s in k if ranks[s] == ranks[q]) for q in k]
    result = []
    for i in k:
        level_or_ahead = [q for q in k if ranks[q] <= ranks[i]]
        p = {q: e[i] / big_c[q] for q in level_or_ahead}
        omega = sigmas[i] ** 2 / c * sum(((q == i) - p[q]) / a[q] for q in level_or_ahead)
        gamma = sigmas[i] / c
        delta = gamma * sigmas[i] ** 2 / c**2 * sum(
            p[q] * (1 - p[q]) / a[q] for q in level_or_ahead)
        sigma = sigmas[i] * math.sqrt(max(1 - delta, KAPPA))
        result.append((players[i][0] + omega, min(sigma, players[i][1])))  # limit_sigma
    return result


def flat(pairs: Sequence[tuple[float, float]]) -> list[float]:
    return [x for pair in pairs for x in pair]


def check_against_paper(players: list[tuple[float, float]], scores: list[int]) -> None:
    ratings = [Rating(mu, sigma, games=3) for mu, sigma in players]
    got = update(ratings, scores)
    want = weng_lin(players, ranks_from_scores(scores))
    assert flat([(r.mu, r.sigma) for r in got]) == pytest.approx(flat(want), abs=1e-9)
    assert [r.games for r in got] == [4] * len(players)


def test_the_parameters_are_openskills_defaults() -> None:
    model, default = rating_params().model, PlackettLuce()
    assert (model.mu, model.sigma, model.beta, model.kappa, model.tau) == (
        default.mu, default.sigma, default.beta, default.kappa, default.tau)
    assert (model.mu, model.sigma, model.beta, model.kappa, model.tau) == (
        MU, SIGMA, BETA, KAPPA, TAU)
    assert model.limit_sigma  # so that sigma never grows (tested below)


@pytest.mark.rule("END-2")
def test_END_2_two_player_win_by_hand() -> None:
    """Two new players, seat 0 wins 70 to 50.

    sigma'^2 = (25/3)^2 + (1/12)^2 = 10001/144 = 69.451388...   (tau added first)
    c^2 = 2 * (sigma'^2 + beta^2) = 2 * (10001 + 2500) / 144 = 173.625,  c = 13.176684...
    Equal mu, so exp(mu/c) is the same e for both: C_winner = 2e, C_loser = e, A = 1, 1.
    winner: omega = sigma'^2/c * (1 - e/2e) = 69.451389 / 26.353368 = 2.635389...
    loser:  omega = sigma'^2/c * (0 - e/2e) + sigma'^2/c * (1 - e/e) = -2.635389...
    mu: 25 + 2.635389 = 27.635389 and 25 - 2.635389 = 22.364611
    both: delta = gamma * sigma'^2/c^2 * (1/2 * 1/2), gamma = sigma'/c = 0.632462,
          sigma'^2/c^2 = 10001/25002 = 0.400008, so delta = 0.063247
    sigma = sigma' * sqrt(1 - delta) = 8.333750 * 0.967860 = 8.065901 (below 25/3: kept)
    shown: 750 + 30 * (27.635389 - 2 * 8.065901) = 1095 and 750 + 30 * 6.232808 = 937
    """
    winner, loser = update([initial(), initial()], [70, 50])
    assert winner.mu == pytest.approx(27.635389493140497, abs=1e-12)
    assert loser.mu == pytest.approx(22.364610506859503, abs=1e-12)
    assert winner.sigma == loser.sigma == pytest.approx(8.06590141354368, abs=1e-12)
    assert (winner.games, loser.games) == (1, 1)
    assert (display(winner), display(loser)) == (1095, 937)


@pytest.mark.rule("END-2")
def test_END_2_two_player_win_matches_the_paper() -> None:
    check_against_paper([(28.0, 6.0), (22.0, 7.5)], [40, 55])


@pytest.mark.rule("END-2")
def test_END_2_four_players_all_different_match_the_paper() -> None:
    """Seat 3's sigma is small enough that limit_sigma holds it where it was."""
    check_against_paper([(25.0, SIGMA), (30.0, 4.0), (18.0, 6.0), (27.0, 0.3)], [61, 44, 72, 30])


@pytest.mark.rule("END-2")
def test_END_2_four_players_tied_for_first_match_the_paper() -> None:
    check_against_paper([(30.0, 5.0), (20.0, 7.0), (25.0, 8.0), (26.0, 3.0)], [70, 70, 50, 10])


@pytest.mark.rule("END-2")
def test_END_2_three_players_all_tied_match_the_paper() -> None:
    check_against_paper([(20.0, 5.0), (25.0, 8.0), (32.0, 3.0)], [40, 40, 40])


def test_update_reads_scores_as_openskill_does() -> None:
    """Our places give what OpenSkill's own ``scores=`` gives (higher is better)."""
    players = [(25.0, SIGMA), (30.0, 4.0), (18.0, 6.0), (27.0, 2.0)]
    scores = [50, 70, 70, 10]
    model = PlackettLuce(limit_sigma=True)
    theirs = model.rate([[model.rating(mu=m, sigma=s)] for m, s in players],
                        scores=[float(x) for x in scores])
    ours = update([Rating(m, s) for m, s in players], scores)
    assert flat([(r.mu, r.sigma) for r in ours]) == pytest.approx(
        flat([(t[0].mu, t[0].sigma) for t in theirs]), abs=1e-12)


# ------------------------------------------------------------------ properties

ratings = st.builds(Rating, mu=st.floats(0.0, 50.0), sigma=st.floats(0.1, SIGMA),
                    games=st.integers(0, 500))


@st.composite
def games(draw: st.DrawFn) -> tuple[list[Rating], list[int]]:
    """Two to four seats' ratings and final scores (ties are likely: scores are few)."""
    n = draw(st.integers(2, 4))
    return (draw(st.lists(ratings, min_size=n, max_size=n)),
            draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)))


@pytest.mark.rule("END-2")
@given(games())
def test_END_2_the_sole_winner_never_loses_and_the_sole_last_never_gains(
        game: tuple[list[Rating], list[int]]) -> None:
    before, scores = game
    after = update(before, scores)
    ranks = ranks_from_scores(scores)
    for seat, rank in enumerate(ranks):
        if ranks.count(rank) > 1:
            continue
        if rank == 1:
            assert after[seat].mu >= before[seat].mu
        if rank == max(ranks):
            assert after[seat].mu <= before[seat].mu


@given(games())
def test_sigma_never_grows_and_each_game_counts_once(game: tuple[list[Rating], list[int]]) -> None:
    before, scores = game
    after = update(before, scores)
    assert all(new.sigma <= old.sigma for new, old in zip(after, before, strict=True))
    assert [new.games for new in after] == [old.games + 1 for old in before]


@pytest.mark.rule("END-2")
@given(games())
def test_END_2_tied_players_with_equal_ratings_end_equal(
        game: tuple[list[Rating], list[int]]) -> None:
    before, scores = game
    before[1], scores[1] = before[0], scores[0]
    first, second = update(before, scores)[:2]
    assert second.mu == pytest.approx(first.mu, rel=1e-12, abs=1e-12)
    assert second.sigma == pytest.approx(first.sigma, rel=1e-12, abs=1e-12)


@given(games(), st.data())
def test_the_order_of_the_seats_does_not_matter(
        game: tuple[list[Rating], list[int]], data: st.DataObject) -> None:
    before, scores = game
    order = data.draw(st.permutations(range(len(before))))
    plain = update(before, scores)
    shuffled = update([before[i] for i in order], [scores[i] for i in order])
    for seat, i in enumerate(order):
        assert shuffled[seat].mu == pytest.approx(plain[i].mu, rel=1e-12, abs=1e-12)
        assert shuffled[seat].sigma == pytest.approx(plain[i].sigma, rel=1e-12, abs=1e-12)
        assert shuffled[seat].games == plain[i].games


# ------------------------------------------------------------------ values and display


def test_a_rating_is_a_value_its_repr_builds_again() -> None:
    rating = Rating(mu=27.635389493140497, sigma=8.06590141354368, games=1)
    assert eval(repr(rating)) == rating
    assert initial() == Rating(MU, SIGMA, 0)


@pytest.mark.parametrize("bad", [
    {"mu": 25.0, "sigma": 0.0}, {"mu": 25.0, "sigma": -1.0}, {"mu": math.nan, "sigma": 1.0},
    {"mu": 25.0, "sigma": math.inf}, {"mu": 25.0, "sigma": 1.0, "games": -1}])
def test_a_rating_refuses_what_no_belief_is(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Rating(**bad)  # type: ignore[arg-type]


def test_display_is_conservative_and_scaled() -> None:
    """round(750 + 30 * (mu - 2 sigma)): a newcomer shows 1000, a known average player 1500."""
    assert display(initial()) == 1000
    assert display(Rating(25.0, 1e-9)) == 1500
    assert display(Rating(30.0, 5.0)) == 750 + 30 * 20
    assert display(Rating(30.0, 4.0)) > display(Rating(30.0, 5.0))  # more certain, higher
    assert display(Rating(31.0, 5.0)) > display(Rating(30.0, 5.0))
    assert display(Rating(2.0, 8.0)) == 750 + 30 * (2 - 16)  # may go below the offset


def test_a_rating_is_provisional_for_its_first_games() -> None:
    few = rating_params().provisional_games
    assert few == 10
    assert is_provisional(initial())
    assert is_provisional(Rating(MU, 1.0, games=few - 1))  # certain or not: games count
    assert not is_provisional(Rating(MU, SIGMA, games=few))


@pytest.mark.rule("END-2")
@pytest.mark.parametrize(("scores", "ranks"), [
    ([50, 70, 70, 10], [3, 1, 1, 4]),
    ([70, 50], [1, 2]),
    ([50, 70], [2, 1]),
    ([40, 40, 40], [1, 1, 1]),
    ([9, 9, 3, 3], [1, 1, 3, 3]),
    ([0, 5, 5, 5], [4, 1, 1, 1]),
])
def test_END_2_highest_score_wins_and_ties_share_the_place(
        scores: list[int], ranks: list[int]) -> None:
    assert ranks_from_scores(scores) == ranks


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize("n", [0, 1, 5])
def test_update_refuses_a_game_of_too_few_or_too_many(n: int) -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        update([initial()] * n, [10] * n)


def test_update_refuses_ratings_and_scores_of_different_lengths() -> None:
    with pytest.raises(ValueError, match="3 ratings but 2 scores"):
        update([initial()] * 3, [10, 20])


# ------------------------------------------------------------------ which games count


@pytest.mark.parametrize(("kinds", "rated"), [
    ([ACCOUNT, ACCOUNT], True),
    ([ACCOUNT, BOT, BOT, BOT], True),
    ([ACCOUNT, GUEST], False),  # a guest has no rating to keep
    ([BOT, BOT], False),  # bots are placed by calibration only
    ([ACCOUNT], False),
    ([ACCOUNT] * 5, False),
])
def test_a_game_is_rated_by_its_seats(kinds: list[str], rated: bool) -> None:
    assert is_rated(kinds, asked=True, ended_normally=True) is rated


def test_a_game_is_rated_only_when_asked_and_ended_normally() -> None:
    seats = [ACCOUNT, BOT]
    assert not is_rated(seats, asked=False, ended_normally=True)
    assert not is_rated(seats, asked=True, ended_normally=False)


def test_is_rated_refuses_an_unknown_seat_kind() -> None:
    with pytest.raises(ValueError, match="unknown seat kinds"):
        is_rated([ACCOUNT, "Account"], asked=True, ended_normally=True)


def test_every_rule_set_keeps_its_own_rating() -> None:
    assert rated_rule_sets() == RULE_SET_NAMES


def test_a_rated_result_checks_itself() -> None:
    result = RatedResult("g42", "auction", (50, 70, 70, 10))
    assert result.ranks == [3, 1, 1, 4]
    assert result.rate([initial()] * 4) == update([initial()] * 4, [50, 70, 70, 10])
    assert eval(repr(result)) == result
    with pytest.raises(ValueError, match="not rated"):
        RatedResult("g42", "variant", (1, 2))
    with pytest.raises(ValueError, match="2 to 4 players"):
        RatedResult("g42", "demo", (1, 2, 3, 4, 5))
    with pytest.raises(ValueError, match="game's id"):
        RatedResult("", "demo", (1, 2))
