"""Random games, move by move: whatever the players do, the game stays consistent.

Random sequences of calls, claims (right, wrong, stale and malformed), "no SET", hints,
waiting and saving/loading are played in every variant and on random decks. After every
step the checks below make sure that no card is lost or duplicated, that each score is
the SETs kept minus the penalties given, that the game survives a JSON round trip, and
that every refused move left the game exactly as it was.

The moves are played twice: by Hypothesis's RuleBasedStateMachine (which explores and
shrinks a failing game to a short one), and by a seeded random walk that must reach
every rule of the game at least a few times, so the checks are known to have been
exercised.
"""

import collections
import itertools
import random

from conftest import Clock, examples
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from setwidgets import Claim, Game, GameError, NoSet, full_deck, has_set, is_set
from setwidgets.game import VARIANTS

DECK = full_deck()
# Twenty cards with no SET among them: every "no SET" rule comes into play.
CAP20 = [
    *("1GSS", "1GTS", "1GTD", "1PTO", "1POO", "1PTD", "2ROO", "2RSS", "2ROS", "2GOO"),
    *("2GSD", "2PSS", "2POS", "2PSD", "3RTO", "3RSD", "3RTD", "3GTO", "3GTS", "3GOS"),
]
# With 1RSO added, every SET holds 1RSO: tables without a SET are common while the deck still has one.
CAP21 = [*CAP20, "1RSO"]
NAMED_DECKS = ["full", "mini", CAP20, CAP21, [*CAP20, "1RSO", "2RSO", "3RSO", "1GSO"]]
NONSENSE = ["two", "four", "bad code", "vector", "twice", "in the deck", "stranger", "nobody"]
WAITS = [0.5, 1.9, 2.1, 4.0, 5.0, 6.0, 11.0]


