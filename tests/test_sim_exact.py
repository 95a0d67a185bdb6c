"""Exact behaviour of the simulation, its tally and the search for caps: words, bounds and values."""

import math
import random
import re
import types

import numpy as np
import pytest
from test_sim import drive

from setwidgets import Card, Game, caps, sim
from setwidgets.caps import _bits, _Deck, _Search
from setwidgets.cards import full_deck
from setwidgets.game import variants as v
from setwidgets.rules import find_sets
from setwidgets.sim.tally import Tally, wilson

Z = 1.959963984540054


def wilson_by_hand(hits, trials, z=Z):
    """The Wilson interval as textbooks write it: (2np + z^2 -+ z sqrt(z^2 + 4np(1 - p))) / 2(n + z^2)."""
    n, p = trials, hits / trials
    root = z * math.sqrt(z * z + 4 * n * p * (1 - p))
    return (2 * n * p + z * z - root) / (2 * (n + z * z)), (2 * n * p + z * z + root) / (2 * (n + z * z))


def message(raised):
    return str(raised.value)


# -- wilson --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hits", "trials", "z"), [(1, 2, Z), (3, 7, Z), (60, 1000, Z), (999, 1000, Z), (5, 20, 0.5), (5, 20, 10)]
)
def test_a_wilson_interval_is_the_textbook_formula(hits, trials, z):
    low, high = wilson(hits, trials, z)
    assert (low, high) == pytest.approx(wilson_by_hand(hits, trials, z), rel=1e-12)


def test_a_wilson_interval_never_ends_above_1_even_when_rounding_would_put_it_there():
    """With z = 10 and all trials but one hits, the formula rounds to just above 1: the end is 1."""
    hits, trials = 10**15 - 1, 10**15
    assert wilson_by_hand(hits, trials, 10)[1] >= 1.0
    assert wilson(hits, trials, 10)[1] == 1.0


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: wilson(-1, 10), ValueError, "hits must be at least 0; got -1"),
        (lambda: wilson("x", 10), TypeError, "hits must be a whole number like 60; got 'x' (a string)"),
        (lambda: wilson(1, "x"), TypeError, "trials must be a whole number like 1000; got 'x' (a string)"),
        (lambda: wilson(1, -1), ValueError, "trials must be at least 0; got -1"),
        (lambda: wilson(11, 10), ValueError, "hits must be at most the trials, 10; got 11"),
        (lambda: wilson(1, 10, "x"), TypeError, "z must be a number like 1.96 (for 95%); got 'x' (a string)"),
        (
            lambda: wilson(1, 10, True),
            TypeError,
            "z must be a number like 1.96 (for 95%); got True (True or False)",
        ),
        (
            lambda: wilson(1, 10, 0),
            ValueError,
            "z must be above 0 and at most 10, like 1.96 (for 95%); got 0",
        ),
        (
            lambda: wilson(1, 10, -1.5),
            ValueError,
            "z must be above 0 and at most 10, like 1.96 (for 95%); got -1.5",
        ),
        (
            lambda: wilson(1, 10, 10.001),
            ValueError,
            "z must be above 0 and at most 10, like 1.96 (for 95%); got 10.001",
        ),
    ],
)
def test_wilson_refuses_bad_counts_and_z_in_full(call, error, words):
    with pytest.raises(error) as raised:
        call()
    assert message(raised) == words


def test_wilson_takes_zero_hits_and_z_just_above_0_and_at_10():
    assert wilson(0, 10) == (0.0, pytest.approx(Z * Z / (10 + Z * Z)))
    assert wilson(5, 20, 0.5) == pytest.approx(wilson_by_hand(5, 20, 0.5))
    assert wilson(5, 20, 10) == pytest.approx(wilson_by_hand(5, 20, 10))
    assert wilson(5, 20, 1e-9) == pytest.approx((0.25, 0.25))


# -- the tally -----------------------------------------------------------------------------------


def test_a_tally_made_by_hand_keeps_plain_ints_in_its_counts():
    tally = Tally(
        "standard",
        "full",
        "first",
        seed=np.int64(3),
        games=np.int64(7),
        lost=np.int64(2),
        tables={np.int64(12): np.int64(100)},
        no_set={12: 6},
    )
    assert (tally.seed, tally.games, tally.lost) == (3, 7, 2)
    assert [type(x) for x in (tally.seed, tally.games, tally.lost)] == [int, int, int]
    assert tally.tables == {12: 100} and isinstance(tally.tables, type(tally.no_set))
    ((size, count),) = tally.tables.items()
    assert (type(size), type(count)) == (int, int)
    rate, low, high = tally.rate(np.int64(12))
    assert rate == 0.06 and (low, high) == pytest.approx(wilson_by_hand(6, 100), rel=1e-12)


