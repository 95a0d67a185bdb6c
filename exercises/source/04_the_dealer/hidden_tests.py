"""The graded tests of exercise 4, the dealer, judged by the grader outside the student's kernel.

Each function below is the test of one graded cell of ``the_dealer.ipynb``, by its grade id.
The expected answers are the moves of the package's own game engine, played here in seeded
games (fixed seeds, and seeds drawn afresh each run); the student's kernel only calls the
student's functions on the tables and decks sent to it, and sends back what they returned and
what became of the lists they were given: the exercise asks that they stay unchanged.
See :mod:`setwidgets.grading.judge`.
"""

from __future__ import annotations

import random

from setwidgets import Card, full_deck, has_set
from setwidgets.checks import competition_by_engine, engine_moves
from setwidgets.grading.judge import Answer, Failed, Run, Tests, returned, show

# The engine's moves, as the package plays them, would be the answers: the grading kernel sees a
# game engine that cannot be started, and the checks without their recorders of its moves (the
# student's functions must play by themselves).
# What the notebook's own cells use of the package; while it is graded, the kernel has nothing else.
HAND_OUT = [
    *(
        "setwidgets.Card",
        "setwidgets.first_set",
        "setwidgets.full_deck",
        "setwidgets.has_set",
        "setwidgets.draw.show",
    ),
    *(
        f"setwidgets.checks.check_{name}"
        for name in ("take_set", "no_set", "competition_no_set", "game_over", "play_solitaire")
    ),
]
tests = Tests(
    hand_out=HAND_OUT,
    hide=[
        "setwidgets.game.engine.Game.__init__",
        "setwidgets.checks.ex4_the_dealer.engine_moves",
        "setwidgets.checks.ex4_the_dealer.competition_by_engine",
    ],
)

TABLE = 12
DECK = full_deck()
NO_SETS = "3GTS 1RTS 1GOO 1ROO 2GOD 2RSS 2GSO 3GTD 1PTD 1RTD 2POS 1PTO"  # twelve cards without a SET


def cards(codes: str) -> list[Card]:
    return [Card.parse(code) for code in codes.split()]


def _codes(some: list[Card]) -> str:
    return " ".join(card.code for card in some) or "(empty)"


def _fresh(run: Run) -> int:
    return run.rng.randrange(10**9)


def _is_table_and_deck(value: object) -> bool:
    return (
        type(value) is tuple
        and len(value) == 2
        and all(type(part) is list and all(type(card) is Card for card in part) for part in value)
    )


def _check(
    label: str, answer: Answer, want: tuple[list[Card], list[Card]], sent: list, why: str = ""
) -> None:
    """The answer is (table, deck) as wanted, and the lists sent came back unchanged."""
    if answer.error is not None or not _is_table_and_deck(answer.value):
        raise Failed(
            f"{label} should return a tuple of two lists of Cards (table, deck). Your function {returned(answer)}."
        )
    if answer.value != want:
        reason = f": {why}" if why else ""
        raise Failed(
            f"{label} should give the table {_codes(want[0])} and the deck {_codes(want[1])}{reason}. "
            f"Yours gave the table {_codes(answer.value[0])} and the deck {_codes(answer.value[1])}."
        )
    if answer.args is not None and answer.args[:2] != sent[:2]:
        raise Failed(
            f"{label} changed the lists it was given (the table became {_codes(answer.args[0])}): "
            "the function must leave them as they are and return new ones."
        )


# -- take_set --------------------------------------------------------------------------------------


