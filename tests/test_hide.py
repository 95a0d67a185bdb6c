"""The package's own answers, absent from a grading kernel: module copies without the functions asked for."""

from __future__ import annotations

import inspect
import locale
import py_compile
import sys

import nbformat
import pytest
from nbclient import NotebookClient
from traitlets.config import Config

from setwidgets.checks.runner import ReferenceHidden
from setwidgets.grading import hide
from setwidgets.grading.sandbox import SandboxedKernelManager, bubblewrap_problem


def test_a_hidden_function_keeps_its_name_signature_and_docstring_and_raises():
    source = '''
def is_set(a, b, c=1, *more):
    """Whether the cards form a SET."""
    return a == b


def third_card(a, b):
    return a
'''
    namespace: dict = {}
    exec(hide.without(source, ["is_set"], "cards.rules"), namespace)
    assert inspect.signature(namespace["is_set"]).parameters.keys() == {"a", "b", "c", "more"}
    assert namespace["is_set"].__doc__ == "Whether the cards form a SET."
    with pytest.raises(ReferenceHidden, match="cards.rules.is_set is not available while this exercise"):
        namespace["is_set"](1, 1)
    assert namespace["third_card"](3, 4) == 3
    assert "return a == b" not in hide.without(source, ["is_set"], "cards.rules")


def test_a_method_of_a_class_can_be_hidden_too():
    source = "class Game:\n    def __init__(self, seed):\n        self.seed = seed\n\n"
    source += "    def over(self):\n        return True\n"
    namespace: dict = {}
    exec(hide.without(source, ["Game.__init__"], "engine"), namespace)
    with pytest.raises(ReferenceHidden, match="engine.Game.__init__ is not available"):
        namespace["Game"](1)
    assert namespace["Game"].over(None) is True


def test_a_name_that_is_no_function_of_the_module_is_an_error_not_a_silent_nothing():
    with pytest.raises(ValueError, match="has no function is_sett"):
        hide.overlays(["setwidgets.rules.is_sett"])
    with pytest.raises(ValueError, match="not a dotted name"):
        hide.overlays(["is_set"])


DECK = '''
from typing import overload
import functools, typing


class Deck:
    @staticmethod
    def shuffle(cards):
        """Shuffled, the way a dealer does it.

        In place.
        """
        return cards

    @overload
    def deal(self, n: int) -> list: ...
    @typing.overload
    def deal(self, n: str) -> list: ...
    @functools.cache
    def deal(self, n):
        return [n]


def count(deck):
    return 81
'''


def _raising(name: str, indent: str) -> str:
    message = hide.MESSAGE.format(name=name)
    lines = ["from setwidgets.checks.runner import ReferenceHidden", f"raise ReferenceHidden({message!r})"]
    return "\n".join(indent + line for line in lines)


def test_every_overload_of_a_name_is_hidden_and_only_the_bare_overload_decorator_goes():
    """Other decorators stay (a static method stays static); a docstring stays as written, indented."""
    deal = _raising("cardtricks.Deck.deal", " " * 8)
    expected = f'''from typing import overload
import functools, typing

class Deck:

    @staticmethod
    def shuffle(cards):
        """Shuffled, the way a dealer does it.

        In place.
        """
{_raising("cardtricks.Deck.shuffle", " " * 8)}

    def deal(self, n: int) -> list:
{deal}

    @typing.overload
    def deal(self, n: str) -> list:
{deal}

    @functools.cache
    def deal(self, n):
{deal}

def count(deck):
{_raising("cardtricks.count", " " * 4)}
'''
    assert hide.without(DECK, ["Deck.shuffle", "Deck.deal", "count"], "cardtricks") == expected
    namespace: dict = {}
    exec(expected, namespace)
    with pytest.raises(ReferenceHidden, match=r"cardtricks\.Deck\.shuffle is not"):
        namespace["Deck"].shuffle([1])
    assert (
        namespace["Deck"].shuffle.__doc__
        == "Shuffled, the way a dealer does it.\n\n        In place.\n        "
    )