@pytest.mark.parametrize(
    ("fields", "error", "words"),
    [
        ({"variant": 3}, TypeError, "a tally's variant is a name, a string; got 3 (a number)"),
        ({"policy": None}, TypeError, "a tally's policy is a name, a string; got None (nothing)"),
        ({"seed": "x"}, TypeError, "a tally's seed must be a whole number like 1; got 'x' (a string)"),
        ({"games": "x"}, TypeError, "a tally's games must be a whole number like 1000; got 'x' (a string)"),
        ({"games": -1}, ValueError, "a tally's games must be at least 0; got -1"),
        ({"lost": "x"}, TypeError, "a tally's lost games must be a whole number like 3; got 'x' (a string)"),
        ({"lost": -1}, ValueError, "a tally's lost games must be at least 0; got -1"),
        (
            {"tables": [1]},
            TypeError,
            "a tally's tables are counts by size, a dict like {12: 1000}; got [1] (a list)",
        ),
        (
            {"left": {"x": 1}},
            TypeError,
            "each size in a tally's left must be a whole number like 12; got 'x' (a string)",
        ),
        (
            {"sets": {3: "x"}},
            TypeError,
            "each count in a tally's sets must be a whole number like 1000; got 'x' (a string)",
        ),
        ({"no_set": {12: -1}}, ValueError, "each count in a tally's no_set must be at least 0; got -1"),
        ({"seconds": -1}, ValueError, "a tally's seconds are 0 or more; got -1"),
        ({"seconds": math.inf}, ValueError, "a tally's seconds are 0 or more; got inf"),
        ({"seconds": "x"}, TypeError, "a tally's seconds are a number; got 'x' (a string)"),
        ({"seconds": True}, TypeError, "a tally's seconds are a number; got True (True or False)"),
        ({"interrupted": 1}, TypeError, "a tally's interrupted must be True or False; got 1 (a number)"),
        ({"taken": ()}, TypeError, "a tally's taken is a list of games' SETs, or None; got () (a tuple)"),
    ],
)
def test_a_tally_made_by_hand_refuses_wrong_fields_in_full(fields, error, words):
    given = {"variant": "standard", "deck": "full", "policy": "first", "seed": 1} | fields
    with pytest.raises(error) as raised:
        Tally(**given)
    assert message(raised) == words


def test_a_tally_takes_no_lost_games_and_a_size_of_any_whole_number():
    tally = Tally("standard", "full", "first", seed=None, lost=0, tables={0: 0}, left={-1: 0})
    assert (tally.lost, tally.seed, tally.tables, tally.left) == (0, None, {0: 0}, {-1: 0})


def test_a_tallys_rate_refuses_a_size_that_is_not_a_whole_number():
    tally = Tally("standard", "full", "first", seed=1)
    with pytest.raises(TypeError) as raised:
        tally.rate("x")
    assert message(raised) == "size must be a whole number like 12; got 'x' (a string)"
    assert tally.rate(12)[1:] == (0.0, 1.0) and math.isnan(tally.rate(12)[0])


def test_a_tallys_plot_says_what_it_got_instead_of_axes():
    pytest.importorskip("matplotlib")
    with pytest.raises(TypeError) as raised:
        Tally("standard", "full", "first", seed=1).plot(ax="x")
    assert message(raised) == (
        "ax must be a matplotlib axes to draw on, or None for a new figure; got 'x' (a string)"
    )


# -- sizes and the variants' numbers -------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "words"),
    [
        (0, "0 bytes"),
        (999_999, "999,999 bytes"),
        (10**6, "1 MB"),
        (1_500_000, "1.5 MB"),
        (240 * 10**6, "240 MB"),
        (999 * 10**6, "999 MB"),
        (10**9, "1 GB"),
        (9_600_000_000, "9.6 GB"),
        (96 * 10**9, "96 GB"),
        (24 * 10**12, "24 TB"),
        (1234 * 10**12, "1,234 TB"),
    ],
)
def test_a_size_in_bytes_is_said_as_people_say_it(size, words):
    assert sim._size_in_words(size) == words


