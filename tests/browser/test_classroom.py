"""A class game in a real JupyterLab: two students' notebooks (ClassBoard) and the teacher's
projector (ClassRoom), three pages of one Lab, around one room of a real classroom service.

The service runs in its own process; each notebook finds it through the classroom folder, as
notebooks on one machine do (``course.py classroom`` writes the address and the teacher's token
there). The test process holds a teacher's connection of its own, so it knows the table the
service pushes: which cards lie where, and which three form a SET. A click on one page must show
on the other two: the cards repainted, the same message, the same scores.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from classroom_service import Service, wait_until

from setwidgets import as_cards, find_sets
from setwidgets.classroom import Desk

from .harness import NotebookPage, python_cells, rgb
from .painted import CLASSIC, around, assert_card_shown
from .test_keys import cells_now

pytestmark = pytest.mark.browser

TABLE = rgb(CLASSIC.table)
FOUND = CLASSIC.highlights["found"][0]


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    with Service(tmp_path_factory.mktemp("classroom") / "home") as running:
        yield running


def setup_cell(service: Service) -> str:
    # The kernels of the test's Lab share no environment with the service: this is what
    # course.py's own Lab would have set (the classroom folder of the user running it).
    return f"import os\nos.environ['SETWIDGETS_CLASSROOM_HOME'] = {str(service.home)!r}\n"


def projector_cells(service: Service) -> list[str]:
    return [
        setup_cell(service),
        *python_cells(
            """
            from setwidgets.widgets import ClassRoom

            room = ClassRoom(seed=3, claim_seconds=30)
            room
            """,
            "print(room.code)",
        ),
    ]


def student_cells(service: Service, code: str, name: str) -> list[str]:
    return [
        setup_cell(service),
        *python_cells(
            f"""
            from setwidgets.widgets import ClassBoard

            board = ClassBoard("{code}", name="{name}")
            board
            """,
            """
            import json

            print(json.dumps(board.card_rects))
            """,
        ),
    ]


# Polls a rectangle of a canvas every few milliseconds, from now on, and notes when at least 100 of
# its pixels have exactly the colour: a flash of 0.7 s is seen however late the test looks.
_JS_WATCH = """([el, [x, y, w, h], c]) => {
    window.__setwSaw = false;
    const timer = setInterval(() => {
        const d = el.getContext('2d').getImageData(x, y, w, h).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) {
            if (d[i] === c[0] && d[i + 1] === c[1] && d[i + 2] === c[2] && d[i + 3] === 255) n++;
        }
        if (n >= 100) { window.__setwSaw = true; clearInterval(timer); }
    }, 5);
}"""


def watch_for_color(page: Page, color: str, rect) -> None:
    """From now on, note in the page when ``rect`` of its canvas shows ``color`` (``window.__setwSaw``)."""
    x, y, w, h = (int(v) for v in rect)
    page.nb.page.evaluate(_JS_WATCH, [page.canvas.element_handle(), [x, y, w, h], list(rgb(color))])


class Page:
    """One notebook page of the class game: its widget's canvas, lines of text and buttons."""

    def __init__(self, nb: NotebookPage, widget: str) -> None:
        self.nb, self.widget = nb, widget
        self.canvas = nb.canvas(f"{widget} canvas")

    def text(self, line: str) -> str:
        return self.nb.text(f"{self.widget} {line}")

    def wait_text(self, line: str, contains: str, timeout: float = 15.0) -> str:
        return self.nb.wait_text(f"{self.widget} {line}", contains, timeout=timeout)

    def digests(self, rects) -> list[int]:
        return [self.nb.digest(self.canvas, rect) for rect in rects]

    def shot(self, name: str) -> Path:
        self.nb.page.locator(self.widget).first.scroll_into_view_if_needed()
        return self.nb.screenshot(name)