TWELVE = "1RSO 1GTS 2RSO 3POD 3RSO 1PTD 2GOS 2PSD 3GTO 1ROO 2GSO 3PSS"
VISIBLE_TAKE = [
    (
        TWELVE,
        "1GSS 2ROD 3PTS 1POO",
        "1RSO 2RSO 3RSO",
        TWELVE.replace("1RSO", "1GSS").replace("2RSO", "2ROD").replace("3RSO", "3PTS"),
        "1POO",
        "at 12 cards the top three cards of the deck fill the gaps, in order",
    ),
    (
        "1RSO 2RSO 3RSO 1GTS 3POD",
        "",
        "1RSO 2RSO 3RSO",
        "1GTS 3POD",
        "",
        "the deck is empty: nothing is dealt, and the two cards after the new end move into the first two gaps",
    ),
    (
        TWELVE + " 1GSS 2ROD 3PTS",
        "1POO",
        "1GTS 2RSO 3POD",
        "1RSO 1GSS 2ROD 3PTS 3RSO 1PTD 2GOS 2PSD 3GTO 1ROO 2GSO 3PSS",
        "1POO",
        "above 12 cards nothing is dealt: the last three cards move into the gaps",
    ),
]


def _take_cases(
    run: Run, cases: list[tuple[list[Card], list[Card], tuple[Card, ...]]], wants, whys, label
) -> None:
    answers = run.call("take_set", cases, after=True)
    for case, answer, want, why in zip(cases, answers, wants, whys):
        _check(label(case), answer, want, list(case), why)


@tests("test_take_set_visible")
def take_set_visible(run: Run) -> str:
    cases = [(cards(t), cards(d), tuple(cards(c))) for t, d, c, _, _, _ in VISIBLE_TAKE]
    wants = [(cards(t), cards(d)) for _, _, _, t, d, _ in VISIBLE_TAKE]
    whys = [why for *_, why in VISIBLE_TAKE]
    _take_cases(run, cases, wants, whys, lambda case: f"take_set of {_codes(list(case[2]))}")
    return "take_set passed the visible tests."


@tests("test_take_set_hidden")
def take_set_hidden(run: Run) -> str:
    """Every SET taken in seeded games of the engine, standard and competition, fixed and fresh seeds."""
    seeds = [*range(12), _fresh(run)]
    moves = [
        m
        for v in ("standard", "competition")
        for s in seeds
        for m in engine_moves(v, s)
        if m["kind"] == "take"
    ]
    assert any(len(m["table"]) > TABLE for m in moves) and any(not m["deck"] for m in moves)
    cases = [(list(m["table"]), list(m["deck"]), tuple(m["cards"])) for m in moves]

    def label(case: tuple) -> str:
        return (
            f"take_set of ({_codes(list(case[2]))}) from {len(case[0])} cards, {len(case[1])} in the deck "
            f"(seeds 0 to 11 and {seeds[-1]})"
        )

    _take_cases(run, cases, [m["after"] for m in moves], [""] * len(moves), label)
    return f"take_set passed the hidden tests ({len(moves)} SETs taken)."


# -- no_set ----------------------------------------------------------------------------------------


@tests("test_no_set_visible")
def no_set_visible(run: Run) -> str:
    assert not has_set(cards(NO_SETS))
    cases = [
        (cards(NO_SETS), cards("3RTD 3PSD 2GTS 3PTS"), False),
        (cards(NO_SETS), cards("1ROS 1PSO 2RSO 1RSO 1RTO 1RSS 3POD"), True),
    ]
    wants = [
        (cards(NO_SETS + " 3RTD 3PSD 2GTS"), cards("3PTS")),
        (cards(NO_SETS + " 1ROS 1PSO 2RSO 1RSO 1RTO 1RSS"), cards("3POD")),
    ]
    whys = [
        "no_set lays the top three cards of the deck out at the end of the table",
        "online, the first three (1ROS 1PSO 2RSO) make no SET with the table, so three more are dealt, and then there is one",
    ]
    for case, answer, want, why in zip(cases, run.call("no_set", cases, after=True), wants, whys):
        _check(
            f"no_set(<{len(case[0])} cards>, <{len(case[1])} in the deck>, online={case[2]})",
            answer,
            want,
            list(case),
            why,
        )
    return "no_set passed the visible tests."


