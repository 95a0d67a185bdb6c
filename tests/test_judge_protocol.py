"""The judged tests' protocol word for word: what the kernel encodes, what the grader reads and says.

``compute.call`` plays the kernel, in this process; the grader's side is :mod:`setwidgets.grading.judge`.
A student controls the kernel, so every reply the grader reads may be forged: the tests here send it
malformed, hostile and oversized replies too, and check that none of them is read as a pass.
"""

from __future__ import annotations

import array
import json
import random
import types
from fractions import Fraction

import numpy as np
import pytest

from setwidgets import Card
from setwidgets.grading import compute, judge
from setwidgets.grading.judge import (
    Answer,
    Failed,
    NoAnswer,
    Opaque,
    Run,
    Seed,
    Tests,
    Verdict,
    call_text,
    compare,
    decode,
    encode_request,
    expect,
    parse_reply,
    show,
)

A, B, C = Card.parse("1RSO"), Card.parse("2RSO"), Card.parse("3RSO")
TOO_MANY = "the answer holds more than 200,000 values"
TOO_DEEP = "the answer nests more than 12 levels deep"


def kernel(namespace: dict):
    """``ask`` for a notebook whose namespace is ``namespace``."""
    return lambda request: compute.call(request, namespace)


def reply(function, *cases, kwargs=None, after=False, count=()):
    """The kernel's reply, as data, to a request for ``function`` on ``cases`` (each a list of arguments)."""
    request = {
        "function": "f",
        "cases": [[list(case), kwargs or {}] for case in cases],
        "after": after,
        "count": list(count),
    }
    return json.loads(compute.call(json.dumps(request), {"f": function}))


def answers(text: str, cases: int = 1) -> list[Answer]:
    return parse_reply(text, cases, "f")


def one(value) -> Answer:
    """The grader's reading of a kernel's reply holding one answer, ``{"value": value}``."""
    return parse_reply(json.dumps({"answers": [{"value": value}]}), 1, "f")[0]


def opaque(value) -> tuple[str, str]:
    """The type and text of what :func:`decode` made of ``value``, which must be opaque."""
    got = decode(value)
    assert type(got) is Opaque
    return got.type, got.text


def nested(value, levels: int, wrap=lambda inner: [inner]):
    for _ in range(levels):
        value = wrap(value)
    return value


# -- the encoding, exactly ------------------------------------------------------------------


class Thing:
    def __repr__(self) -> str:
        return "<thing>"


@pytest.mark.parametrize(
    ("value", "data"),
    [
        (None, None),
        (True, True),
        (0, 0),
        (-7, -7),
        (2**200, 2**200),
        (2.5, 2.5),
        ("couleur é ♦ 🃏", "couleur é ♦ 🃏"),
        (A, {"card": "1RSO"}),
        ((A, 1), {"tuple": [{"card": "1RSO"}, 1]}),
        ([A, [True]], [{"card": "1RSO"}, [True]]),
        ({3}, {"set": [3]}),
        (frozenset({3}), {"frozenset": [3]}),  # kept apart from a set: the judge wants the kind asked for
        ({"x": (1,)}, {"dict": [["x", {"tuple": [1]}]]}),
        (Fraction(-2, 6), {"fraction": [-1, 3]}),
        (Thing(), {"object": ["Thing", "<thing>"]}),
        (float("nan"), {"object": ["float", "nan"]}),
        (float("inf"), {"object": ["float", "inf"]}),
        (float("-inf"), {"object": ["float", "-inf"]}),
    ],
    ids=repr,
)
def test_each_kind_of_value_is_encoded_with_its_own_tag(value, data):
    encoded = compute.encode(value)
    assert encoded == data and json.loads(json.dumps(encoded)) == data


def test_a_value_that_is_none_of_the_encodings_kinds_is_named_by_its_type_and_repr():
    long_name = type("N" * 81, (), {"__repr__": lambda self: "r"})
    assert compute.encode(long_name()) == {"object": ["N" * 80, "r"]}


def test_a_repr_of_200_characters_is_kept_and_a_longer_one_is_cut_to_200_with_dots():
    def shown(text):
        return compute.encode(type("Shown", (), {"__repr__": lambda self: text})())["object"][1]

    assert shown("x" * 200) == "x" * 200
    assert shown("x" * 199 + "y" + "z") == "x" * 197 + "..."


def test_a_broken_repr_is_named_by_its_error_not_raised():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no")

    assert compute.encode(Broken()) == {"object": ["Broken", "<repr failed: RuntimeError>"]}


def test_a_string_up_to_the_longest_kept_is_whole_and_a_longer_one_is_cut_and_marked():
    assert compute.encode("é" * compute.MAX_TEXT) == "é" * compute.MAX_TEXT
    longer = "é" * (compute.MAX_TEXT + 1)
    assert compute.encode(longer) == "é" * compute.MAX_TEXT + " [cut: longer than 2,000 characters]"


