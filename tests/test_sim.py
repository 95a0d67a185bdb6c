"""The simulation engine: random tables, whole games in its compiled loop, and the tally.

The engine must agree with the rest of the package: with find_sets and has_set on every
table, and with Game on every move of a game (the same SETs taken in the same order, for
each variant and both decks). Its rates are compared with published values.
"""

import math
import re
import sys
import time
from pathlib import Path

import fuzzing
import numpy as np
import pytest
from conftest import variants_named_in

from setwidgets import Card, Game, first_set, sim
from setwidgets.cards import full_deck, mini_deck
from setwidgets.game import variants as v
from setwidgets.rules import count_sets, find_sets, has_set
from setwidgets.sim import kernels

DECK = full_deck()


def cards_of(row):
    return [DECK[i] for i in row]


# -- random tables -------------------------------------------------------------------------------


def test_deal_tables_gives_different_cards_of_the_deck_and_repeats_with_its_seed():
    tables = sim.deal_tables(500, 15, seed=4)
    assert tables.shape == (500, 15)
    assert all(len(set(row)) == 15 for row in tables.tolist())
    assert tables.min() >= 0 and tables.max() <= 80
    assert (sim.deal_tables(500, 15, seed=4) == tables).all()
    assert not (sim.deal_tables(500, 15, seed=5) == tables).all()
    red = {c.index for c in mini_deck()}
    assert set(sim.deal_tables(50, 9, deck="mini", seed=1).ravel().tolist()) <= red


def test_every_card_is_dealt_about_equally_often():
    counts = np.bincount(sim.deal_tables(8100, 12, seed=2).ravel(), minlength=81)
    expected = 8100 * 12 / 81
    # A chi-square statistic with 80 degrees of freedom stays below 140 but for one run in 10^5.
    assert ((counts - expected) ** 2 / expected).sum() < 140


@pytest.mark.parametrize("size", [0, 1, 2, 3, 9, 12, 15, 21])
def test_count_sets_many_and_has_set_many_agree_with_find_sets(size):
    tables = sim.deal_tables(300, size, seed=size)
    counts = sim.count_sets_many(tables)
    found = sim.has_set_many(tables)
    for row, count, has in zip(tables.tolist(), counts.tolist(), found.tolist()):
        assert count == count_sets(cards_of(row))
        assert has == has_set(cards_of(row))


def test_tables_without_a_set_are_seen_as_such():
    # A cap of 20 cards (no SET), and the same cap with one card more of the deck: a SET.
    from setwidgets.caps import largest_set_free

    cap = [c.index for c in largest_set_free(progress=False)]
    extra = next(i for i in range(81) if i not in cap)
    assert sim.has_set_many([cap]).tolist() == [False]
    assert sim.count_sets_many([cap]).tolist() == [0]
    assert sim.has_set_many([[*cap, extra]]).tolist() == [True]


def test_games_are_dealt_from_uniformly_shuffled_decks():
    rows = np.tile(np.arange(81, dtype=np.uint8), (8100, 1))
    kernels.shuffle_rows(rows, np.random.default_rng(3).random((8100, 80)))
    assert (np.sort(rows, axis=1) == np.arange(81)).all()  # every row still holds each card once
    # Where card 0 ends up, and which card comes first: each of the 81 about 100 times.
    places, firsts = np.argmax(rows == 0, axis=1), rows[:, 0]
    for counts in (np.bincount(places, minlength=81), np.bincount(firsts, minlength=81)):
        # A chi-square statistic with 80 degrees of freedom stays below 140 but for one run in 10^5.
        assert ((counts - 100) ** 2 / 100).sum() < 140


def test_the_whole_deck_holds_1080_sets():
    assert sim.count_sets_many([list(range(81))]).tolist() == [1080]


def test_tables_of_any_integer_type_and_layout_give_the_same_answers():
    tables = sim.deal_tables(200, 14, seed=5)
    counts = sim.count_sets_many(tables).tolist()
    assert sim.count_sets_many(tables.astype(np.uint8)).tolist() == counts
    assert sim.count_sets_many(tables.T.copy().T).tolist() == counts  # a column-major array
    assert sim.count_sets_many(tables[:, ::2]).tolist() == [count_sets(cards_of(r)) for r in tables[:, ::2]]


def test_the_compiled_loops_keep_their_machine_code_on_disk():
    # A lesson calls the engine in a fresh kernel: compiling anew each time would take seconds.
    for kernel in (kernels.scan_tables, kernels.play_games):
        assert type(kernel._cache).__name__ == "FunctionCache"