@tests("test_no_set_hidden")
def no_set_hidden(run: Run) -> str:
    """Every table without a SET in seeded standard games, and every deal of the online rule."""
    seeds = [*range(20), _fresh(run)]
    cases, wants = [], []
    for seed in seeds:
        for m in engine_moves("standard", seed):
            if m["kind"] == "no_set":
                cases.append((list(m["table"]), list(m["deck"]), False))
                wants.append(m["after"])
        for m in engine_moves("online", seed):
            if m["dealt"] and m["kind"] != "start":
                table, deck = m["after"]
                cases.append((table[: -len(m["dealt"])], m["dealt"] + deck, True))
                wants.append(m["after"])
    assert any(case[2] for case in cases)
    for case, answer, want in zip(cases, run.call("no_set", cases, after=True), wants):
        label = f"no_set(<{len(case[0])} cards>, <{len(case[1])} in the deck>, online={case[2]}) (seeds 0 to 19 and {seeds[-1]})"
        _check(label, answer, want, list(case))
    return f"no_set passed the hidden tests ({len(cases)} tables)."


# -- competition_no_set ----------------------------------------------------------------------------


@tests("test_competition_no_set_visible")
def competition_no_set_visible(run: Run) -> str:
    fifteen = NO_SETS + " 1ROS 1PSO 2RSO"
    below = (cards(NO_SETS), cards("2POD 1ROD 3PSO 2GOO"), random.Random(1))
    answer = run.call("competition_no_set", [below], after=True)[0]
    _check(
        "competition_no_set below 15 cards",
        answer,
        (cards(NO_SETS + " 2POD 1ROD 3PSO"), cards("2GOO")),
        list(below),
        "three more",
    )
    at = (cards(fifteen), cards("2POD 1ROD 3PSO"), random.Random(5))
    answer = run.call("competition_no_set", [at], after=True)[0]
    gaps = sorted(random.Random(5).sample(range(15), 6))
    value = answer.value
    if (
        answer.error is not None
        or not _is_table_and_deck(value)
        or (len(value[0]), len(value[1])) != (TABLE, 6)
    ):
        raise Failed(
            f"at 15 cards, six go back and three are dealt: 12 on the table and 6 in the deck. Your function {returned(answer)}."
        )
    kept = [card for p, card in enumerate(cards(fifteen)) if p not in gaps]
    if not all(card in value[0] for card in kept):
        raise Failed(
            f"the cards not at the positions {gaps} stay on the table; your table is {_codes(value[0])}."
        )
    return "competition_no_set passed the visible tests."


@tests("test_competition_no_set_hidden")
def competition_no_set_hidden(run: Run) -> str:
    """Every table without a SET in seeded competition games, with the engine's own generator; and the
    rule applied by the engine to 12 and 15 cards of deals from fixed and fresh seeds."""
    fresh = _fresh(run)
    moves = [m for s in [*range(10), fresh] for m in engine_moves("competition", s) if m["kind"] == "no_set"]
    dealer = random.Random(fresh)
    for seed in [*range(20), fresh]:
        shuffled = dealer.sample(DECK, 81)
        for n in (12, 15):
            state = random.Random(seed * 1000 + n).getstate()
            after = competition_by_engine(shuffled[:n], shuffled[n:], state)
            moves.append({"table": shuffled[:n], "deck": shuffled[n:], "rng": state, "after": after})
    cases = []
    for m in moves:
        generator = random.Random()
        generator.setstate(m["rng"])
        cases.append((list(m["table"]), list(m["deck"]), generator))
    for case, answer, m in zip(cases, run.call("competition_no_set", cases, after=True), moves):
        label = (
            f"competition_no_set(<{len(case[0])} cards>, <{len(case[1])} in the deck>, rng) (seed {fresh})"
        )
        _check(label, answer, m["after"], list(case))
    return f"competition_no_set passed the hidden tests ({len(cases)} tables)."


# -- game_over -------------------------------------------------------------------------------------


def _over_cases(
    run: Run, cases: list[tuple[list[Card], list[Card]]], wants: list[bool], whys: list[str]
) -> None:
    for case, answer, want, why in zip(cases, run.call("game_over", cases, after=True), wants, whys):
        label = f"game_over(<{len(case[0])} cards>, <{len(case[1])} in the deck>)"
        if answer.error is not None or type(answer.value) is not bool or answer.value != want:
            reason = f": {why}" if why else ""
            raise Failed(f"{label} should be {want}{reason}. Your function {returned(answer)}.")
        if answer.args is not None and answer.args != list(case):
            raise Failed(f"{label} changed the lists it was given: it must leave them as they are.")