def test_a_cut_string_equals_no_string_of_its_first_characters():
    """A wanted answer of 2,000 characters is not met by a longer string that starts with it."""
    wanted = "x" * compute.MAX_TEXT
    reply = compute.call(json.dumps({"function": "f", "cases": [[[], {}]]}), {"f": lambda: wanted + "y"})
    (answer,) = parse_reply(reply, 1, "f")
    assert answer.value != wanted and answer.value.startswith(wanted)


def test_an_integer_too_large_for_json_comes_as_an_object_named_by_its_size():
    """Python's JSON reads no integer of more than 4,300 digits: the whole reply would be lost."""
    largest = 2**compute.MAX_INT_BITS - 1
    assert compute.encode(largest) == largest and compute.encode(-largest) == -largest
    assert compute.encode(2**compute.MAX_INT_BITS) == {"object": ["int", "an integer of 13,001 bits"]}
    assert compute.encode(-(2**compute.MAX_INT_BITS)) == {"object": ["int", "an integer of 13,001 bits"]}
    reply = compute.call(
        json.dumps({"function": "f", "cases": [[[], {}], [[], {}]]}), {"f": lambda: 10**5000}
    )
    answers = parse_reply(reply, 2, "f")
    assert [str(a.value) for a in answers] == ["<int: an integer of 16,610 bits>"] * 2
    assert json.loads(
        compute.call(json.dumps({"function": "f", "cases": [[[], {}]]}), {"f": lambda: largest})
    )