@pytest.mark.parametrize(
    ("tables", "error", "words"),
    [
        ("1RSO 2GTS", TypeError, "array of card indices"),
        ([[0, 1, 81]], ValueError, "0 to 80"),
        ([[0, 1, -1]], ValueError, "0 to 80"),
        ([[0, 1, 1]], ValueError, "twice"),
        ([[0.5, 1.0, 2.0]], TypeError, "card indices"),
    ],
)
def test_bad_tables_are_refused_with_a_message(tables, error, words):
    with pytest.raises(error, match=words):
        sim.count_sets_many(tables)


def test_bad_arguments_to_deal_tables_and_play_are_refused():
    with pytest.raises(ValueError, match="size must be from 0 to 27"):
        sim.deal_tables(3, 28, deck="mini")
    with pytest.raises(ValueError, match="unknown deck"):
        sim.deal_tables(3, 12, deck="huge")
    with pytest.raises(ValueError, match="variant must be one of"):
        sim.play(3, variant="speed", progress=False)
    with pytest.raises(ValueError, match="policy must be"):
        sim.play(3, policy="last", progress=False)
    with pytest.raises(TypeError, match="seed"):
        sim.play(3, seed="seven", progress=False)
    with pytest.raises(ValueError, match="games must be 0 or more"):
        sim.play(-1, progress=False)


# -- whole games: agreement with Game -------------------------------------------------------------


def drive(seed, variant, deck):
    """Game played by a player who always claims first_set of the table, or says there is none."""
    game = Game(seed=seed, variant=variant, deck=deck, clock=lambda: 0.0)
    taken, sent_back = [], 0
    while not game.over:
        found = first_set(game.table)
        if found is None:
            sent_back += bool(game.no_set().returned)
        else:
            assert game.claim(found).ok
            taken.append(tuple(c.index for c in found))
    left = len(game.table) + len(game.deck)
    return taken, left, game.lost, sent_back


@pytest.mark.parametrize("deck", ["full", "mini"])
@pytest.mark.parametrize("variant", ["standard", "solitaire", "online", "competition"])
def test_the_engine_takes_the_same_sets_in_the_same_order_as_game(variant, deck):
    games, seed = 40, 1000
    tally = sim.play(
        games, variant=variant, deck=deck, seed=seed, like_game=True, keep_sets=True, progress=False
    )
    lefts, lost, sent_back = [], 0, 0
    for i in range(games):
        taken, left, was_lost, back = drive(seed + i, variant, deck)
        assert tally.taken[i] == taken, f"game {i} (Game seed {seed + i}) took other SETs"
        lefts.append(left)
        lost += was_lost
        sent_back += back
    assert sorted(tally.left.elements()) == sorted(lefts)
    assert tally.lost == lost
    assert sum(n * g for n, g in tally.sets.items()) == sum(len(t) for t in tally.taken)
    if variant == "competition" and deck == "full":
        # The rare move of this variant is met here: six cards went back into the deck.
        assert sent_back > 0


# -- the variants' numbers, read from their classes ------------------------------------------------


@pytest.mark.parametrize("deck_size", [81, 27, 12])
@pytest.mark.parametrize("name", v.VARIANTS)
def test_the_engine_plays_each_variant_by_the_numbers_of_its_class(name, deck_size):
    rules, numbers = v.rules_of(name), sim.variant_numbers(name, deck_size)
    size = rules.usual_table_size(deck_size)
    assert numbers.table_size == size == (12 if deck_size > 27 else 9)
    assert numbers.more == rules.more
    assert (numbers.send_back, numbers.deal_back) == (rules.send_back, rules.deal_back)
    assert numbers.lost_on_full_table is rules.lost_on_full_table
    assert numbers.width == min(deck_size, rules.most_on_table(size))
    if rules.most_extra is None or rules.deal_until_set:
        assert numbers.limit == kernels.NEVER > numbers.width
    else:
        assert numbers.limit == size + rules.most_extra <= numbers.width


def test_the_variants_numbers_are_the_rules_the_engine_used_to_name():
    """What each variant's class says, in the numbers the compiled loop plays by."""
    standard, solitaire, online, competition = (sim.variant_numbers(name) for name in v.VARIANTS)
    assert (standard.table_size, standard.more, standard.limit, standard.width) == (12, 3, kernels.NEVER, 21)
    assert (solitaire.more, solitaire.width, solitaire.lost_on_full_table) == (0, 12, True)
    assert online == standard
    assert (competition.limit, competition.width) == (15, 15)
    assert (competition.send_back, competition.deal_back) == (6, 3)


