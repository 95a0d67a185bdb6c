"""The variants: one class of rules each, registered by name, and every variant's games end."""

import inspect
import itertools
from pathlib import Path

import pytest
from conftest import Clock, examples, variants_named_in
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import setwidgets.game
from setwidgets import Card, Game, GameError, as_cards, full_deck, has_set, third_card
from setwidgets.game import VARIANTS
from setwidgets.game import variants as v

CAP20 = as_cards(
    "1GSS 1GTS 1GTD 1PTO 1POO 1PTD 2ROO 2RSS 2ROS 2GOO 2GSD 2PSS 2POS 2PSD 3RTO 3RSD 3RTD 3GTO 3GTS 3GOS"
)
# The 18 cards of the issue: a competition game on them used to cycle 9, 12, 9 cards for ever.
CYCLE18 = as_cards(
    "3POS 1GOO 3GOS 1GTD 2PSO 1PSO 3GTD 2POS 1GOD 1GTO 3PSD 3POO 2GTO 1PSD 2GOS 1PTS 1RSS 2POD"
)


def test_the_four_variants_are_registered_in_order():
    assert VARIANTS == v.VARIANTS == v.names() == ("standard", "solitaire", "online", "competition")
    classes = [type(v.rules_of(name)) for name in VARIANTS]
    assert classes == [v.Standard, v.Solitaire, v.Online, v.CompetitionRules]
    assert all(issubclass(c, v.Variant) and c.name == name for c, name in zip(classes, VARIANTS))
    assert repr(v.rules_of("competition")) == "CompetitionRules()"
    assert [c.players for c in classes] == [None, 1, None, None]


def test_every_variant_explains_its_rules():
    for name in VARIANTS:
        assert len(inspect.getdoc(type(v.rules_of(name)))) > 40


def test_game_itself_names_no_variant():
    """Each variant's rules live in its class: the game's other modules (not their docs) name none."""
    package = Path(setwidgets.game.__file__).parent
    named = {path.name: variants_named_in(path) for path in sorted(package.glob("*.py"))}
    assert named.pop("variants.py")
    assert named.pop("engine.py") == ["standard"]  # only the default of Game(variant="standard")
    assert named == dict.fromkeys(named, [])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"__doc__": "Rules."}, "a Variant subclass needs a lower-case name of its own"),
        ({"__doc__": "Rules.", "name": "Speed"}, "lower-case name"),
        ({"__doc__": "Rules.", "name": ""}, "lower-case name"),
        (
            {"__doc__": "Rules.", "name": "standard"},
            "there is already a variant called 'standard' (Standard)",
        ),
        ({"name": "speed"}, "the variant 'speed' must explain its rules in a docstring"),
        ({"name": "speed", "__doc__": "  "}, "must explain its rules in a docstring"),
    ],
)
def test_a_variant_class_must_have_a_new_name_and_a_docstring(registry, body, message):
    before = dict(registry)
    with pytest.raises(TypeError) as info:
        type("Speed", (v.Variant,), body)
    assert message in str(info.value)
    assert registry == before


def test_a_new_variant_is_one_class_and_game_plays_it(registry):
    class Generous(v.Variant):
        """When nobody finds a SET, six more cards."""

        name = "generous"

        def no_set(self, dealer):
            return v.Outcome("Six more.", dealer.deal(6))

    assert v.names()[-1] == "generous" and "generous" not in VARIANTS
    cap21 = [*CAP20, Card.parse("1RSO")]
    g = next(
        g
        for seed in itertools.count()
        if Card.parse("1RSO")
        in (g := Game(deck=cap21, variant=" Generous ", seed=seed, clock=Clock())).deck[6:]
    )
    assert g.variant == "generous"
    answer = g.no_set()
    assert answer.message == "Six more." and len(answer.dealt) == 6 and len(g.table) == 15
    assert Game.from_json(g.to_json(), clock=Clock()).to_json() == g.to_json()


def test_a_no_set_that_lets_the_game_go_on_is_never_recorded_as_lost(registry):
    class Patient(v.Solitaire):
        """Solitaire, but a full table without a SET gets three more cards instead of ending."""

        name = "patient"
        more = 3

    g = next(
        g
        for seed in itertools.count()
        if Card.parse("1RSO")
        in (
            g := Game(deck=[*CAP20, "1RSO"], table_size=12, variant="patient", seed=seed, clock=Clock())
        ).deck[3:]
    )
    answer = g.no_set()
    # Fifteen cards and still no SET: a table solitaire would count as lost...
    assert v.rules_of("patient").lost(g.table, 12) and len(g.table) == 15
    assert answer.ok and len(answer.dealt) == 3 and not answer.over and not answer.lost
    assert g.history[-1]["type"] == "no_set" and g.history[-1]["lost"] is False  # ...but the game goes on


def test_an_unknown_variant_lists_the_known_ones():
    with pytest.raises(GameError) as info:
        Game(variant="speed")
    assert str(info.value) == (
        "unknown variant 'speed'; choose one of 'standard', 'solitaire', 'online', 'competition'"
    )
    assert Game(variant=" Online ", seed=1).variant == "online"


# -- each variant's rules, at their edges ------------------------------------------------------