@pytest.mark.parametrize("name", v.VARIANTS)
@pytest.mark.parametrize("deck_size", [3, 4, 12, 27, 80, 81])
def test_the_variants_numbers_are_their_class_definitions_for_any_deck_from_3_to_81(name, deck_size):
    rules, numbers = v.rules_of(name), sim.variant_numbers(name, deck_size)
    size = rules.usual_table_size(deck_size)
    limited = rules.most_extra is not None and not rules.deal_until_set
    assert numbers == sim.VariantNumbers(
        table_size=size,
        more=rules.more,
        limit=size + rules.most_extra if limited else 255,
        send_back=rules.send_back,
        deal_back=rules.deal_back,
        width=min(deck_size, rules.most_on_table(size)),
        lost_on_full_table=rules.lost_on_full_table,
    )


@pytest.mark.parametrize(
    ("deck_size", "error", "words"),
    [
        (2, ValueError, "deck_size must be from 3 to 81 cards; got 2"),
        (82, ValueError, "deck_size must be from 3 to 81 cards; got 82"),
        ("x", TypeError, "deck_size must be a whole number like 81; got 'x' (a string)"),
    ],
)
def test_a_deck_size_outside_3_to_81_is_refused_in_full(deck_size, error, words):
    with pytest.raises(error) as raised:
        sim.variant_numbers("standard", deck_size)
    assert message(raised) == words


NUMBERS = {
    "table_size": 12,
    "more": 3,
    "limit": 255,
    "send_back": 0,
    "deal_back": 0,
    "width": 21,
    "lost_on_full_table": False,
}


@pytest.mark.parametrize(
    ("field", "value", "error", "words"),
    [
        ("table_size", "x", TypeError, "table_size must be a whole number like 12; got 'x' (a string)"),
        ("more", -1, ValueError, "more must be at least 0; got -1"),
        ("limit", 256, ValueError, "limit must be at most 255; got 256"),
        ("width", 2**70, ValueError, "width must be at most 255; got 1180591620717411303424"),
        ("lost_on_full_table", 1, TypeError, "lost_on_full_table must be True or False; got 1 (a number)"),
    ],
)
def test_variant_numbers_outside_a_byte_are_refused_in_full(field, value, error, words):
    with pytest.raises(error) as raised:
        sim.VariantNumbers(**(NUMBERS | {field: value}))
    assert message(raised) == words


def test_variant_numbers_from_0_to_255_are_kept_as_plain_ints_and_bools():
    numbers = sim.VariantNumbers(
        **(NUMBERS | {"more": 0, "limit": np.int64(255), "lost_on_full_table": np.True_})
    )
    assert (numbers.more, numbers.limit, numbers.lost_on_full_table) == (0, 255, True)
    assert type(numbers.limit) is int and numbers.lost_on_full_table is True


# -- tables: what a wrong table says -------------------------------------------------------------


@pytest.mark.parametrize(
    ("tables", "error", "words"),
    [
        ([[0, 1, 2], [0, 1, 99]], ValueError, "card indices are 0 to 80; got 99 in table 1"),
        ([[0, 1, 2], [80, 99, 1]], ValueError, "card indices are 0 to 80; got 99 in table 1"),
        ([[0, 1, 81]], ValueError, "card indices are 0 to 80; got 81 in table 0"),
        ([[5, 6, 7], [0, -1, 2]], ValueError, "card indices are 0 to 80; got -1 in table 1"),
        (
            [[1, 2], [3]],
            TypeError,
            "tables must be a 2-d array of card indices 0 to 80, one table a row, like "
            "deal_tables(1000, 12); got [[1, 2], [3]] (a list), whose rows are not all alike",
        ),
    ],
)
def test_a_wrong_table_is_named_by_its_row_and_its_first_wrong_card(tables, error, words):
    for call in (sim.count_sets_many, sim.has_set_many):
        with pytest.raises(error) as raised:
            call(tables)
        assert message(raised) == words


def test_cards_0_and_80_are_cards():
    assert sim.count_sets_many([[0, 80, 40]]).tolist() == [1]  # 0000 + 2222 + 1111: a SET


def test_a_table_larger_than_the_deck_is_refused_with_the_decks_size():
    for deck, most in (("full", 81), ("mini", 27)):
        with pytest.raises(ValueError) as raised:
            sim.deal_tables(1, most + 1, deck=deck)
        assert message(raised) == f"size must be from 0 to {most}, the cards in the deck; got {most + 1}"
        assert sim.deal_tables(1, most, deck=deck, seed=1).shape == (1, most)


# -- play: refusals, bounds and what a run hands back ---------------------------------------------


def test_play_refuses_a_negative_count_and_more_than_ten_billion_games_in_full():
    with pytest.raises(ValueError) as raised:
        sim.play(-1, progress=False)
    assert message(raised) == "games must be 0 or more; got -1"
    with pytest.raises(ValueError) as raised:
        sim.play(10**10 + 1, progress=False)
    assert message(raised) == "games must be at most 10,000,000,000, more than a day of play; got 10000000001"