def test_every_name_that_is_no_function_is_said_in_one_error():
    with pytest.raises(ValueError, match=r"^cardtricks has no function Deck\.cut, counts$"):
        hide.without(DECK, ["counts", "count", "Deck.cut"], "cardtricks")


@pytest.fixture
def cardtricks(tmp_path, monkeypatch):
    """A top-level module ``cardtricks`` of the source ``DECK`` with a word in UTF-8, importable."""
    path = tmp_path / "cardtricks.py"
    path.write_text(DECK.replace("Shuffled,", "Mélangé,"), encoding="utf-8")
    (tmp_path / "cardbox").mkdir()  # a namespace package: no file of Python source
    monkeypatch.syspath_prepend(str(tmp_path))
    yield path.resolve()
    for name in ("cardtricks", "cardbox"):
        sys.modules.pop(name, None)


def test_the_overlay_of_a_top_level_module_is_read_as_utf_8_whatever_the_locale(cardtricks):
    """A function of the module itself or a method of its class: the module is found however deep the name."""
    names = ["cardtricks.count", "cardtricks.Deck.shuffle"]
    expected = hide.without(cardtricks.read_text(encoding="utf-8"), ["count", "Deck.shuffle"], "cardtricks")
    assert "Mélangé" in expected and "cardtricks.Deck.shuffle is not available" in expected
    previous = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        assert hide.overlays(names) == {cardtricks: expected}
    finally:
        locale.setlocale(locale.LC_CTYPE, previous)


def test_a_module_with_no_python_source_file_cannot_be_shown_without_its_functions(cardtricks):
    for name, module in [("math.sqrt", "math"), ("cardbox.deal", "cardbox")]:
        with pytest.raises(ValueError, match=f"^{module} is not a module of Python source that can be shown"):
            hide.overlays([name])


def test_a_module_named_without_a_function_is_looked_for_as_a_function_of_its_package():
    with pytest.raises(ValueError, match=r"^setwidgets has no function rules$"):
        hide.overlays(["setwidgets.rules"])


CELLS = [
    "import importlib, inspect\nimport setwidgets, setwidgets.rules",
    "from setwidgets import Card, is_set, third_card",
    "a, b = Card.parse('1RSO'), Card.parse('2RSO')\nprint(third_card(a, b))",
    "try:\n    is_set(a, b, third_card(a, b))\nexcept Exception as error:\n    print(type(error).__name__)",
    "importlib.reload(setwidgets.rules)\ntry:\n    setwidgets.rules.is_set(a, b, third_card(a, b))\n"
    "except Exception as error:\n    print(type(error).__name__)",
    "print('return True' in inspect.getsource(setwidgets.rules.is_set))",
    # The compiled copy beside the module still held the function's code: it reads as empty.
    "import os\ncached = importlib.util.cache_from_source(setwidgets.rules.__file__)\n"
    "print(len(open(cached, 'rb').read()) if os.path.exists(cached) else 'no cache')",
]


@pytest.mark.skipif(bubblewrap_problem() is not None, reason="the sandbox needs bubblewrap")
def test_in_the_sandbox_the_function_is_gone_even_after_a_reload_and_the_rest_works(tmp_path):
    import setwidgets.rules

    py_compile.compile(setwidgets.rules.__file__, doraise=True)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
    config = Config()
    config.SandboxedKernelManager.hide_functions = ["setwidgets.rules.is_set"]
    client = NotebookClient(
        nb,
        timeout=60,
        kernel_name="python3",
        kernel_manager_class=SandboxedKernelManager,
        config=config,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    printed = [("".join(o.get("text", "") for o in cell.outputs)).strip() for cell in nb.cells]
    assert printed[2:] == ["3RSO", "ReferenceHidden", "ReferenceHidden", "False", "0"]