def test_a_click_on_one_students_page_shows_on_the_other_student_and_the_projector(
    service: Service, notebook_page
) -> None:
    teacher = Page(notebook_page("class_projector.ipynb", projector_cells(service)), ".setw-classroom")
    code = teacher.nb.cell_output(2).strip()
    assert len(code) == 5 and code.isalpha(), code
    teacher.wait_text(".setw-class-join", code)
    assert "No player yet." in teacher.text(".setw-class-players")

    ada_nb = notebook_page("class_ada.ipynb", student_cells(service, code, "Ada"))
    ben_nb = notebook_page("class_ben.ipynb", student_cells(service, code, "Ben"))
    ada, ben = Page(ada_nb, ".setw-classboard"), Page(ben_nb, ".setw-classboard")
    rects = [tuple(r) for r in json.loads(ada_nb.cell_output(2))]
    assert rects == [tuple(r) for r in json.loads(ben_nb.cell_output(2))]

    desk = Desk(code, token=service.teacher_token, url=service.url)
    try:
        wait_until(lambda: len(desk.view.get("players", ())) == 2, what="both students seated")
        table = as_cards(desk.view["table"])
        # The projector saw both students come in, and every page shows the same dealt table.
        teacher.wait_text(".setw-class-players", "2 players: Ada, Ben")
        for page in (ada, ben):
            page.nb.wait_painted(page.canvas, min_pixels=10_000, background=TABLE)
            for position, card in enumerate(table):
                assert_card_shown(page.nb, page.canvas, rects[position], card, where=f"card {position}")
        teacher.nb.wait_painted(teacher.canvas, min_pixels=10_000, background=TABLE)
        assert ben.text(".setw-status") == f"Welcome, Ben: you play in room {code}."
        ada.wait_text(".setw-status", "Ben joined the game.")
        assert ben.text(".setw-class-room") == f"Room {code} · you play as Ben"
        teacher.shot("classroom-01-projector-joined")
        ada.shot("classroom-02-ada-joined")

        # Ben calls SET with his button: Ada's page and the projector say he is picking.
        ben.nb.click_button("SET!", within=".setw-classboard")
        ben.wait_text(".setw-class-place", "Your call: pick three cards!")
        ada.wait_text(".setw-class-callers", "Ben is picking")
        teacher.wait_text(".setw-class-callers", "Ben is picking")
        assert ada.text(".setw-status") == teacher.text(".setw-status") == "Ben called SET!"
        # The caller's seconds count down on the projector, from the time the service pushed.
        counting = teacher.text(".setw-class-callers")
        assert counting.startswith("Ben is picking (") and counting.endswith(" s left).")
        teacher.nb.wait_text(".setw-classroom .setw-class-callers", "Ben is picking (", differs_from=counting)
        teacher.shot("classroom-03-projector-ben-is-picking")

        # Ben clicks the three cards of a SET (found from the table the service pushed).
        positions = [table.index(card) for card in find_sets(table)[0]]
        before = {"ada": ada.digests(rects), "ben": ben.digests(rects)}
        watch_for_color(ada, FOUND, around(rects[positions[0]]))
        for position in positions:
            ben.nb.click_rect_centre(ben.canvas, rects[position])
        wait_until(lambda: desk.view["last"].get("type") == "claim", what="Ben's claim served")
        assert desk.view["last"]["ok"], desk.view["last"]
        new_table = as_cards(desk.view["table"])
        said = desk.view["last"]["message"]
        assert said.startswith("Ben keeps a SET (+1 point).")
        # Ada's page and the projector: the SET framed on the old table, then the new cards.
        ada.nb.page.wait_for_function("() => window.__setwSaw === true", timeout=10_000)
        for page in (ada, teacher):
            page.wait_text(".setw-status", said)
            page.wait_text(".setw-scores", "Ada 0 · Ben 1")
        ben.wait_text(".setw-class-you", "Your score: 1 (1 SET)")
        ada.wait_text(".setw-class-you", "Your score: 0 (0 SETs)")
        ada.nb.wait_color(ada.canvas, FOUND, None, min_pixels=0)
        ben.nb.wait_color(ben.canvas, FOUND, None, min_pixels=0)
        for name, page in (("ada", ada), ("ben", ben)):
            after = page.digests(rects)
            for position in range(12):
                changed = after[position] != before[name][position]
                assert changed == (position in positions), f"{name}'s card {position} changed: {changed}"
            for position, card in enumerate(new_table):
                assert_card_shown(
                    page.nb, page.canvas, rects[position], card, where=f"{name}'s card {position}"
                )
        assert teacher.text(".setw-class-callers") == "Nobody has called SET."
        teacher.shot("classroom-04-projector-after-bens-set")
        ada.shot("classroom-05-ada-after-bens-set")
        ben.shot("classroom-06-ben-after-his-set")

        # Keys, as on the Board: a button hands the keyboard back to the cards, and no key reaches
        # JupyterLab (in command mode "r" would make the cell a raw cell).
        cells = cells_now(ada.nb)
        ada.nb.click_button("No SET here", within=".setw-classboard")
        ada.wait_text(".setw-status", "keep looking")
        selected = CLASSIC.highlights["selected"][0]
        for key in ("r", "q"):
            ada.nb.page.keyboard.press(key)
        ada.nb.wait_color(ada.canvas, selected, around(rects[0]), min_pixels=100)
        ada.nb.wait_color(ada.canvas, selected, around(rects[9]), min_pixels=100)
        ada.nb.page.keyboard.press("Escape")
        ada.nb.wait_color(ada.canvas, selected, None, min_pixels=0)
        assert cells_now(ada.nb) == cells, "a key reached JupyterLab"

        # The teacher hides the scores: the students see only the SETs found.
        teacher.nb.click_button("Hide scores", within=".setw-classroom")
        ada.wait_text(".setw-scores", "1 SET found")
        ben.wait_text(".setw-class-you", "Your SETs: 1")
        teacher.wait_text(".setw-scores", "1 SET found")
        # Pausing shows on both students' pages; a refused move shows the service's sentence.
        teacher.nb.click_button("Pause", within=".setw-classroom")
        ada.wait_text(".setw-class-state", "Paused by the teacher.")
        ada.nb.click_button("SET!", within=".setw-classboard")
        ada.wait_text(".setw-status", "The teacher paused the game; wait until it goes on.")
        teacher.shot("classroom-07-projector-paused-scores-hidden")
        ada.shot("classroom-08-ada-refused-while-paused")

        # The scores shown again, the teacher ends the room: the final standings on the projector,
        # and no move left on a student's page.
        teacher.nb.click_button("Show scores", within=".setw-classroom")
        ada.wait_text(".setw-scores", "Ada 0 · Ben 1")
        teacher.nb.click_button("End", within=".setw-classroom")
        teacher.wait_text(".setw-class-standings", "Final standings. Ben wins with 1 point.")
        ben.wait_text(".setw-class-state", "The teacher ended this room.")
        assert ben.nb.button("SET!", within=".setw-classboard").is_disabled()
        assert teacher.nb.button("End", within=".setw-classroom").is_disabled()
        teacher.shot("classroom-09-projector-final-standings")
        ben.shot("classroom-10-ben-room-ended")
    finally:
        desk.close()