class Table:
    """One game with its own bookkeeping of what each player should have; moves and checks."""

    def __init__(self, variant, deck, seed, players, claim_seconds, seen: collections.Counter) -> None:
        if variant == "solitaire":
            players = 1
        self.clock = Clock(0.0)
        self.game = Game(
            deck=deck,
            players=players,
            variant=variant,
            seed=seed,
            claim_seconds=claim_seconds,
            clock=self.clock,
        )
        self.n = players
        self.kept = [0] * players
        self.penalties = [0] * players
        self.card_pool = set(self.game.cards)
        self.seen = seen

    # -- helpers ----------------------------------------------------------------------

    def attempt(self, move):
        """Make a move; if the game refuses it, check that nothing changed and return the error."""
        before = self.game.to_json()
        try:
            return move()
        except (GameError, TypeError) as error:
            self.seen["refused"] += 1
            assert str(error)
            assert self.game.to_json() == before
            return error

    def scored(self, claim: Claim) -> None:
        self.seen["right claim" if claim.ok else "wrong claim" if claim.penalty else "too late"] += 1
        self.kept[claim.player] += claim.ok
        self.penalties[claim.player] += claim.penalty

    def may_claim(self, player: int) -> bool:
        g = self.game
        return not g.over and player < self.n and g.caller in (None, player)

    # -- moves --------------------------------------------------------------------------

    def call(self, player):
        g = self.game
        expected_ok = not g.over and player < self.n and player not in g.callers
        before = g.callers
        result = self.attempt(lambda: g.call(player))
        if expected_ok:
            assert result is None and g.callers == [*before, player]
        else:
            assert isinstance(result, GameError)

    def claim_a_set(self, player, k):
        g = self.game
        sets = g.sets_on_table()
        if not sets:
            return
        chosen = sets[k % len(sets)]
        allowed = self.may_claim(player)
        size, deck = len(g.table), g.deck
        result = self.attempt(lambda: g.claim(chosen, player))
        if not allowed:
            assert isinstance(result, GameError)
            return
        assert isinstance(result, Claim) and result.ok and not result.penalty
        self.scored(result)
        assert not set(chosen) & set(g.table)
        assert chosen in g.players[player].sets
        if g.variant != "online" and not g.over:
            dealt = min(3, len(deck), max(0, g.table_size - (size - 3)))
            assert len(g.table) == size - 3 + dealt and g.deck == deck[dealt:]

    def claim_three_table_cards(self, player, k):
        g = self.game
        triples = list(itertools.combinations(g.table, 3))
        if g.over or not triples:
            return
        cards = list(triples[k % len(triples)])
        allowed = self.may_claim(player)
        table = g.table
        result = self.attempt(lambda: g.claim(cards, player))
        if not allowed:
            assert isinstance(result, GameError)
            return
        assert isinstance(result, Claim)
        assert result.ok == is_set(cards) == (not result.penalty)
        if not result.ok:
            assert g.table == table and result.message.startswith("Not a SET: ")
        self.scored(result)

    def claim_cards_already_taken(self, player, k):
        g = self.game
        taken = [s for p in g.players for s in p.sets]
        if not taken or g.over:
            return
        chosen = taken[k % len(taken)]
        was_caller = g.caller == player
        result = self.attempt(lambda: g.claim(chosen, player))
        if isinstance(result, Claim):
            # Only a caller whose cards were taken after the call gets this answer, and without penalty.
            assert was_caller and not result.ok and not result.penalty
            assert result.message.startswith("Too late: ")
            self.scored(result)
        else:
            assert isinstance(result, GameError)

    def claim_nonsense(self, kind, player):
        g = self.game
        table = g.table
        if len(table) < 4:
            return
        strangers = [c for c in DECK if c not in self.card_pool]
        cards = {
            "two": table[:2],
            "four": table[:4],
            "bad code": [table[0], table[1], "5XYZ"],
            "vector": [table[0], table[1], (0, 1, 2, 0)],
            "twice": [table[0], table[1], table[0]],
            "in the deck": [table[0], table[1], g.deck[0]] if g.deck else table[:2],
            "stranger": [table[0], table[1], strangers[0]] if strangers else table[:2],
            "nobody": None,
        }[kind]
        result = self.attempt(lambda: g.claim(cards, player))
        assert isinstance(result, (GameError, TypeError))

    def say_no_set(self, player):
        g = self.game
        table, deck, had_set = g.table, g.deck, has_set(g.table)
        allowed = not g.over and g.caller is None and (player is None or player < self.n)
        result = self.attempt(lambda: g.no_set(player))
        if not allowed:
            assert isinstance(result, GameError)
            return
        assert isinstance(result, NoSet)
        assert result.ok == (not had_set)
        if had_set:
            assert g.table == table and g.deck == deck
        elif g.variant == "solitaire":
            self.seen["solitaire lost"] += 1
            assert g.over and g.lost
        elif g.variant == "competition" and len(table) >= g.table_size + 3:
            self.seen["six returned"] += 1
            assert len(result.returned) == 6 and len(g.table) == len(table) - 3
        else:
            self.seen["three more"] += 1
            assert result.dealt == deck[:3] and g.table[: len(table)] == table

    def everyone_agrees_there_is_no_set(self):
        if not self.game.over and not has_set(self.game.table):
            self.say_no_set(None)

    def two_callers_want_the_same_set(self, first, second):
        g = self.game
        sets = g.sets_on_table()
        first, second = first % self.n, second % self.n
        if g.over or g.caller is not None or first == second or not sets:
            return
        g.call(first)
        g.call(second)
        claim = g.claim(sets[0], first)
        assert claim.ok
        self.scored(claim)
        late = self.attempt(lambda: g.claim(sets[0], second))
        if g.over:
            assert isinstance(late, GameError)
        else:
            assert isinstance(late, Claim) and not late.ok and not late.penalty
            self.scored(late)

    def ask_for_a_hint(self):
        g = self.game
        shown = self.attempt(g.hint)
        assert isinstance(shown, list) and len(shown) <= 3
        assert set(shown) <= set(g.table)
        assert bool(shown) == has_set(g.table)
        if shown:
            self.seen["hint"] += 1

    def wait(self, seconds):
        # Expiring right after the clock moves means no move at this time can expire anyone
        # unseen: every timeout is counted here.
        self.clock.advance(seconds)
        for player in self.attempt(self.game.expire):
            self.seen["timeout"] += 1
            self.penalties[player] += 1

    def save_and_load(self):
        self.game = Game.from_json(self.game.to_json(), clock=self.clock)

    def a_bot_plays(self, player):
        # A few right SETs in a row, so that games reach their end within the steps available.
        for _ in range(3):
            g = self.game
            sets = g.sets_on_table()
            if not sets or not self.may_claim(player):
                return
            claim = g.claim(sets[0], player)
            assert claim.ok
            self.scored(claim)

    # -- what must always hold ------------------------------------------------------------

    def check(self):
        g = self.game
        # No card is lost or duplicated, and every kept SET is a SET.
        held = [c for p in g.players for s in p.sets for c in s]
        everything = g.deck + g.table + held
        assert len(everything) == len(set(everything)) == len(self.card_pool)
        assert set(everything) == self.card_pool
        assert all(is_set(s) for p in g.players for s in p.sets)
        # Scores are the SETs kept minus the penalties given.
        players = g.players
        assert [len(p.sets) for p in players] == self.kept
        assert [p.penalties for p in players] == self.penalties
        assert [p.score for p in players] == [k - q for k, q in zip(self.kept, self.penalties)]
        # The game survives a JSON round trip.
        text = g.to_json()
        assert Game.from_json(text, clock=self.clock).to_json() == text
        # The table follows the rules.
        assert len(g.table) == len(set(g.table))
        if g.deck:
            assert len(g.table) >= g.table_size
        if not g.over:
            # Every game ends once the cards left can make no SET.
            assert has_set(g.table + g.deck)
            if g.variant == "online":
                assert has_set(g.table)
        else:
            self.seen["game over"] += 1
            assert g.callers == [] and g.caller is None
            assert not has_set(g.table)
            assert g.lost or not has_set(g.table + g.deck)
            # The one rule of losing: solitaire, on a full table.
            assert g.lost == (g.variant == "solitaire" and len(g.table) >= g.table_size)
        assert not g.lost or (g.variant == "solitaire" and g.over)
        callers = g.callers
        assert len(callers) == len(set(callers)) and all(0 <= p < self.n for p in callers)
        assert g.caller == (callers[0] if callers else None)


