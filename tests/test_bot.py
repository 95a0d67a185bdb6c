"""The computer opponent: human-like delays by level, table size and number of SETs; its moves."""

import itertools
import math
import random
import statistics

import numpy as np
import pytest

from setwidgets import Bot, Card, Game, count_sets, full_deck, is_set
from setwidgets.bot import LEVELS, SPREAD, TYPICAL_SETS

DECK = full_deck()
# Twenty cards with no SET among them.
CAP20 = [
    *("1GSS", "1GTS", "1GTD", "1PTO", "1POO", "1PTD", "2ROO", "2RSS", "2ROS", "2GOO"),
    *("2GSD", "2PSS", "2POS", "2PSD", "3RTO", "3RSD", "3RTD", "3GTO", "3GTS", "3GOS"),
]


def table_with(size: int, sets: int, rng: random.Random) -> list[Card]:
    """A random table of ``size`` cards holding exactly ``sets`` SETs."""
    while True:
        table = rng.sample(DECK, size)
        if count_sets(table) == sets:
            return table


def test_typical_sets_is_the_average_over_random_twelve_card_tables():
    assert math.comb(12, 3) / 79 == pytest.approx(TYPICAL_SETS)
    rng = random.Random(0)
    mean = statistics.fmean(count_sets(rng.sample(DECK, 12)) for _ in range(3000))
    assert mean == pytest.approx(TYPICAL_SETS, rel=0.05)


@pytest.mark.parametrize(
    ("level", "low", "high"), [("beginner", 20, 40), ("intermediate", 8, 16), ("expert", 3, 6)]
)
def test_levels_take_the_documented_time_on_an_ordinary_table(level, low, high):
    bot = Bot(level, rng=random.Random(1))
    rng = random.Random(2)
    # With the average number of SETs (about 2.8) the delay is the level's base times the spread.
    typical = [bot.delay(table_with(12, 3, rng)) * math.sqrt(3 / TYPICAL_SETS) for _ in range(100)]
    assert low <= min(typical) and max(typical) <= high
    # Random tables hold more or fewer SETs; the median delay still lies in the range.
    delays = [bot.delay(rng.sample(DECK, 12)) for _ in range(300)]
    assert low <= statistics.median(delays) <= high
    assert sum(low <= d <= high for d in delays) >= 0.5 * len(delays)
    assert bot.base == LEVELS[level]


def test_levels_are_ordered():
    table = table_with(12, 3, random.Random(3))
    typical = [Bot(level).typical_delay(table) for level in ("beginner", "intermediate", "expert")]
    assert typical == sorted(typical, reverse=True)


def test_more_cards_and_fewer_sets_take_longer():
    rng = random.Random(4)
    bot = Bot("intermediate", rng=rng)
    one_of_12, three_of_12 = table_with(12, 1, rng), table_with(12, 3, rng)
    one_of_15 = table_with(15, 1, rng)
    assert bot.typical_delay(one_of_12) == pytest.approx(12.0 * math.sqrt(TYPICAL_SETS))
    assert bot.typical_delay(three_of_12) == pytest.approx(12.0 * math.sqrt(TYPICAL_SETS / 3))
    assert bot.typical_delay(one_of_15) == pytest.approx(bot.typical_delay(one_of_12) * 15 / 12)
    assert bot.typical_delay(CAP20[:12]) == pytest.approx(2 * bot.typical_delay(one_of_12))


def test_delays_spread_around_the_typical_delay():
    bot = Bot("expert", rng=random.Random(5))
    table = table_with(12, 2, random.Random(6))
    middle = bot.typical_delay(table)
    delays = [bot.delay(table) for _ in range(500)]
    assert all(SPREAD[0] * middle <= d <= SPREAD[1] * middle for d in delays)
    assert min(delays) < 0.75 * middle and max(delays) > 1.25 * middle
    assert statistics.fmean(delays) == pytest.approx(middle, rel=0.05)


def test_the_same_seed_gives_the_same_bot():
    table = DECK[:12]
    a, b = Bot("beginner", rng=7), Bot("beginner", rng=random.Random(7))
    assert [a.delay(table) for _ in range(5)] == [b.delay(table) for _ in range(5)]
    assert [a.choose(DECK[:20]) for _ in range(5)] == [b.choose(DECK[:20]) for _ in range(5)]


def test_the_global_random_generator_is_never_touched():
    random.seed(8)
    before = random.getstate()
    bot = Bot()
    bot.delay(DECK[:12])
    bot.choose(DECK[:12])
    assert random.getstate() == before