# Variants that change the numbers of the standard game: each is played by Game and by the engine.
OTHER_NUMBERS = {
    "generous": ("When nobody finds a SET, six more cards.", {"more": 6}),
    "strict": (
        "No SET among 15 sends nine back into the deck, and six are dealt.",
        {"most_extra": 3, "send_back": 9, "deal_back": 6},
    ),
    "roomy": (
        "Fifteen cards on the table (six for a small deck).",
        {"table_size": 15, "small_table_size": 6},
    ),
}


@pytest.mark.parametrize("deck", ["full", "mini"])
@pytest.mark.parametrize("name", OTHER_NUMBERS)
def test_a_variant_with_other_numbers_is_played_alike_by_the_engine_and_game(registry, name, deck):
    doc, numbers = OTHER_NUMBERS[name]
    type(name.title(), (v.Variant,), {"__doc__": doc, "name": name, **numbers})
    games, seed = 30, 500
    tally = sim.play(
        games, variant=name, deck=deck, seed=seed, like_game=True, keep_sets=True, progress=False
    )
    lefts, sent_back = [], 0
    for i in range(games):
        taken, left, _, back = drive(seed + i, name, deck)
        assert tally.taken[i] == taken, f"game {i} (Game seed {seed + i}) took other SETs"
        lefts.append(left)
        sent_back += back
    assert sorted(tally.left.elements()) == sorted(lefts)
    if name == "strict" and deck == "full":
        assert sent_back > 0  # the changed rule was met
    if name == "roomy":
        assert min(tally.tables) == (15 if deck == "full" else 6)
    if name == "generous" and deck == "full":
        assert 18 in tally.tables  # six more at once: 12, then 18


def test_a_variant_with_a_rule_in_code_is_refused_by_the_engine(registry):
    class Chatty(v.Variant):
        """Standard, with a word for every deal."""

        name = "chatty"

        def after_deal(self, dealer):
            dealer.record("said", words="dealt")

    assert Chatty().rules_in_code() == ["after_deal"]
    with pytest.raises(ValueError, match="'chatty' plays its own after_deal in code, which only Game plays"):
        sim.play(3, variant="chatty", progress=False)


def test_the_engine_names_no_variant():
    """The engine reads every variant's rules from its class: its code names none but the default."""
    named = {path.name: variants_named_in(path) for path in sorted(Path(sim.__file__).parent.glob("*.py"))}
    # Only the default of play(variant="standard").
    assert named == {"__init__.py": ["standard"], "kernels.py": [], "tally.py": [], "vectorised.py": []}


@pytest.mark.parametrize("seed", [1008, 1015, 3098, 3292])
def test_competition_sends_cards_back_exactly_as_game_does(seed):
    # Games (by Game's seed) that reach 15 cards without a SET, so six go back into the deck.
    taken, _, _, sent_back = drive(seed, "competition", "full")
    assert sent_back > 0
    tally = sim.play(1, variant="competition", seed=seed, like_game=True, keep_sets=True, progress=False)
    assert tally.taken[0] == taken


def test_the_random_policy_takes_real_sets_and_plays_the_deck_out():
    tally = sim.play(300, policy="random", seed=8, keep_sets=True, progress=False)
    for taken in tally.taken:
        assert all(find_sets(cards_of(t)) for t in taken)
        cards = [c for t in taken for c in t]
        assert len(cards) == len(set(cards))
    assert tally.games == 300
    assert sum(tally.left.values()) == 300
    # Every card not taken is left at the end.
    assert sorted(tally.left.elements()) == sorted(81 - 3 * len(t) for t in tally.taken)


def test_the_random_policy_picks_each_set_of_a_table_about_equally_often():
    # A deck of just the 12 cards of one table: the first SET taken is one of that table's SETs,
    # whatever order the cards come in, and each should come up about equally often.
    tables = sim.deal_tables(200, 12, seed=9)
    table = next(row for row, n in zip(tables.tolist(), sim.count_sets_many(tables).tolist()) if n == 4)
    sets = {tuple(sorted(c.index for c in t)) for t in find_sets(cards_of(table))}
    tally = sim.play(4000, deck=cards_of(table), policy="random", seed=1, keep_sets=True, progress=False)
    firsts = [tuple(sorted(taken[0])) for taken in tally.taken]
    counts = [firsts.count(t) for t in sets]
    assert set(firsts) == sets
    # Chi-square with 3 degrees of freedom: above 16.3 once in a thousand runs.
    assert sum((n - 1000) ** 2 / 1000 for n in counts) < 16.3
    # The first policy, on the same deals, does not spread its choice so evenly.
    first = sim.play(4000, deck=cards_of(table), policy="first", seed=1, keep_sets=True, progress=False)
    assert [t[0] for t in first.taken] != [t[0] for t in tally.taken]


