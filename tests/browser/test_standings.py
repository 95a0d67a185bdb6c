"""The standings widget in a real JupyterLab: a score typed into its form changes the table.

The notebook registers six players, makes the schedule and shows ``Standings``; the
test types one table's scores into the form as a coordinator would, presses the
button, and reads the new standings in the page. A second entry for the same table is
refused with its message, and the table stays as it was. The division picker changes the
table at every pick, and Chromium's accessibility tree says which division button is chosen
(``aria-pressed``) before the first pick and after each.
"""

from __future__ import annotations

import pytest

from . import boardpage
from .harness import python_cells
from .test_accessibility import chromium_trees, pressed

# One page and kernel for this module's tests (boardpage.notebooks); its notebook_page replaces conftest's.
notebooks = boardpage.notebooks
notebook_page = boardpage.notebook_page

pytestmark = pytest.mark.browser


VIEW = ".setw-standings .setw-standings-view"
PICKER = ".setw-standings .widget-toggle-buttons"
DIVISIONS = ("Overall", "A", "B")
"""The division picker's buttons in the test below."""

# The class ipywidgets gives the chosen button, put on and taken off again with no other change;
# aria-pressed read after each, once the page's pending observer callbacks (microtasks) have run.
_JS_FLIP = """async (button) => {
    const heard = [];
    for (const on of [true, false]) {
        button.classList.toggle('mod-active', on);
        await null;
        heard.push(button.getAttribute('aria-pressed'));
    }
    return heard;
}"""


def heard_chosen(label: str, page) -> None:
    """Chromium's accessibility tree says the division button ``label`` is pressed and the others
    not (ipywidgets marks the chosen one by a class only; the KeyGuard module says it in
    ``aria-pressed``)."""
    (tree,) = chromium_trees(page, [PICKER])[PICKER]
    assert tree.splitlines()[0].strip() == 'group "Division"', f"the picker is not a named group:\n{tree}"
    heard = {name: state for name, state in pressed(tree).items() if name in DIVISIONS}
    expected = {name: "true" if name == label else "false" for name in DIVISIONS}
    assert heard == expected, f"with {label!r} chosen, a screen reader hears {heard}:\n{tree}"


def test_a_score_entered_in_the_form_changes_the_standings(notebook_page, tmp_path) -> None:
    nb = notebook_page(
        "standings.ipynb",
        python_cells(
            f"""
            from setwidgets.competition import Competition
            from setwidgets.widgets.standings import Standings

            event = Competition({str(tmp_path / "class.sqlite")!r})
            for number, name in enumerate(["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay"], 1):
                event.register(number, name, "A" if number <= 3 else "B")
            plan = event.plan(3, seed=1)
            print(plan.rounds[0])
            Standings(event)
            """
        ),
    )
    table = nb.wait_text(VIEW, "Fay")
    assert "Rank" in table and "Game 3" in table and "Total" in table
    body = [line.split() for line in table.splitlines() if line[:1].isdigit()]
    assert len(body) == 6 and all(row[-1] == "0" for row in body), table
    assert "((1, 2, 3), (4, 5, 6))" in nb.cell_output(0)
    before = table

    nb.page.locator(".setw-standings .setw-standings-scores input").fill("4: 2, 5: 7 1, 6: 1")
    numbers = nb.page.locator(".setw-standings input[type=number]")
    numbers.nth(1).fill("2")
    numbers.nth(1).press("Tab")
    nb.click_button("Enter scores", within=".setw-standings")
    after = nb.wait_text(VIEW, "Eli", differs_from=before)
    first = next(line for line in after.splitlines() if "Eli" in line).split()
    assert first[:3] == ["1", "5", "Eli"] and first[-1] == "6", after
    assert "scores entered" in nb.wait_text(".setw-standings .setw-standings-message", "scores entered")
    nb.screenshot("standings-01-after-a-table", selector=".setw-standings")

    numbers.nth(1).fill("2")
    numbers.nth(1).press("Tab")
    nb.page.locator(".setw-standings .setw-standings-scores input").fill("4: 1, 5: 1, 6: 1")
    nb.click_button("Enter scores", within=".setw-standings")
    message = nb.wait_text(".setw-standings .setw-standings-message", "already has scores")
    assert "round 1, table 2 already has scores" in message
    assert nb.text(VIEW) == after


def test_the_division_picker_changes_the_table_at_every_pick(notebook_page, tmp_path) -> None:
    # JupyterLab sends a widget's messages to a kernel subshell, another thread than the one that
    # opened the competition file: before the file's connection served every thread, the first
    # pick worked and the later ones raised inside the picker's observer, leaving the table alone.
    nb = notebook_page(
        "standings_picks.ipynb",
        python_cells(
            f"""
            from setwidgets.competition import Competition
            from setwidgets.widgets.standings import Standings

            event = Competition({str(tmp_path / "class.sqlite")!r})
            for number in range(1, 10):
                event.register(number, f"P{{number}}", "A" if number <= 5 else "B")
            Standings(event)
            """
        ),
    )
    caption = f"{VIEW} caption"
    nb.wait_text(caption, "All players")
    buttons = nb.page.locator(f"{PICKER} button")
    heard_chosen("Overall", nb.page)
    for label, title, rows in (("A", "Division A", 5), ("B", "Division B", 4), ("Overall", "All players", 9)):
        shown = nb.text(VIEW)
        buttons.get_by_text(label, exact=True).click()
        table = nb.wait_text(VIEW, title, differs_from=shown)
        body = [line for line in table.splitlines() if line[:1].isdigit()]
        assert len(body) == rows, f"after the pick {label!r}, the table shows:\n{table}"
        heard_chosen(label, nb.page)
    nb.screenshot("standings-02-after-three-picks", selector=".setw-standings")
    # aria-pressed follows the class itself, as ipywidgets sets it, even when nothing else on the
    # page changes (above, each pick also redrew the table, which has the module look again).
    assert buttons.get_by_text("A", exact=True).evaluate(_JS_FLIP) == ["true", "false"]