@tests("test_game_over_visible")
def game_over_visible(run: Run) -> str:
    cases = [
        (cards(NO_SETS), []),
        (cards(NO_SETS), cards("3RTD 3PSD 2GTS")),
        (cards("1RSO 2RSO 3RSO"), []),
        ([], []),
        (cards("1RSO 2RSO"), cards("3PSO")),
    ]
    whys = [
        "no SET on the table and an empty deck: the game is over",
        "a SET can still be made with the deck",
        "there is a SET on the table",
        "no cards at all",
        "no SET can be made from the three cards left, though one is in the deck",
    ]
    _over_cases(run, cases, [True, False, False, True, True], whys)
    return "game_over passed the visible tests."


@tests("test_game_over_hidden")
def game_over_hidden(run: Run) -> str:
    """Every state of seeded standard games, and the cards left at the ends of random deals (some of
    them still in the deck)."""
    cases, wants = [], []
    for seed in [*range(6), _fresh(run)]:
        for m in engine_moves("standard", seed):
            cases.append(tuple(list(part) for part in m["after"]))
            wants.append(m.get("over", False))
        left = random.Random(seed).sample(DECK, 21)
        for k in range(0, 22, 3):
            cases.append((left[:k], []))
            wants.append(not has_set(left[:k]))
            if k:
                # The same cards, three of them still in the deck: over when no SET can be made
                # from all of them, whatever lies on the table.
                cases.append((left[: k - 3], left[k - 3 : k]))
                wants.append(not has_set(left[:k]))
    assert any(wants) and not all(wants)
    _over_cases(run, cases, wants, [""] * len(cases))
    return f"game_over passed the hidden tests ({len(cases)} states)."


# -- play_solitaire --------------------------------------------------------------------------------


def _solitaire(run: Run, seeds: list[int]) -> None:
    wants = []
    for seed in seeds:
        moves = engine_moves("solitaire", seed)
        wants.append(
            ([m["cards"] for m in moves if m["kind"] == "take"], moves[-1]["after"][0], moves[-1]["lost"])
        )
    for seed, answer, (sets, table, lost) in zip(
        seeds, run.call("play_solitaire", [(s,) for s in seeds]), wants
    ):
        value = answer.value
        if answer.error is not None or type(value) is not tuple or len(value) != 3:
            raise Failed(
                f"play_solitaire({seed}) should return (sets, table, lost). Your function {returned(answer)}."
            )
        got_sets, got_table, got_lost = value
        if type(got_sets) is not list or not all(
            type(t) is tuple and len(t) == 3 and all(type(c) is Card for c in t) for t in got_sets
        ):
            raise Failed(
                f"play_solitaire({seed}): sets should be a list of tuples of three Cards; yours is {show(got_sets)}."
            )
        if got_sets != sets:
            raise Failed(
                f"play_solitaire({seed}): the engine takes {len(sets)} SETs, starting {show(sets[:2])}; you took {len(got_sets)}, starting {show(got_sets[:2])}."
            )
        if type(got_table) is not list or got_table != table:
            raise Failed(
                f"play_solitaire({seed}): the engine ends with {_codes(table)} on the table; yours is {show(got_table)}."
            )
        if type(got_lost) is not bool or got_lost != lost:
            raise Failed(f"play_solitaire({seed}): lost should be {lost}; yours is {got_lost!r}.")


@tests("test_play_solitaire_visible")
def play_solitaire_visible(run: Run) -> str:
    _solitaire(run, [0, 2028, 1])
    return "play_solitaire passed the visible tests."


@tests("test_play_solitaire_hidden")
def play_solitaire_hidden(run: Run) -> str:
    fresh = _fresh(run)
    seeds = [*range(100, 140), fresh, fresh + 1]
    _solitaire(run, seeds)
    return f"play_solitaire passed the hidden tests ({len(seeds)} games, seeds 100 to 139, {fresh} and {fresh + 1})."