@pytest.mark.parametrize("policy", ["first", "random"])
def test_a_run_repeats_with_its_seed_and_says_it(policy):
    one = sim.play(300, seed=11, policy=policy, keep_sets=True, progress=False)
    two = sim.play(300, seed=11, policy=policy, keep_sets=True, progress=False)
    assert (one.tables, one.no_set, one.left, one.sets) == (two.tables, two.no_set, two.left, two.sets)
    assert one.taken == two.taken
    assert one.seed == 11
    fresh = sim.play(10, progress=False)
    assert isinstance(fresh.seed, int)
    again = sim.play(10, seed=fresh.seed, progress=False)
    assert (again.tables, again.sets) == (fresh.tables, fresh.sets)


# -- the tally ------------------------------------------------------------------------------------


def test_rates_match_the_published_figures():
    """Known values (Norvig, 'The Odds of Finding a Set'): in play, about 6% of 12-card and 1.1% of
    15-card tables hold no SET when the first SET found is taken.

    Those figures come from simulations that lay out the table a little differently from Game
    (Norvig's appends new cards at the end; Game puts them in the gaps), and the first SET found
    depends on the layout: his layout gives 6.2% here, Game's 6.3%. So the 12-card rate is held to
    6.0% within its 99.9% interval plus half a point; the 15-card rate to 1.1% within its interval.
    """
    tally = sim.play(6000, seed=2024, progress=False)
    z = 3.29  # 99.9%
    for size, known, slack in [(12, 0.060, 0.005), (15, 0.011, 0.0)]:
        rate, _, _ = tally.rate(size)
        low, high = sim.wilson(tally.no_set[size], tally.tables[size], z=z)
        assert low - slack <= known <= high + slack, (size, rate, low, high)
    # A fresh deal of 12 cards is kinder: odds of 30:1 against no SET, about 3.2% (same source).
    dealt = sim.has_set_many(sim.deal_tables(60000, 12, seed=3))
    assert 0.029 < 1 - dealt.mean() < 0.036


def test_the_tally_reads_plainly_and_plots():
    tally = sim.play(400, seed=1, progress=False)
    text = repr(tally)
    assert text.startswith("Tally: 400 games of standard SET (full deck, first SET taken, seed 1)")
    assert "SETs per game" in text and "cards left at the end" in text
    assert "95% interval" in text and "\n     12" in text
    rate, low, high = tally.rate(12)
    assert low < rate < high
    assert math.isnan(tally.rate(99)[0])
    assert 20 < tally.mean_sets < 27
    import matplotlib

    matplotlib.use("Agg")
    ax = tally.plot()
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(s) for s in sorted(tally.tables)]
    assert "without a SET" in ax.get_ylabel()


def test_wilson_intervals_hold_the_rate_and_narrow_with_more_trials():
    assert sim.wilson(0, 0) == (0.0, 1.0)
    low, high = sim.wilson(0, 50)
    assert low == 0.0 and 0 < high < 0.08
    wide, narrow = sim.wilson(6, 100), sim.wilson(600, 10000)
    assert wide[0] < narrow[0] < 0.06 < narrow[1] < wide[1]


def test_an_interrupted_run_keeps_the_games_finished_and_says_so(monkeypatch):
    calls = []
    real = sim._play_batch

    def play_batch(*args):
        calls.append(1)
        if len(calls) > 2:
            raise KeyboardInterrupt  # as Ctrl-C is heard when a batch ends
        return real(*args)

    monkeypatch.setattr(sim, "_BATCH", 100)
    monkeypatch.setattr(sim, "_play_batch", play_batch)
    tally = sim.play(1000, seed=3, progress=False)
    assert tally.interrupted
    assert tally.games == 200  # two whole batches; the third was stopped and is not counted
    assert "interrupted" in repr(tally)


def test_the_progress_bar_counts_the_games(capsys):
    sim.play(50, seed=1, progress=True)
    assert "50/50" in capsys.readouterr().err