def test_numpy_values_are_encoded_as_their_plain_values():
    assert compute.encode(np.array([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    for value, plain in ((np.int64(3), 3), (np.float64(2.5), 2.5), (np.bool_(True), True)):
        encoded = compute.encode(value)
        assert encoded == plain and type(encoded) is type(plain)


def test_an_object_with_tolist_that_is_not_numpys_is_opaque():
    class Fake:
        def tolist(self):
            return [1]

        def __repr__(self):
            return "Fake()"

    assert compute.encode(Fake()) == {"object": ["Fake", "Fake()"]}
    assert compute.encode(array.array("i", [1, 2])) == {"object": ["array", "array('i', [1, 2])"]}


def test_each_value_counts_once_against_the_budget_containers_and_their_items_alike():
    cases = [
        (7, 1),
        ([1, 2, 3], 4),
        ((1, 2, 3), 4),
        ({1, 2, 3}, 4),
        ({1: 2, 3: 4}, 5),
        ([{"a": (A,)}], 5),
        (np.arange(10), 12),  # the array, then its list and the list's ten items
    ]
    for value, spent in cases:
        budget = [100]
        compute.encode(value, budget)
        assert budget == [100 - spent], value


@pytest.mark.parametrize(
    "value",
    [list(range(9)), tuple(range(9)), set(range(9)), {0: 0, 1: 0, 2: 0, 3: (0,)}],
    ids=["list", "tuple", "set", "dict"],
)
def test_a_container_fits_a_budget_of_its_values_and_not_one_less(value):
    compute.encode(value, [10])
    with pytest.raises(compute.TooBig) as error:
        compute.encode(value, [9])
    assert str(error.value) == TOO_MANY


def test_the_keys_and_the_values_of_a_dict_both_count():
    compute.encode({(1, 2, 3): 0}, [6])
    compute.encode({0: (1, 2, 3)}, [6])
    for value in ({(1, 2, 3): 0}, {0: (1, 2, 3)}):
        with pytest.raises(compute.TooBig):
            compute.encode(value, [5])


def test_a_numpy_array_counts_against_the_budget():
    with pytest.raises(compute.TooBig):
        compute.encode(np.arange(10), [11])


def tuples(inner):
    return (inner,)


def sets(inner):
    return frozenset({inner})


@pytest.mark.parametrize(
    "wrap",
    [
        lambda inner: [inner],
        tuples,
        sets,
        lambda inner: {"k": inner},
    ],
    ids=["list", "tuple", "set", "dict value"],
)
def test_twelve_levels_of_nesting_are_read_and_thirteen_are_too_deep(wrap):
    assert compute.encode(nested(1, 12, wrap)) is not None
    with pytest.raises(compute.TooBig) as error:
        compute.encode(nested(1, 13, wrap))
    assert str(error.value) == TOO_DEEP


def test_a_dict_key_is_one_level_deeper_than_its_dict():
    compute.encode({nested(1, 11, tuples): 0})
    with pytest.raises(compute.TooBig):
        compute.encode({nested(1, 12, tuples): 0})


def test_a_numpy_array_nests_as_deep_as_its_lists():
    compute.encode(nested(np.array([[1]]), 10))
    with pytest.raises(compute.TooBig):
        compute.encode(nested(np.array([[1]]), 11))


# -- the kernel's reply ---------------------------------------------------------------------


def test_the_kernel_answers_each_case_with_its_value():
    text = compute.call(
        json.dumps({"function": "f", "cases": [[[1], {}], [[{"card": "1RSO"}], {}]]}),
        {"f": lambda x: (x, [x])},
    )
    assert text == (
        '{"answers": [{"value": {"tuple": [1, [1]]}}, '
        '{"value": {"tuple": [{"card": "1RSO"}, [{"card": "1RSO"}]]}}]}'
    )


def test_a_name_that_is_no_function_of_the_notebook_is_missing():
    for namespace in ({}, {"f": 3}):
        text = compute.call(json.dumps({"function": "f", "cases": [[[], {}]]}), namespace)
        assert json.loads(text) == {"missing": "there is no function f in the notebook (run its cell?)"}


def test_keyword_arguments_reach_the_function_decoded():
    got = reply(lambda x, card: (x, card.code, type(card) is Card), [1], kwargs={"card": {"card": "2RSO"}})
    assert got == {"answers": [{"value": {"tuple": [1, "2RSO", True]}}]}


def test_an_error_is_the_exception_line_and_its_notes_cut_to_the_longest_text():
    def noted():
        error = ValueError("bad")
        error.add_note("a note")
        raise error

    assert reply(noted, [])["answers"] == [{"error": "ValueError: bad\na note"}]
    assert reply(lambda: 1 / 0, [])["answers"] == [{"error": "ZeroDivisionError: division by zero"}]

    def long():
        raise KeyError("k" * 3000)

    assert reply(long, [])["answers"] == [{"error": ("KeyError: '" + "k" * 3000)[: compute.MAX_TEXT]}]


def test_sys_exit_in_the_students_function_is_that_cases_error():
    def leaves():
        raise SystemExit(3)

    assert reply(leaves, [], [])["answers"] == [{"error": "SystemExit: 3"}] * 2


def test_an_answer_of_exactly_the_most_values_is_sent_and_one_more_is_too_big():
    assert len(reply(lambda: [0] * 199_999, [])["answers"][0]["value"]) == 199_999
    assert reply(lambda: [0] * 200_000, [])["answers"] == [{"error": f"TooBig: {TOO_MANY}"}]


def test_all_cases_of_a_request_share_one_budget_of_values():
    got = reply(lambda: [0] * 100_000, [], [])["answers"]
    assert len(got[0]["value"]) == 100_000 and got[1] == {"error": f"TooBig: {TOO_MANY}"}


def test_the_arguments_after_the_call_count_against_the_same_budget():
    got = reply(lambda xs: [0] * 199_990, [list(range(10))], after=True)["answers"]
    assert got == [{"error": f"TooBig: {TOO_MANY}"}]
    fits = reply(lambda xs: [0] * 199_980, [list(range(10))], after=True)["answers"][0]
    assert fits["args"] == [list(range(10))]


def test_too_deep_an_answer_is_an_error_of_its_case():
    assert reply(lambda: nested(1, 13), [])["answers"] == [{"error": f"TooBig: {TOO_DEEP}"}]


def test_counts_are_sent_per_case_and_a_counted_helper_keeps_its_keyword_arguments():
    namespace: dict = {"helper": lambda x, *, scale=1: x * scale}
    namespace["f"] = lambda n: sum(namespace["helper"](i, scale=10) for i in range(n))
    request = {"function": "f", "cases": [[[2], {}], [[0], {}]], "count": ["helper", "absent"]}
    got = json.loads(compute.call(json.dumps(request), namespace))
    assert got == {
        "answers": [
            {"value": 10, "counts": {"helper": 2, "absent": 0}},
            {"value": 0, "counts": {"helper": 0, "absent": 0}},
        ]
    }


def test_without_a_namespace_the_kernel_calls_the_notebooks_functions(monkeypatch):
    import IPython

    shell = types.SimpleNamespace(user_ns={"f": lambda x: x + 1})
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    assert compute.call(json.dumps({"function": "f", "cases": [[[1], {}]]})) == '{"answers": [{"value": 2}]}'


def test_the_kernel_rejects_a_request_value_it_does_not_know_by_name():
    with pytest.raises(ValueError) as error:
        compute.decode_request({"object": ["x", "y"]})
    assert str(error.value) == "unknown value in a grading request: 'object'"


def test_each_card_code_is_parsed_once_in_the_kernel():
    assert compute.card_of("3GTD") is compute.card_of("3GTD")
    assert compute.card_of("3GTD") == Card.parse("3GTD")


# -- round trips ----------------------------------------------------------------------------

ROUND_TRIP = [
    None,
    True,
    False,
    0,
    1,
    -(2**70),
    10**300,
    0.1,
    -0.0,
    1e308,
    "",
    'ünïcødé ♦ \u2028 🃏 \\ "',
    A,
    (),
    (A,),
    [],
    [A, (B, [C])],
    (1, [2, (3,)]),
    frozenset(),
    frozenset({A, B}),
    frozenset({(1, 2), frozenset({3})}),
    {},
    {A: [B], (1, 2): {"x": Fraction(1, 3)}},
    Fraction(-7, 3),
    Fraction(10**30, 7),
    [True, 1, 1.0, Fraction(1)],
]


@pytest.mark.parametrize("value", ROUND_TRIP, ids=repr)
def test_a_returned_value_reaches_the_grader_equal_and_of_the_same_type_all_the_way_down(value):
    got = one(compute.encode(value)).value
    assert kinds(got) == kinds(value) and got == value


SENDABLE = ROUND_TRIP  # a frozenset of frozensets too (it once came to the kernel as a set of sets)


@pytest.mark.parametrize("value", SENDABLE, ids=repr)
def test_a_value_sent_to_the_kernel_and_returned_comes_back_as_sent(value):
    text = compute.call(
        json.dumps({"function": "f", "cases": [[[encode_request(value)], {}]]}), {"f": lambda x: x}
    )
    got = parse_reply(text, 1, "f")[0].value
    assert kinds(got) == kinds(value) and got == value


def kinds(value):
    """The value with each part replaced by its type, to compare types all the way down."""
    if isinstance(value, (list, tuple)):
        return type(value), [kinds(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return type(value), sorted(repr(kinds(item)) for item in value)
    if isinstance(value, dict):
        return dict, sorted(repr((kinds(k), kinds(v))) for k, v in value.items())
    return type(value)


def test_a_set_comes_back_a_set_and_a_fraction_comes_back_a_fraction_not_a_float():
    assert type(one(compute.encode({A})).value) is set
    assert type(one(compute.encode(frozenset({A}))).value) is frozenset
    got = one(compute.encode(Fraction(1, 3))).value
    assert type(got) is Fraction and got == Fraction(1, 3)


def test_a_generator_sent_to_the_kernel_is_in_the_same_state_and_a_seed_a_fresh_one():
    generator = random.Random(5)
    generator.random()
    sent = encode_request(generator)
    assert sent["random_state"][0] == 3 and len(sent["random_state"][1]) == 625
    rebuilt = compute.decode_request(json.loads(json.dumps(sent)))
    assert rebuilt.random() == generator.random()
    assert encode_request(Seed(7)) == {"random": 7}
    assert compute.decode_request({"random": 7}).random() == random.Random(7).random()


def test_a_request_encodes_cards_even_of_a_subclass_as_their_code():
    class Special(Card):
        __slots__ = ()

    assert encode_request(A) == {"card": "1RSO"}
    assert encode_request(Special.parse("2GTD")) == {"card": "2GTD"}
    assert encode_request([(A,), {B}, {1: Fraction(1, 2)}]) == [
        {"tuple": [{"card": "1RSO"}]},
        {"set": [{"card": "2RSO"}]},
        {"dict": [[1, {"fraction": [1, 2]}]]},
    ]


# -- what the grader makes of a reply, forged or not ------------------------------------------


def test_a_dict_in_a_reply_must_hold_exactly_one_tag():
    assert opaque({}) == ("dict", "malformed")
    assert opaque({"card": "1RSO", "tuple": []}) == ("dict", "malformed")
    assert repr(decode({"a": 1, "b": 2})) == "<dict: malformed>"


def test_an_opaque_object_keeps_its_type_and_text_cut_to_80_and_200_characters():
    assert opaque({"object": ["Thing", "<thing>"]}) == ("Thing", "<thing>")
    assert opaque({"object": [1, None]}) == ("1", "None")
    assert opaque({"object": ["T" * 80 + "U", "x" * 200 + "y"]}) == ("T" * 80, "x" * 200)


@pytest.mark.parametrize(
    ("value", "key"),
    [
        ({"card": "9ZZZ"}, "card"),
        ({"card": 5}, "card"),
        ({"card": ["1RSO"]}, "card"),
        ({"tuple": 5}, "tuple"),
        ({"tuple": None}, "tuple"),
        ({"set": [[1]]}, "set"),
        ({"set": 5}, "set"),
        ({"dict": [[[1], 2]]}, "dict"),
        ({"dict": [[1, 2, 3]]}, "dict"),
        ({"fraction": [1, 0]}, "fraction"),
        ({"fraction": [1]}, "fraction"),
        ({"fraction": ["a", 2]}, "fraction"),
        ({"fraction": [1e300 * 1e10, 1]}, "fraction"),  # int(inf): OverflowError
        ({"namedtuple": ["T", [f"f{n}" for n in range(65)], [0] * 65]}, "namedtuple"),
        ({"namedtuple": ["T" * 81, ["x"], [0]]}, "namedtuple"),
        ({"namedtuple": ["T", ["x" * 81], [0]]}, "namedtuple"),
        ({"namedtuple": [["T"], ["x"], [0]]}, "namedtuple"),
        ({"object": ["only a type"]}, "object"),
        ({"object": None}, "object"),
        ({"random": 7}, "random"),
        ({"passed": True}, "passed"),
        ({"k" * 81: 1}, "k" * 80),
    ],
    ids=repr,
)
def test_a_malformed_or_unknown_tag_is_opaque_under_its_name(value, key):
    assert opaque(value) == (key, "malformed")


def test_an_opaque_value_equals_nothing_not_even_itself_but_hashes_by_its_type_and_text():
    value = Opaque("int", "1")
    assert value != value and value != 1 and not judge.same(value, 1)  # noqa: PLR0124 - the point is ==
    assert hash(value) == hash(("int", "1")) != hash(Opaque("int", "2"))


def test_a_reply_up_to_the_most_characters_is_read_and_a_longer_one_is_not():
    text = json.dumps({"answers": [{"value": True}]})
    at_most = text + " " * (judge.MAX_REPLY - len(text))
    assert parse_reply(at_most, 1, "f")[0].value is True
    with pytest.raises(NoAnswer) as error:
        parse_reply(at_most + " ", 1, "f")
    assert str(error.value) == "the answer is bigger than the grader reads (8,388,608 characters)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "the kernel's answer is not readable (JSONDecodeError)"),
        ("", "the kernel's answer is not readable (JSONDecodeError)"),
        ("[" * 100_000 + "]" * 100_000, "the kernel's answer is not readable (RecursionError)"),
        ('{"answers": [{"value": ' + "1" * 4301 + "}]}", "the kernel's answer is not readable (ValueError)"),
        ("[]", "the kernel's answer is not readable"),
        ("null", "the kernel's answer is not readable"),
        ('"passed"', "the kernel's answer is not readable"),
        ('{"answers": [true]}', "the kernel's answer is not readable"),
        ('{"answers": [[{"value": true}]]}', "the kernel's answer is not readable"),
        ('{"passed": true}', "the kernel's answer does not have one entry per case"),
        ('{"answers": {"value": true}}', "the kernel's answer does not have one entry per case"),
        ('{"answers": []}', "the kernel's answer does not have one entry per case"),
        ('{"answers": [{"value": 1}, {"value": 1}]}', "the kernel's answer does not have one entry per case"),
    ],
    ids=lambda text: text[:40],
)
def test_a_reply_the_grader_cannot_read_is_no_answer_and_says_why(text, message):
    with pytest.raises(NoAnswer) as error:
        parse_reply(text, 1, "f")
    assert str(error.value) == message


def test_a_missing_function_fails_with_the_graders_sentence_whatever_the_kernel_wrote():
    for said in ("m" * 301, ["no f"], "<b>full marks</b>"):
        with pytest.raises(Failed) as error:
            parse_reply(json.dumps({"missing": said, "answers": [{"value": 1}]}), 1, "is_set")
        assert str(error.value) == "there is no function is_set in the notebook (run its cell?)"


def test_an_answer_is_read_as_value_error_arguments_and_counts_and_nothing_else():
    text = json.dumps(
        {
            "answers": [
                {
                    "value": {"card": "1RSO"},
                    "args": [[{"card": "2RSO"}]],
                    "counts": {"h": 3},
                    "verdict": "pass",
                },
                {"error": "ValueError: x", "passed": True},
                {},
            ],
            "score": 100,
        }
    )
    assert answers(text, 3) == [
        Answer(value=A, args=[[B]], counts={"h": 3}),
        Answer(error="ValueError: x"),
        Answer(),
    ]


def test_an_error_key_is_an_error_whatever_it_holds_and_is_cut_to_the_longest_text():
    got = answers(json.dumps({"answers": [{"value": True, "error": None}, {"error": ["x" * 3000]}]}), 2)
    assert got[0].error == "None" and got[0].value is True
    assert got[1].error == ("['" + "x" * 3000)[: compute.MAX_TEXT]


def test_only_whole_counts_are_kept_and_counts_that_are_not_a_dict_are_none():
    text = json.dumps(
        {
            "answers": [
                {"counts": {"h": 2, "t": True, "f": 1.0, "s": "3", "n": None}},
                {"counts": [1, 2]},
                {"counts": "h"},
                {"counts": 0},
                {"counts": None},
            ]
        }
    )
    assert [answer.counts for answer in answers(text, 5)] == [{"h": 2}, {}, {}, {}, {}]
    assert judge._counts({"h": 2, "t": True, 1: 4}) == {"h": 2, "1": 4}
    assert judge._counts([("h", 2)]) == {}


# -- a run, and the verdict -------------------------------------------------------------------


def test_the_request_names_the_function_its_cases_and_what_to_count():
    sent = []

    def ask(request):
        sent.append(json.loads(request))
        return json.dumps({"answers": [{"value": None}]})

    run = Run(ask, seed=1)
    assert run.call("is_set", [(A, B, C)]) == [Answer()]
    run.call("deal", [[Seed(3)]], after=True, count=["shuffle"])
    assert sent == [
        {
            "function": "is_set",
            "cases": [[[{"card": "1RSO"}, {"card": "2RSO"}, {"card": "3RSO"}], {}]],
            "after": False,
            "count": [],
        },
        {"function": "deal", "cases": [[[{"random": 3}], {}]], "after": True, "count": ["shuffle"]},
    ]


def test_the_arguments_after_the_call_are_sent_only_when_asked():
    run = Run(kernel({"f": lambda cards: cards.pop()}), seed=1)
    assert run.call("f", [([A, B],)]) == [Answer(value=B)]
    assert run.call("f", [([A, B],)], after=True) == [Answer(value=B, args=[[A]])]


def test_a_run_without_a_seed_draws_one_below_a_billion_and_its_randomness_comes_from_it():
    seeds = [Run(kernel({})).seed for _ in range(200)]
    assert all(type(seed) is int and 0 <= seed < 10**9 for seed in seeds)
    assert max(seeds) >= 10**6 and len(set(seeds)) > 190
    run = Run(kernel({}), seed=5)
    assert run.seed == 5 and run.rng.random() == random.Random(5).random()


def test_a_run_is_random_only_once_its_randomness_is_used_and_starts_with_no_flags():
    run = Run(kernel({}), seed=5)
    assert run.random is False and run.flags == []
    assert run.rng.random() == random.Random(5).random()
    run.flag("look")
    assert run.random is True and run.flags == ["look"]


def _flags_then(outcome):
    def test(run):
        run.flag("first")
        run.flag("second")
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    return test


@pytest.mark.parametrize(
    ("outcome", "verdict"),
    [
        ("all good", Verdict(True, "all good", ["first", "second"], 5)),
        (Failed("wrong"), Verdict(False, "wrong", ["first", "second"], 5)),
        (
            NoAnswer("it stopped"),
            Verdict(
                False, "The grader got no answer from your notebook: it stopped.", ["first", "second"], 5
            ),
        ),
    ],
    ids=["passed", "failed", "no answer"],
)
def test_a_verdict_holds_the_outcome_the_sentence_the_flags_and_the_seed(outcome, verdict):
    assert judge.judge(_flags_then(outcome), kernel({}), seed=5) == verdict


def test_a_forged_reply_claiming_a_pass_is_judged_by_its_data_only():
    def test(run):
        got = run.call("is_set", [(A, B, C)])
        compare(run, "is_set", [(A, B, C)], got, [True])
        return "passed"

    forged = [
        {"answers": [{"value": "True"}], "passed": True},
        {"answers": [{"value": 1}]},
        {"answers": [{"value": {"object": ["bool", "True"]}}]},
        {"answers": [{"value": {"bool": True}}]},
        {"answers": [{"value": [True]}]},
        {"answers": [{"value": True, "error": ""}]},
        {"answers": [{"verdict": True}]},
        {"verdict": {"passed": True}},
    ]
    for data in forged:
        verdict = judge.judge(test, lambda request, data=data: json.dumps(data), seed=1)
        assert not verdict.passed, data
    assert judge.judge(test, lambda request: json.dumps({"answers": [{"value": True}]})).passed


def test_a_forged_named_tuple_of_many_fields_makes_no_class(monkeypatch):
    # The kernel carries at most 64 fields; a forged answer of 600,000 cost the grader 1.2 GB once.
    made = []
    monkeypatch.setattr(judge.compute, "namedtuple_class", lambda *a: made.append(a))
    fields = [f"f{n}" for n in range(600_000)]
    (answer,) = parse_reply(json.dumps({"answers": [{"value": {"namedtuple": ["T", fields, [0]]}}]}), 1, "f")
    assert (answer.value.type, answer.value.text, made) == ("namedtuple", "malformed", [])


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"])
def test_a_reply_with_a_number_that_is_not_finite_is_no_answer(number):
    # The kernel sends a float that is not finite as an object ({"object": ["float", "nan"]}).
    for reply in (
        f'{{"answers": [{{"value": {number}}}]}}',
        f'{{"answers": [{{"value": {{"fraction": [{number}, 1]}}}}]}}',
    ):
        with pytest.raises(NoAnswer, match="not readable"):
            parse_reply(reply, 1, "f")


def test_a_test_that_breaks_on_the_answers_fails_alone_with_a_sentence_and_a_flag():
    def breaks(run):
        (answer,) = run.call("greedy_cap", [()])
        return f"{len({tuple(answer.value)})} caps"  # lists in a set: TypeError

    verdict = judge.judge(breaks, kernel({"greedy_cap": lambda: [[1], [2]]}), seed=3)
    assert not verdict.passed and verdict.seed == 3
    assert verdict.message == (
        "The grader could not judge your function's answers: they made the test fail (TypeError). "
        "Check that your function returns what the exercise asks for."
    )
    assert verdict.flags == [
        "the test itself raised TypeError on the answers (unhashable type: 'list'): read them"
    ]


def test_the_grader_never_reads_a_reply_bigger_than_it_allows():
    def test(run):
        run.call("f", [()])
        return "passed"

    huge = json.dumps({"answers": [{"value": "x" * judge.MAX_REPLY}]})
    verdict = judge.judge(test, lambda request: huge, seed=1)
    assert verdict == Verdict(
        False,
        "The grader got no answer from your notebook: "
        "the answer is bigger than the grader reads (8,388,608 characters).",
        [],
        1,
    )


# -- the messages -----------------------------------------------------------------------------


def test_a_value_is_shown_whole_up_to_its_width_and_cut_with_dots_beyond():
    assert show("x" * 298) == "'" + "x" * 298 + "'"
    assert show("x" * 299) == "'" + "x" * 296 + "..."
    assert show(list(range(5)), 15) == "[0, 1, 2, 3, 4]"
    assert show(list(range(6)), 15) == "[0, 1, 2, 3,..."


def test_seeds_generators_and_fractions_are_shown_as_the_course_writes_them():
    assert (
        show([Seed(7), random.Random(1), Fraction(1, 3), (A,)])
        == "[random.Random(7), rng, Fraction(1, 3), (1RSO,)]"
    )


def test_a_call_is_written_with_its_arguments_each_cut_to_120_and_the_whole_to_400():
    assert call_text("is_set", (A, B, C)) == "is_set(1RSO, 2RSO, 3RSO)"
    assert call_text("XOR", (True, None)) == "XOR(True, None)"
    arg = str(list(range(100)))[:117] + "..."
    assert call_text("f", (list(range(100)),)) == f"f({arg})"
    whole = f"f({arg}, {arg}, {arg}, {arg})"
    assert call_text("f", (list(range(100)),) * 4) == whole[:397] + "..."
    assert len(call_text("f", (list(range(100)),) * 4)) == 400


def test_a_call_written_in_400_characters_is_whole_and_one_in_401_is_cut():
    name = "f" * (400 - len("(1)"))
    assert call_text(name, (1,)) == name + "(1)"
    assert call_text(name + "f", (1,)) == (name + "f(1)")[:397] + "..."


def test_a_call_with_a_string_is_written_with_the_string_s_quotes_only():
    assert call_text("f", ("x",)) == "f('x')"
    assert call_text("f", ("it's",)) == 'f("it\'s")'


def test_a_reply_nested_deeper_than_the_kernel_sends_is_no_answer_not_a_crash():
    """The kernel sends 12 levels at most; a deeper reply is forged, and read no further."""
    twelve = "[" * compute.MAX_DEPTH + "1" + "]" * compute.MAX_DEPTH
    (answer,) = parse_reply(f'{{"answers": [{{"value": {twelve}, "args": {twelve}}}]}}', 1, "f")
    assert answer.value == answer.args == json.loads(twelve)
    tuples = '{"tuple": [' * compute.MAX_DEPTH + "1" + "]}" * compute.MAX_DEPTH
    nested: object = 1
    for _ in range(compute.MAX_DEPTH):
        nested = (nested,)
    assert parse_reply(f'{{"answers": [{{"value": {tuples}}}]}}', 1, "f")[0].value == nested
    assert compute.encode(nested) == json.loads(tuples)
    for depth in (compute.MAX_DEPTH + 1, 900, 5000):
        deep = "[" * depth + "1" + "]" * depth
        for key in ("value", "args"):
            with pytest.raises(NoAnswer, match="^the kernel's answer (nests too deeply|is not readable.*)$"):
                parse_reply(f'{{"answers": [{{"{key}": {deep}}}]}}', 1, "f")
    thirteen = '{"set": [' * (compute.MAX_DEPTH + 1) + "1" + "]}" * (compute.MAX_DEPTH + 1)
    with pytest.raises(NoAnswer, match="^the kernel's answer nests too deeply$"):
        parse_reply(f'{{"answers": [{{"value": {thirteen}}}]}}', 1, "f")


def test_a_failure_names_the_first_wrong_case_the_answer_wanted_and_why():
    run = Run(kernel({}), seed=11)
    cases = [(A, B, C), (A, A, B)]
    with pytest.raises(Failed) as error:
        compare(
            run,
            "is_set",
            cases,
            [Answer(value=True), Answer(value=True)],
            [True, False],
            why=lambda case: f"{case[0].code} appears twice",
        )
    assert (
        str(error.value)
        == "is_set(1RSO, 1RSO, 2RSO) should be False: 1RSO appears twice. Your function returned True."
    )


def test_a_failure_without_a_reason_or_randomness_says_just_the_call_and_the_answer():
    run = Run(kernel({}), seed=11)
    with pytest.raises(Failed) as error:
        compare(run, "is_set", [(A, B, C)], [Answer(error="ZeroDivisionError: oops")], [True])
    assert (
        str(error.value)
        == "is_set(1RSO, 2RSO, 3RSO) should be True. Your function raised ZeroDivisionError: oops."
    )
    run.rng.random()
    with pytest.raises(Failed) as error:
        compare(run, "is_set", [(A, B, C)], [Answer(value=None)], [True])
    assert str(error.value) == (
        "is_set(1RSO, 2RSO, 3RSO) should be True. Your function returned None."
        " (Cards drawn with the grader's seed 11.)"
    )


def test_an_error_fails_a_case_even_beside_the_right_value():
    with pytest.raises(Failed):
        compare(Run(kernel({}), seed=1), "f", [()], [Answer(value=True, error="")], [True])
    compare(Run(kernel({}), seed=1), "f", [(), ()], [Answer(value=True), Answer(value=2)], [True, 2])


def test_expect_fails_with_its_message_only_when_the_condition_does_not_hold():
    assert expect(True, "unused") is None
    with pytest.raises(Failed) as error:
        expect(False, "the hand should hold 12 cards")
    assert str(error.value) == "the hand should hold 12 cards"


# -- the tests of an exercise, loaded and tried on a notebook -------------------------------

HIDDEN_TESTS = """
from setwidgets.grading.judge import Tests, compare

tests = Tests(hide=["setwidgets.rules.is_set"])


@tests("test_double")
def double(run):
    cases = [(1,), (2,)]
    compare(run, "double", cases, run.call("double", cases), [2, 4])
    run.flag("looked at twice")
    return "double passed."
"""


@pytest.fixture
def exercise(tmp_path):
    (tmp_path / judge.TESTS_FILE).write_text(HIDDEN_TESTS)
    return tmp_path


def test_an_exercise_without_hidden_tests_has_no_judged_tests(tmp_path):
    tests = judge.load(tmp_path)
    assert type(tests) is Tests and dict(tests) == {} and tests.hide == ()


def test_the_hidden_tests_are_loaded_with_the_functions_they_hide(exercise):
    tests = judge.load(str(exercise))
    assert list(tests) == ["test_double"] and tests.hide == ("setwidgets.rules.is_set",)
    assert judge.judge(tests["test_double"], kernel({"double": lambda x: 2 * x})).passed


def test_two_exercises_hidden_tests_are_loaded_as_two_modules(tmp_path):
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / judge.TESTS_FILE).write_text(HIDDEN_TESTS)
    one_, two = judge.load(tmp_path / "one")["test_double"], judge.load(tmp_path / "two")["test_double"]
    assert one_.__module__ != two.__module__
    assert one_.__module__.startswith("_setwidgets_judged_") and two.__module__.startswith(
        "_setwidgets_judged_"
    )


@pytest.mark.parametrize("content", ["tests = {}\n", "x = 1\n"])
def test_hidden_tests_without_a_registry_are_refused(tmp_path, content):
    (tmp_path / judge.TESTS_FILE).write_text(content)
    with pytest.raises(TypeError) as error:
        judge.load(tmp_path)
    assert (
        str(error.value)
        == f"{tmp_path / judge.TESTS_FILE} must define tests = Tests(), the registry of its judged tests"
    )


def test_tests_registers_one_test_per_cell():
    tests = Tests()
    first = tests("t")(lambda run: "one")
    assert tests == {"t": first}
    with pytest.raises(ValueError) as error:
        tests("t")(lambda run: "again")
    assert str(error.value) == "two judged tests for the cell 't'"


def test_try_here_prints_the_passing_sentence_and_the_teachers_notes(exercise, capsys):
    judge.try_here("test_double", exercise, {"double": lambda x: 2 * x})
    assert capsys.readouterr().out == "double passed.\nNote for the teacher: looked at twice\n"


def test_try_here_raises_the_failing_sentence(exercise, capsys):
    with pytest.raises(AssertionError) as error:
        judge.try_here("test_double", exercise, {"double": lambda x: x + 1})
    assert str(error.value) == "double(2) should be 4. Your function returned 3."
    assert capsys.readouterr().out == ""


def test_try_here_looks_in_the_current_folder_and_the_notebooks_namespace(exercise, capsys, monkeypatch):
    import IPython

    shell = types.SimpleNamespace(user_ns={"double": lambda x: x * 2})
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    monkeypatch.chdir(exercise)
    judge.try_here("test_double")
    assert capsys.readouterr().out == "double passed.\nNote for the teacher: looked at twice\n"


def test_try_here_without_hidden_tests_says_where_they_are(tmp_path):
    with pytest.raises(FileNotFoundError) as error:
        judge.try_here("test_double", tmp_path / "none", {})
    assert str(error.value) == (
        "the graded tests of this exercise are in hidden_tests.py, beside the teacher's source notebook, "
        f"and there is none in {(tmp_path / 'none').resolve()}: the grader runs them when it grades"
    )


def test_try_here_for_a_cell_without_a_test_names_the_cell(exercise):
    with pytest.raises(KeyError) as error:
        judge.try_here("test_triple", exercise, {})
    assert error.value.args == (f"{exercise / judge.TESTS_FILE} has no test for the cell 'test_triple'",)