def test_a_level_may_be_a_number_of_seconds():
    bot = Bot(8, rng=0)
    assert bot.level == 8.0 and bot.base == 8.0
    assert repr(bot) == "Bot(level=8.0)" and repr(Bot("expert")) == "Bot(level='expert')"
    table = table_with(12, 2, random.Random(9))
    assert Bot(8).typical_delay(table) == pytest.approx(Bot(16).typical_delay(table) / 2)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (
            {"level": "master"},
            ValueError,
            "unknown level 'master'; choose one of 'beginner', 'intermediate', 'expert'",
        ),
        ({"level": 0}, ValueError, "a bot's level must be a finite number of seconds above 0; got 0"),
        ({"level": -3.0}, ValueError, "must be a finite number of seconds above 0; got -3.0"),
        ({"level": math.inf}, ValueError, "must be a finite number of seconds above 0; got inf"),
        ({"level": math.nan}, ValueError, "must be a finite number of seconds above 0; got nan"),
        ({"level": True}, TypeError, "level must be one of 'beginner', 'intermediate', 'expert' or a number"),
        ({"level": None}, TypeError, "or a number of seconds; got None"),
        (
            {"rng": "seed"},
            TypeError,
            "rng must be a whole number, a random.Random or None; got 'seed' (a string)",
        ),
        ({"rng": 1.5}, TypeError, "rng must be a whole number, a random.Random or None; got 1.5 (a number)"),
        ({"rng": True}, TypeError, "rng must be a whole number, a random.Random or None; got True"),
    ],
)
def test_bad_settings_say_what_is_expected(kwargs, error, message):
    with pytest.raises(error) as info:
        Bot(**kwargs)
    assert message in str(info.value)
    assert type(info.value) is error


def test_numpy_numbers_are_numbers():
    table = table_with(12, 2, random.Random(9))
    assert Bot(np.float64(8.0)).level == 8.0 and type(Bot(np.int64(8)).level) is float
    assert Bot(rng=np.int64(3)).delay(table) == Bot(rng=3).delay(table)


def test_a_bad_table_is_refused():
    bot = Bot()
    with pytest.raises(TypeError, match="expected a list of cards on the table"):
        bot.delay(5)
    assert bot.choose("1RSO 2RSO 3RSO") == tuple(Card.parse(c) for c in ("1RSO", "2RSO", "3RSO"))
    with pytest.raises(ValueError, match="got the card one red solid oval \\(1RSO\\) twice"):
        bot.delay(["1RSO", "1RSO", "2RSO"])
    with pytest.raises(ValueError, match="twice"):
        bot.choose(["1RSO", "1RSO", "2RSO"])


def test_choose_finds_a_set_on_the_table_or_none():
    bot = Bot(rng=10)
    rng = random.Random(11)
    for _ in range(50):
        table = rng.sample(DECK, 12)
        chosen = bot.choose(table)
        if count_sets(table):
            assert is_set(chosen) and set(chosen) <= set(table)
        else:
            assert chosen is None
    assert bot.choose(CAP20) is None
    assert bot.choose(["1RSO", "2RSO", "3RSO"]) == tuple(Card.parse(c) for c in ("1RSO", "2RSO", "3RSO"))


def test_choose_picks_among_all_the_sets():
    bot = Bot(rng=12)
    table = table_with(12, 4, random.Random(13))
    picks = {frozenset(bot.choose(table)) for _ in range(200)}
    assert len(picks) == 4


def test_play_claims_a_set_or_says_there_is_none():
    g = Game(players=["Ana", "Bot"], seed=2, clock=lambda: 0.0)
    bot = Bot("expert", rng=14)
    claim = bot.play(g, "Bot")
    assert claim.ok and g.scores == {"Ana": 0, "Bot": 1}
    stuck = next(
        game
        for seed in range(100)
        if not (game := Game(deck=[*CAP20, "1RSO"], variant="solitaire", seed=seed, clock=lambda: 0.0)).over
        and not game.sets_on_table()
    )
    answer = bot.play(stuck, 0)
    assert answer.ok and stuck.lost


def test_bots_can_play_whole_games_against_each_other():
    for variant, seed in itertools.product(("standard", "online", "competition"), range(3)):
        g = Game(players=["A", "B"], variant=variant, seed=seed, clock=lambda: 0.0)
        bots = [Bot("expert", rng=seed), Bot("beginner", rng=seed + 100)]
        turn = 0
        while not g.over:
            bots[turn % 2].play(g, turn % 2)
            turn += 1
        assert sum(len(p.sets) for p in g.players) * 3 + len(g.table) == 81
        assert all(p.penalties == 0 for p in g.players)