def test_solitaire_is_lost_on_a_full_table_without_a_set():
    tally = sim.play(400, variant="solitaire", seed=6, progress=False)
    # Every game either plays the deck out or stops at the first table without a SET.
    assert 0 < tally.lost < 400
    assert set(tally.tables) == {12}
    assert tally.no_set[12] <= tally.lost


# -- the tally, number by number -----------------------------------------------------------------

Z = 1.959963984540054


@pytest.mark.parametrize(("hits", "trials"), [(1, 2), (3, 7), (60, 1000), (999, 1000), (1, 1000)])
def test_a_wilson_interval_ends_where_the_rate_is_z_standard_errors_away(hits, trials):
    """Each end p of the interval solves (hits / trials - p)^2 = z^2 p (1 - p) / trials."""
    observed = hits / trials
    low, high = sim.wilson(hits, trials)
    assert 0 < low < observed < high < 1
    for end in (low, high):
        assert (observed - end) ** 2 == pytest.approx(Z * Z * end * (1 - end) / trials, rel=1e-9)


def test_a_wilson_interval_at_none_or_all_ends_at_0_or_1():
    assert sim.wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match=r"^trials must be at least 0; got -1$"):
        sim.wilson(0, -1)
    assert sim.wilson(0, 1) == (0.0, pytest.approx(Z * Z / (1 + Z * Z)))
    assert sim.wilson(1, 1) == (pytest.approx(1 / (1 + Z * Z)), 1.0)
    assert sim.wilson(0, 10) == (0.0, pytest.approx(Z * Z / (10 + Z * Z)))
    assert sim.wilson(10, 10) == (pytest.approx(10 / (10 + Z * Z)), 1.0)


def test_a_size_seen_without_a_table_lacking_a_set_has_rate_zero():
    tally = sim.Tally("standard", "full", "first", seed=1, games=1)
    tally.tables[12] = 10
    assert tally.rate(12) == (0.0, 0.0, sim.wilson(0, 10)[1])
    assert tally.rates() == {12: tally.rate(12)}


def test_the_tally_says_each_line_plainly():
    tally = sim.Tally("solitaire", "full", "first", seed=1, games=20200, lost=101, interrupted=True)
    tally.left.update({0: 19797, 3: 202, 6: 201})
    tally.sets.update({27: 20200})
    tally.tables[12], tally.no_set[12] = 1000, 60
    assert repr(tally).splitlines() == [
        "Tally: 20200 games of solitaire SET (full deck, first SET taken, seed 1), "
        "interrupted: only the games finished before the stop are counted",
        "  SETs per game: 27.00 on average",
        "  cards left at the end: 0 (98%), 3 (1%), 6 (201 games)",
        "  lost: 101 (0.5%)",
        "  tables looked at while cards were left in the deck:",
        "  cards  tables seen  without a SET  rate    95% interval",
        "     12         1000             60   6.00%  4.69% to 7.65%",
    ]
    tally.variant = "standard"
    assert "lost" not in repr(tally), "only a variant that can be lost says how often"
    tally.variant = "a variant of the class's own"
    assert "lost" not in repr(tally)


