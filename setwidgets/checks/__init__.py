"""Instant checks for the exercises: run your function on examples and get a hint.

In an exercise notebook, after writing ``is_set``::

    from setwidgets.checks import check_is_set
    check_is_set(is_set)

Each check calls your function on a list of cases, stops at the first case it
gets wrong and says why in plain words, for example::

    ✗ is_set(1RSO, 2RSO, 3RSO) returned False, but all different numbers,
      same color, same shape and same shading: that is a SET.

or, when every case passes::

    ✓ is_set passed all 61 checks.

The checks are for practice and are not graded. The graded tests in the
exercise notebooks use other cases, so passing a check is a good sign, not a
promise. Every check returns a :class:`CheckResult`, which is true when all
cases passed.

Available checks: :func:`check_is_set`, :func:`check_odd_one_out`,
:func:`check_third_card` (for ``third_card`` and ``third_card_mod3``), :func:`check_third_vector`,
:func:`check_count_sets`, :func:`check_first_set`, :func:`check_all_sets`,
:func:`check_take_set`, :func:`check_no_set`, :func:`check_competition_no_set`,
:func:`check_game_over`, :func:`check_play_solitaire`; for planes :func:`check_plane`,
:func:`check_magic_square` and :func:`check_lines_through`; for probability
:func:`check_set_probability`, :func:`check_expected_sets`,
:func:`check_simulate_no_set_rate` and :func:`check_confidence_interval`; for caps
:func:`check_is_set_free`, :func:`check_greedy_cap` and :func:`check_largest_mini_cap`.

The checks of each exercise live in a module named after its folder in ``exercises/``
(``setwidgets.checks.ex1_magic_rule`` ... ``setwidgets.checks.ex7_caps``), and how a check runs
in :mod:`setwidgets.checks.runner`; ``help()`` on any of them says more.
"""

from setwidgets.checks.ex1_magic_rule import check_is_set, check_odd_one_out
from setwidgets.checks.ex2_third_card import check_count_sets, check_third_card, check_third_vector
from setwidgets.checks.ex3_finding_sets import check_all_sets, check_first_set
from setwidgets.checks.ex4_the_dealer import (
    check_competition_no_set,
    check_game_over,
    check_no_set,
    check_play_solitaire,
    check_take_set,
    competition_by_engine,
    engine_moves,
)
from setwidgets.checks.ex5_planes import check_lines_through, check_magic_square, check_plane
from setwidgets.checks.ex6_probability import (
    INTERVAL_TOLERANCE,
    NO_SET_RATES,
    TOLERANCE_SE,
    Z95,
    check_confidence_interval,
    check_expected_sets,
    check_set_probability,
    check_simulate_no_set_rate,
    no_set_tolerance,
)
from setwidgets.checks.ex7_caps import check_greedy_cap, check_is_set_free, check_largest_mini_cap
from setwidgets.checks.runner import DEFAULT_SECONDS, SET_ASIDE, CheckResult

__all__ = [
    "DEFAULT_SECONDS",
    "INTERVAL_TOLERANCE",
    "NO_SET_RATES",
    "SET_ASIDE",
    "TOLERANCE_SE",
    "Z95",
    "CheckResult",
    "check_all_sets",
    "check_competition_no_set",
    "check_confidence_interval",
    "check_count_sets",
    "check_expected_sets",
    "check_first_set",
    "check_game_over",
    "check_greedy_cap",
    "check_is_set",
    "check_is_set_free",
    "check_largest_mini_cap",
    "check_lines_through",
    "check_magic_square",
    "check_no_set",
    "check_odd_one_out",
    "check_plane",
    "check_play_solitaire",
    "check_set_probability",
    "check_simulate_no_set_rate",
    "check_take_set",
    "check_third_card",
    "check_third_vector",
    "competition_by_engine",
    "engine_moves",
    "no_set_tolerance",
]