# -- Hypothesis explores -------------------------------------------------------------------

decks = st.one_of(
    st.sampled_from(NAMED_DECKS),
    st.lists(st.sampled_from(DECK), min_size=3, max_size=40, unique=True),
)
players = st.integers(0, 3)


class GameMachine(RuleBasedStateMachine):
    @initialize(
        variant=st.sampled_from(VARIANTS),
        deck=decks,
        seed=st.integers(0, 2**32),
        n=st.integers(1, 3),
        claim_seconds=st.sampled_from([5.0, 2, None]),
    )
    def start(self, variant, deck, seed, n, claim_seconds):
        self.table = Table(variant, deck, seed, n, claim_seconds, collections.Counter())

    @rule(player=players)
    def call(self, player):
        self.table.call(player)

    @rule(player=players, k=st.integers(0, 10**6))
    def claim_a_set(self, player, k):
        self.table.claim_a_set(player, k)

    @rule(player=players, k=st.integers(0, 10**6))
    def claim_three_table_cards(self, player, k):
        self.table.claim_three_table_cards(player, k)

    @rule(player=players, k=st.integers(0, 10**6))
    def claim_cards_already_taken(self, player, k):
        self.table.claim_cards_already_taken(player, k)

    @rule(kind=st.sampled_from(NONSENSE), player=players)
    def claim_nonsense(self, kind, player):
        self.table.claim_nonsense(kind, player)

    @rule(player=st.one_of(st.none(), players))
    def say_no_set(self, player):
        self.table.say_no_set(player)

    @rule()
    def everyone_agrees_there_is_no_set(self):
        self.table.everyone_agrees_there_is_no_set()

    @rule(first=players, second=players)
    def two_callers_want_the_same_set(self, first, second):
        self.table.two_callers_want_the_same_set(first, second)

    @rule()
    def ask_for_a_hint(self):
        self.table.ask_for_a_hint()

    @rule(seconds=st.sampled_from(WAITS))
    def wait(self, seconds):
        self.table.wait(seconds)

    @rule()
    def save_and_load(self):
        self.table.save_and_load()

    @rule(player=players)
    def a_bot_plays(self, player):
        self.table.a_bot_plays(player)

    @invariant()
    def consistent(self):
        self.table.check()


def test_random_games_stay_consistent():
    run_state_machine_as_test(
        GameMachine,
        settings=settings(
            max_examples=examples(100),
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )


# -- a seeded random walk covers every rule -------------------------------------------------


def random_move(table: Table, rng: random.Random) -> None:
    player = rng.randrange(4)
    k = rng.randrange(10**6)
    move = rng.choice(
        [
            lambda: table.call(player),
            lambda: table.claim_a_set(player, k),
            lambda: table.claim_three_table_cards(player, k),
            lambda: table.claim_cards_already_taken(player, k),
            lambda: table.claim_nonsense(rng.choice(NONSENSE), player),
            lambda: table.say_no_set(rng.choice([None, player])),
            table.everyone_agrees_there_is_no_set,
            lambda: table.two_callers_want_the_same_set(player, rng.randrange(4)),
            table.ask_for_a_hint,
            lambda: table.wait(rng.choice(WAITS)),
            table.save_and_load,
            lambda: table.a_bot_plays(player),
        ]
    )
    move()


def test_seeded_random_games_reach_every_rule():
    rng = random.Random(20240607)
    seen: collections.Counter = collections.Counter()
    for _ in range(60):
        # Mostly whole decks for long games; sometimes a random handful, where the deck runs short.
        deck = rng.choice(NAMED_DECKS) if rng.random() < 0.7 else rng.sample(DECK, rng.randrange(3, 41))
        table = Table(
            rng.choice(VARIANTS),
            deck,
            rng.randrange(2**32),
            rng.randrange(1, 4),
            rng.choice([5.0, 2, None]),
            seen,
        )
        table.check()
        for _ in range(60):
            random_move(table, rng)
            table.check()
    # If the walk stopped reaching a rule, the checks above would prove little about it.
    for situation in [
        "right claim",
        "wrong claim",
        "too late",
        "refused",
        "timeout",
        "three more",
        "six returned",
        "solitaire lost",
        "game over",
        "hint",
    ]:
        assert seen[situation] >= 3, f"the random games reached {situation!r} only {seen[situation]} times"