def test_the_plot_shows_each_rate_with_its_interval(monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_rgba
    from matplotlib.container import BarContainer

    tally = sim.Tally("standard", "full", "first", seed=1, games=5)
    tally.tables.update({12: 1000, 15: 100})
    tally.no_set.update({12: 60, 15: 2})
    ax = tally.plot()
    assert tuple(ax.figure.get_size_inches()) == (6, 3.5)
    assert ax.get_xlabel() == "cards on the table"
    assert ax.get_ylabel() == "tables without a SET (%)"
    assert ax.get_title() == "standard SET, 5 games, first SET taken"
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [bar.get_height() for bar in bars] == pytest.approx([6.0, 2.0])
    assert all(bar.get_facecolor() == to_rgba("#6a8caf") for bar in bars)
    caps = bars.errorbar.lines[1]
    assert caps and all(cap.get_markersize() == 8 for cap in caps), "caps 4 points wide each side"
    ends = [sorted(y for _, y in segment) for segment in bars.errorbar.lines[2][0].get_segments()]
    for (low, high), size in zip(ends, (12, 15)):
        _, wilson_low, wilson_high = tally.rate(size)
        assert (low, high) == pytest.approx((100 * wilson_low, 100 * wilson_high))
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(
        ModuleNotFoundError, match=r"^Tally.plot needs matplotlib.pyplot, .*setwidgets\[sim\]"
    ):
        tally.plot()


# -- arguments and defaults of the engine --------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: sim.deal_tables(1.5, 12), TypeError, "n must be a whole number like 1000; got 1.5"),
        (lambda: sim.deal_tables(-1, 12), ValueError, "n must be 0 or more tables; got -1"),
        (lambda: sim.deal_tables(3, 1.5), TypeError, "size must be a whole number like 12; got 1.5"),
        (lambda: sim.count_sets_many("abc"), TypeError, "one table a row; got 'abc' (a string)"),
        (lambda: sim.has_set_many([[0, 1, 90]]), ValueError, "card indices are 0 to 80; got 90 in table 0"),
        (lambda: sim.count_sets_many([[80, 80, 1]]), ValueError, "holds the card 80 twice: [80, 80, 1]"),
        (lambda: sim.play(1.5), TypeError, "games must be a whole number like 10000; got 1.5"),
        (lambda: sim.play(1, variant="chess"), ValueError, "variant must be one of 'standard', 'solitaire'"),
        (lambda: sim.play(1, variant="chess"), ValueError, "; got 'chess'"),
        (lambda: sim.play(1, variant=5), TypeError, "variant must be one of"),
        (lambda: sim.play(1, policy="last"), ValueError, "must be one of 'first' or 'random'; got 'last'"),
        (lambda: sim.play(1, policy=5), TypeError, "policy must be one of 'first' or 'random'; got 5"),
        (
            lambda: sim.play(1, seed=1.5, like_game=True),
            TypeError,
            "like_game=True needs a whole-number seed, as Game takes; got 1.5 (a number)",
        ),
    ],
)
def test_a_wrong_argument_is_named_with_what_it_should_be(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert message in str(raised.value)


def test_a_variant_with_rules_in_code_says_them_all_and_what_sim_plays_instead(registry):
    class Busy(v.Variant):
        """Standard, with a word for every deal and its own refill."""

        name = "busy"

        def refill(self, on_table, table_size):
            return super().refill(on_table, table_size)

        def after_deal(self, dealer):
            dealer.record("said", words="dealt")

    with pytest.raises(ValueError) as raised:
        sim.play(3, variant="busy", progress=False)
    assert str(raised.value) == (
        "the variant 'busy' plays its own refill, after_deal in code, which only Game plays; "
        "sim plays the variants whose rules are all in their numbers"
    )


def test_nothing_at_all_and_whole_decks_can_be_asked_for():
    assert sim.deal_tables(0, 12).shape == (0, 12)
    assert sorted(sim.deal_tables(1, 81, seed=2)[0].tolist()) == list(range(81))
    assert sim.play(0, progress=False).games == 0
    assert sim.count_sets_many([0, 1, 2]).tolist() == [1], "one table as a flat list"
    assert sim.has_set_many([[0, 1, 2], [0, 1, 3]]).dtype == np.bool_


def test_more_tables_than_one_draw_of_random_numbers_are_all_dealt():
    tables = sim.deal_tables(kernels.DEAL_BATCH + 5, 3, seed=4)
    assert tables.shape == (kernels.DEAL_BATCH + 5, 3)
    assert all(len(set(t)) == 3 for t in tables[-5:].tolist())


def test_play_by_default_shows_a_bar_keeps_no_sets_and_deals_its_own_way(capsys):
    tally = sim.play(3, seed=1)
    bar = capsys.readouterr().err
    assert "playing: 100%" in bar and "game/s" in bar
    assert tally.taken is None
    assert (tally.variant, tally.deck, tally.policy) == ("standard", "full", "first")
    mine = sim.play(20, seed=1, progress=False, keep_sets=True).taken
    assert mine != sim.play(20, seed=1, progress=False, keep_sets=True, like_game=True).taken


def test_like_game_without_a_seed_picks_one_and_keeps_it():
    tally = sim.play(2, like_game=True, progress=False)
    assert isinstance(tally.seed, int) and 0 <= tally.seed < 2**32


def test_a_run_in_batches_plays_each_game_as_alone_and_counts_them_all(monkeypatch):
    monkeypatch.setattr(sim, "_BATCH", 4)
    tally = sim.play(10, variant="solitaire", seed=3, like_game=True, keep_sets=True, progress=False)
    alone = [
        sim.play(1, variant="solitaire", seed=3 + i, like_game=True, keep_sets=True, progress=False)
        for i in range(10)
    ]
    assert tally.games == 10 and tally.taken == [one.taken[0] for one in alone]
    assert tally.lost == sum(one.lost for one in alone) > 0


def test_a_competition_run_sends_cards_back_the_same_way_each_time_with_its_seed():
    first, again = (sim.play(300, variant="competition", seed=1, progress=False) for _ in range(2))
    assert first.no_set[15] > 0, "some tables of 15 had no SET: cards were sent back"
    assert (first.sets, first.left, first.tables) == (again.sets, again.left, again.tables)


def test_a_deck_without_a_set_is_played_to_its_first_table():
    cap = [card for card in DECK if max(card.vector) < 2][:12]  # values 0 and 1 only: no SET
    tally = sim.play(5, deck=cap, seed=1, progress=False)
    assert tally.left == {12: 5} and tally.sets == {0: 5}


def test_the_tally_times_the_run():
    before = time.perf_counter()
    tally = sim.play(5, seed=1, progress=False)
    assert 0 < tally.seconds <= time.perf_counter() - before


def test_what_a_wrong_table_or_seed_says_in_full():
    with pytest.raises(TypeError) as raised:
        sim.count_sets_many([[0.5, 1.0]])
    assert str(raised.value) == (
        "tables must be a 2-d array of card indices 0 to 80, one table a row, like "
        "deal_tables(1000, 12); got [[0.5, 1.0]] (a list) of shape (1, 2)"
    )
    with pytest.raises(ValueError, match=r"^seed must be a whole number 0 or more; got -1$"):
        sim.play(1, seed=-1, progress=False)
    with pytest.raises(TypeError, match=r"a numpy Generator or None; got 'x' \(a string\)$"):
        sim.play(1, seed="x", progress=False)


def test_no_tables_of_any_type_hold_no_sets():
    assert sim.count_sets_many(np.empty((0, 12))).tolist() == []
    assert sim.has_set_many(np.empty((0, 12))).tolist() == []


def test_a_fresh_seed_is_32_bits_and_kept():
    seeds = {sim.play(0, progress=False).seed for _ in range(20)}
    assert all(isinstance(s, int) and 0 <= s < 2**32 for s in seeds) and len(seeds) > 1


def test_twenty_cards_without_a_set_are_played_to_the_end_not_assumed_to_hold_one():
    """21 cards of the full deck always hold a SET, 20 need not: such a table is looked at."""
    cap = (
        "1RSO 1RTO 1RSS 1ROS 1GSO 1GTO 1GSS 1GOS 2RSO 2ROS 2RSD 2ROD 2GTD 2PTD 3ROD 3GTO 3GSS 3GSD 3GTD 3POD"
    )
    deck = [Card.parse(code) for code in cap.split()]
    assert not has_set(deck)
    tally = sim.play(3, deck=deck, seed=1, progress=False)
    assert tally.left == {20: 3} and tally.sets == {0: 3}


# -- odd input, answered in our words (issue 25) --------------------------------------------------


@pytest.mark.parametrize(
    "n, size, needed", [(10**8, 12, "9.6 GB"), (10**9, 12, "96 GB"), (10**12, 3, "24 TB"), (10**9, 0, "8 GB")]
)
def test_a_deal_too_large_for_memory_is_refused_up_front_with_the_limit(n, size, needed):
    with pytest.raises(ValueError) as raised:
        sim.deal_tables(n, size, seed=1)
    assert str(raised.value) == (
        f"deal_tables({n}, {size}) would need {needed} of memory, and a call may use at most 1 GB: "
        "ask for fewer at a time and add up the results"
    )


def test_keeping_the_sets_of_too_many_games_is_refused_up_front():
    with pytest.raises(ValueError, match=r"^play\(10000000, keep_sets=True\) would need 27 GB of memory"):
        sim.play(10**7, keep_sets=True, progress=False)
    with pytest.raises(ValueError, match=r"^games must be at most 10,000,000,000, more than a day of play"):
        sim.play(10**30, progress=False)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: sim.deal_tables(2.0, 12),
            TypeError,
            r"^n must be a whole number like 1000; got 2.0 .*write 2",
        ),
        (lambda: sim.deal_tables("10", 12), TypeError, r"^n must be a whole number like 1000; got '10'"),
        (lambda: sim.deal_tables(-1, 12), ValueError, r"^n must be 0 or more tables; got -1$"),
        (lambda: sim.deal_tables(1, 12, seed=1.5), TypeError, r"^seed must be a whole number, a numpy"),
        (lambda: sim.deal_tables(1, 12, deck=b"full"), TypeError, r"^deck must be 'full', 'mini' or a list"),
        (lambda: sim.deal_tables(1, 3, deck=[1, 2, 3]), TypeError, r"^each card is a Card or a code"),
        (lambda: sim.play(1.5), TypeError, r"^games must be a whole number like 10000; got 1.5"),
        (lambda: sim.play(True), TypeError, r"^games must be a whole number like 10000; got True"),
        (lambda: sim.play(3, variant=3), TypeError, r"^variant must be one of 'standard', .*; got 3 \("),
        (
            lambda: sim.play(3, variant="speed\x00"),
            ValueError,
            r"^variant must be one of .*; got 'speed\\x00'$",
        ),
        (lambda: sim.play(3, policy=None), TypeError, r"^policy must be one of 'first' or 'random'; got No"),
        (lambda: sim.play(3, progress="no"), TypeError, r"^progress must be True or False; got 'no'"),
        (lambda: sim.play(3, like_game=1), TypeError, r"^like_game must be True or False; got 1"),
        (lambda: sim.play(3, keep_sets=None), TypeError, r"^keep_sets must be True or False; got None"),
        (
            lambda: sim.play(3, seed=2**70 * -1),
            ValueError,
            r"^seed must be a whole number 0 or more; got -1180",
        ),
        (lambda: sim.play(3, deck="tiny"), ValueError, r"^unknown deck 'tiny'"),
        (lambda: sim.variant_numbers(3), TypeError, r"^variant must be one of"),
        (
            lambda: sim.variant_numbers("standard", 2),
            ValueError,
            r"^deck_size must be from 3 to 81 cards; got 2$",
        ),
        (lambda: sim.variant_numbers("standard", "81"), TypeError, r"^deck_size must be a whole number"),
        (lambda: sim.count_sets_many([[0, 1], [2]]), TypeError, r"whose rows are not all alike$"),
        (lambda: sim.has_set_many([[0, 1, 2**64]]), TypeError, r"^tables must be a 2-d array"),
        (
            lambda: sim.count_sets_many(np.array([[2**64 - 1, 0, 1]], dtype=np.uint64)),
            ValueError,
            r"^card indices are 0 to 80; got 18446744073709551615 in table 0$",
        ),
        (lambda: sim.wilson(5, 3), ValueError, r"^hits must be at most the trials, 3; got 5$"),
        (lambda: sim.wilson(0.5, 3), TypeError, r"^hits must be a whole number"),
        (lambda: sim.wilson(1, 3, math.nan), ValueError, r"^z must be above 0 and at most 10"),
        (lambda: sim.wilson(1, 3, "1.96"), TypeError, r"^z must be a number like 1.96"),
        (
            lambda: sim.Tally("standard", "full", "first", 1).rate("12"),
            TypeError,
            r"^size must be a whole number",
        ),
        (lambda: sim.Tally("standard", "full", "first", 1.5), TypeError, r"^a tally's seed must be a whole"),
        (
            lambda: sim.Tally("standard", "full", "first", 1, games=-1),
            ValueError,
            r"^a tally's games must be at",
        ),
        (lambda: sim.Tally("standard", "full", "first", 1, tables=[12]), TypeError, r"^a tally's tables are"),
        (lambda: sim.Tally(None, "full", "first", 1), TypeError, r"^a tally's variant is a name"),
        (
            lambda: sim.VariantNumbers(12, 3, 15, 6, 3, 15, "no"),
            TypeError,
            r"^lost_on_full_table must be True",
        ),
        (lambda: sim.VariantNumbers(12, 3, 256, 6, 3, 15, False), ValueError, r"^limit must be at most 255"),
    ],
)
def test_wrong_arguments_are_refused_in_our_words(call, error, message):
    outcome = fuzzing.classify(call)
    assert outcome.kind == "refused", outcome.error
    assert isinstance(outcome.error, error) and re.search(message, str(outcome.error)), str(outcome.error)


def test_a_tallys_plot_refuses_what_is_not_axes():
    pytest.importorskip("matplotlib")
    with pytest.raises(TypeError, match=r"^ax must be a matplotlib axes to draw on, or None"):
        sim.Tally("standard", "full", "first", 1).plot(ax=5)


def test_a_long_table_holding_a_card_twice_is_quoted_in_short():
    table = [*range(81), *range(3, 12)]
    shown = r"^table 0 holds the card 3 twice: \[0, 1, 2, 3, \.\.\.\] \(90 items\)$"
    with pytest.raises(ValueError, match=shown):
        sim.has_set_many([table])