def test_play_takes_exactly_ten_billion_games(monkeypatch):
    """Ten billion games are allowed: the run starts (and is stopped here by a Ctrl-C)."""

    def stop(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "_play_batch", stop)
    tally = sim.play(10**10, seed=1, progress=False)
    assert tally.interrupted and tally.games == 0


def test_keeping_the_sets_counts_only_whole_sets_of_the_deck():
    """13 cards hold at most 4 SETs taken: 3,000,000 games need 1.2 GB, not the 1.3 GB of 13/3 SETs."""
    deck = list(full_deck())[:13]
    with pytest.raises(ValueError) as raised:
        sim.play(3_000_000, deck=deck, keep_sets=True, progress=False)
    assert message(raised) == (
        "play(3000000, keep_sets=True) would need 1.2 GB of memory, and a call may use at most 1 GB: "
        "ask for fewer at a time and add up the results"
    )


def test_keeping_the_sets_may_take_exactly_1_gb_and_no_byte_more(monkeypatch):
    """30 cards give at most 10 SETs a game, 1,000 bytes: a million games is exactly the limit."""

    def stop(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "_play_batch", stop)
    deck = list(full_deck())[:30]
    tally = sim.play(10**6, deck=deck, keep_sets=True, seed=1, progress=False)
    assert tally.interrupted and tally.taken == []
    with pytest.raises(ValueError) as raised:
        sim.play(10**6 + 1, deck=deck, keep_sets=True, progress=False)
    assert message(raised) == (
        "play(1000001, keep_sets=True) would need 1 GB of memory, and a call may use at most 1 GB: "
        "ask for fewer at a time and add up the results"
    )


def test_policy_and_variant_names_are_read_in_any_case():
    tally = sim.play(3, variant=" Standard ", deck="FULL", policy=" First", seed=1, progress=False)
    assert (tally.variant, tally.deck, tally.policy) == ("standard", "full", "first")
    plain = sim.play(3, seed=1, progress=False)
    assert (plain.variant, plain.deck, plain.policy) == ("standard", "full", "first")
    assert (plain.tables, plain.sets, plain.left) == (tally.tables, tally.sets, tally.left)


def test_counts_of_sets_are_whole_numbers_of_the_platforms_int():
    counts = sim.count_sets_many([[0, 1, 2, 3], [0, 1, 3, 4]])
    assert counts.dtype == np.intp and counts.tolist() == [1, 0]
    assert [type(n) for n in counts.tolist()] == [int, int]


def test_a_runs_counts_and_sets_taken_are_plain_ints():
    tally = sim.play(5, variant="competition", seed=2, keep_sets=True, progress=False)
    for counter in (tally.tables, tally.no_set, tally.left, tally.sets):
        assert all(type(k) is int and type(n) is int for k, n in counter.items())
    assert all(type(card) is int for game in tally.taken for s in game for card in s)
    assert all(0 <= card <= 80 for game in tally.taken for s in game for card in s)


def test_each_games_own_generator_is_seeded_from_all_32_bit_numbers(monkeypatch):
    seen = []
    real = sim._play_batch

    def record(orders, numbers, picks, shufflers, seeds, keep, sure):
        seen.extend(seeds.tolist())
        return real(orders, numbers, picks, shufflers, seeds, keep, sure)

    monkeypatch.setattr(sim, "_play_batch", record)
    sim.play(300, variant="competition", seed=4, progress=False)
    assert len(seen) == 300 and len(set(seen)) == 300
    assert all(0 <= s < 2**32 for s in seen)
    assert max(seen) >= 2**31, "a seed from all 32-bit numbers lies in their upper half about half the time"


def test_cards_sent_back_fill_no_more_gaps_than_they_left_as_in_game(registry):
    """A variant that sends 3 cards back and deals 6: only the 3 gaps are filled, as Game fills them."""
    doc = "No SET among 15 sends three back into the deck, and six would be dealt."
    type(
        "Lavish",
        (v.Variant,),
        {"__doc__": doc, "name": "lavish", "most_extra": 3, "send_back": 3, "deal_back": 6},
    )
    games, seed = 30, 500
    tally = sim.play(games, variant="lavish", seed=seed, like_game=True, keep_sets=True, progress=False)
    sent_back = 0
    for i in range(games):
        taken, _, _, back = drive(seed + i, "lavish", "full")
        assert tally.taken[i] == taken, f"game {i} (Game seed {seed + i}) took other SETs"
        sent_back += back
    assert sent_back > 0, "the rule was met"