def test_only_solitaire_is_ever_lost_and_only_on_a_full_table_without_a_set():
    nine, twelve = CAP20[:9], CAP20[:12]
    with_set = [*CAP20[:10], third_card(CAP20[0], CAP20[1]), CAP20[11]]
    solitaire = v.rules_of("solitaire")
    assert solitaire.lost(twelve, 12) is True  # full, no SET
    assert solitaire.lost(CAP20[:15], 12) is True  # more than full, no SET
    assert solitaire.lost(nine, 12) is False  # the deck ran out on a short table: won
    assert solitaire.lost(CAP20[:11], 12) is False
    assert solitaire.lost(with_set, 12) is False  # a SET is there to take
    assert solitaire.lost(nine, 9) is True
    for name in ("standard", "online", "competition"):
        assert v.rules_of(name).lost(twelve, 12) is False


def test_outcome_defaults_to_nothing_moved_and_the_game_going_on():
    outcome = v.Outcome("No SET.")
    assert (outcome.dealt, outcome.returned, outcome.ends) == ([], [], False)


def test_the_base_rules_deal_three_and_do_nothing_after_a_deal():
    g = Game(deck=full_deck(), seed=2, clock=Clock())
    table, deck = g.table, g.deck
    assert v.Variant().after_deal(g._dealer) is None and g.table == table
    outcome = v.Standard().no_set(g._dealer)
    assert outcome.dealt == deck[:3] and g.table == table + deck[:3] and not outcome.ends
    assert outcome.message == "No SET among 12 cards: 3 more were dealt."


def test_online_deals_three_at_a_time_only_while_the_table_has_no_set():
    g = Game(deck=full_deck(), seed=2, clock=Clock())
    table = g.table
    assert has_set(table)
    v.Online().after_deal(g._dealer)
    assert g.table == table  # a SET is there: nothing dealt
    g = Game(deck=[*CAP20, Card.parse("1RSO")], table_size=12, seed=0, clock=Clock())
    assert Card.parse("1RSO") in g.deck and not has_set(g.table)
    g._state.deck.sort(key=lambda c: c == Card.parse("1RSO"))  # 1RSO dealt last
    deck = [c.code for c in g.deck]
    v.Online().after_deal(g._dealer)
    assert has_set(g.table) and g.deck == [] and len(g.table) == 21
    # The history says which cards each deal laid out, in the order they left the deck.
    assert [(e["type"], e["cards"], e["reason"]) for e in g.history[-3:]] == [
        ("deal", deck[i : i + 3], "no SET on the table") for i in (0, 3, 6)
    ]


def test_solitaire_no_set_ends_the_game():
    g = next(
        g
        for seed in itertools.count()
        if Card.parse("1RSO")
        in (g := Game(deck=[*CAP20, "1RSO"], table_size=12, variant="solitaire", seed=seed)).deck
    )
    outcome = v.Solitaire().no_set(g._dealer)
    assert outcome.ends and outcome.dealt == outcome.returned == []
    assert outcome.message == "No SET among these 12 cards: the game is lost, with 9 cards left in the deck."
    # A short table (the deck ran out) is not lost, and the rule's sentence says so.
    g = Game(deck=CAP20[:9], table_size=12, variant="solitaire", seed=1, clock=Clock())
    outcome = v.Solitaire().no_set(g._dealer)
    assert outcome.message == "No SET among these 9 cards: the game is over, with 0 cards left in the deck."


# -- every game ends ---------------------------------------------------------------------------


def play_to_the_end(g: Game, limit: int) -> int:
    """Take a SET when there is one, else say there is none; the number of moves it took."""
    for moves in range(limit):
        if g.over:
            return moves
        sets = g.sets_on_table()
        g.claim(sets[0]) if sets else g.no_set()
    raise AssertionError(f"{g.variant} game on {len(g.cards)} cards still going after {limit} moves: {g!r}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_issues_competition_deck_ends_in_every_variant(variant):
    g = Game(deck=CYCLE18, variant=variant, seed=0, clock=Clock())
    assert play_to_the_end(g, 1) == 0 and g.over


SOME_DECKS = st.one_of(
    st.lists(st.sampled_from(full_deck()), min_size=3, max_size=40, unique=True),
    # Cards without a SET, and the same with one card more (every SET then holds that card).
    st.integers(3, 20).map(lambda n: CAP20[:n]),
    st.tuples(st.integers(3, 20), st.sampled_from([c for c in full_deck() if c not in CAP20])).map(
        lambda pair: [*CAP20[: pair[0]], pair[1]]
    ),
    st.just(CYCLE18),
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    deck=SOME_DECKS,
    seed=st.integers(0, 2**32),
    table_size=st.sampled_from([None, 3, 6, 9, 12, 15]),
)
def test_every_variant_ends_on_any_deck(variant, deck, seed, table_size):
    g = Game(deck=deck, variant=variant, seed=seed, table_size=table_size, clock=Clock())
    # Without reshuffles a game takes at most one move per card; competition reshuffles at random.
    limit = 3000 if variant == "competition" else len(deck) + 1
    play_to_the_end(g, limit)
    assert g.over and not has_set(g.table)
    assert g.lost or not has_set(g.table + g.deck)
    assert g.lost == (variant == "solitaire" and len(g.table) >= g.table_size)
    assert g.history[-1]["type"] == "over" and g.history[-1]["lost"] is g.lost