def drive_random(seed, picks, variant, deck):
    """Game played by a player who takes SET number int(pick * count) of find_sets(table), pick by pick."""
    game = Game(seed=seed, variant=variant, deck=deck, clock=lambda: 0.0)
    taken = []
    while not game.over:
        sets = find_sets(game.table)
        if not sets:
            game.no_set()
            continue
        chosen = sets[int(picks[len(taken)] * len(sets))]
        assert game.claim(chosen).ok
        taken.append(tuple(c.index for c in chosen))
    return taken


@pytest.mark.parametrize(
    ("variant", "deck"), [("standard", "full"), ("competition", "full"), ("standard", "mini")]
)
def test_the_random_policy_takes_the_sets_its_seeds_numbers_pick_in_game(variant, deck):
    """Game i of play(seed=s, like_game=True) is Game(seed=s + i); its picks are row i of the
    numbers drawn after the games' own seeds: a row per game, one pick per SET the deck can give."""
    games, seed = 12, 77
    tally = sim.play(
        games,
        variant=variant,
        deck=deck,
        policy="random",
        seed=seed,
        like_game=True,
        keep_sets=True,
        progress=False,
    )
    size = 81 if deck == "full" else 27
    rng = np.random.default_rng(seed)
    rng.integers(2**32, size=games)
    picks = rng.random((games, size // 3 + 1))
    for i in range(games):
        assert tally.taken[i] == drive_random(seed + i, picks[i].tolist(), variant, deck), f"game {i}"


# -- caps: durations and the search ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0.2, "1 second"),
        (1.4, "1 second"),
        (40, "40 seconds"),
        (89.9, "90 seconds"),
        (90, "2 minutes"),
        (150, "2 minutes"),
        (5399, "90 minutes"),
        (5400, "2 hours"),
        (7 * 3600, "7 hours"),
        (129_599, "36 hours"),
        (129_600, "2 days"),
        (5 * 86400, "5 days"),
    ],
)
def test_a_duration_is_said_in_the_largest_unit_it_holds_one_and_a_half_times(seconds, words):
    assert caps._duration(seconds) == words


FOUR = [Card.parse(code) for code in ("1RSO", "2RSO", "1GSO", "2GSO")]  # no SET, and not closed


@pytest.mark.parametrize("seed", range(12))
def test_a_set_free_list_of_cards_is_found_whole_each_card_once_whatever_the_seed(seed):
    assert caps.is_set_free(FOUR) and _Deck(FOUR).basis is None
    assert caps.largest_set_free(FOUR, seed=seed, progress=False) == sorted(FOUR)
    cap = [card for card in full_deck() if max(card.vector) < 2]  # 16 cards, values 0 and 1: no SET
    assert caps.largest_set_free(cap, seed=seed, progress=False) == sorted(cap)


def test_the_search_of_a_set_free_list_stops_after_its_first_branch(capsys):
    """The first branch holds every card: the table can grow no more, so no other branch is tried."""
    cap = [card for card in full_deck() if max(card.vector) < 2][:12]
    assert caps.largest_set_free(cap, seed=1) == sorted(cap)
    bar = capsys.readouterr().err.split("\r")[-1]
    assert " 1/12 " in bar, bar


def test_the_full_deck_search_stops_at_20_cards_before_its_last_branch(capsys):
    assert len(caps.largest_set_free("full")) == 20
    bar = capsys.readouterr().err.split("\r")[-1]
    done, total = map(int, re.search(r" (\d+)/(\d+) ", bar).groups())
    assert done < total, bar


def test_the_search_reads_the_clock_every_4096_tables_and_stops_past_its_deadline(monkeypatch):
    """The clock is read once before each branch and once every 4096 tables; the search stops at the
    first reading past the deadline (one at the deadline goes on), keeping a SET-free table."""
    readings = iter([0.0, 50.0, 100.0])
    calls = []

    def clock():
        calls.append(1)
        return next(readings)

    monkeypatch.setattr(caps, "time", types.SimpleNamespace(monotonic=clock))
    grown = []
    grow = _Search._grow

    def counted(self, chosen, allowed):
        grown.append(1)
        return grow(self, chosen, allowed)

    monkeypatch.setattr(_Search, "_grow", counted)
    deck = _Deck("full")
    search = _Search(deck, 20, 50.0)
    start = list(deck.basis)
    order = _bits(deck.start(start))
    random.Random(0).shuffle(order)
    search.run(start, order, None)
    assert len(calls) == 3 and search.nodes == len(grown) == 8192
    found = [deck.cards[x] for x in search.best]
    assert 4 <= len(found) < 20 and caps.is_set_free(found) and len(set(found)) == len(found)
