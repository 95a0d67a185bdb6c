"""The round timer: its arithmetic (RoundTimer, no Jupyter) and its widget (Timer, no browser).

The model reads a clock the test moves by hand. The widget runs on a hand-made event
loop whose time is that clock's, so a test sees exactly when each redraw comes.
"""

from __future__ import annotations

import io
import math
import threading
import wave
from fractions import Fraction

import pytest

import setwidgets
from setwidgets.competition.timer import LONGEST_MINUTES, ROUND_MINUTES, RoundTimer, TimerError
from setwidgets.widgets import WIDGETS, Timer
from setwidgets.widgets._view import WIDGET_VIEW
from setwidgets.widgets.timer import FLASH, FLASHES, beep_wav

pytestmark = pytest.mark.usefixtures("not_in_nbgrader")


def snapshot(timer: RoundTimer):
    return timer.reading(), timer.left(), timer.minutes, timer.next_change()


# -- the model ------------------------------------------------------------------------------------


def test_the_time_left_comes_from_the_clock(clock):
    timer = RoundTimer(minutes=5, clock=clock)
    assert timer.reading() == ("ready", "05:00") and timer.left() == 300
    clock.advance(1000)  # a timer not started loses no time
    timer.start()
    clock.advance(30.5)
    assert timer.left() == 269.5 and timer.face() == "04:30" and timer.state == "running"
    assert timer.left(now=clock() + 9.5) == 260  # any moment may be asked about; nothing changes
    assert timer.left() == 269.5


def test_a_second_is_shown_until_it_has_passed(clock):
    timer = RoundTimer(minutes=1, clock=clock)
    timer.start()
    assert timer.face() == "01:00" and timer.next_change() == 1.0
    clock.advance(0.25)
    assert timer.face() == "01:00" and timer.next_change() == pytest.approx(0.75)
    clock.advance(0.75)
    assert timer.face() == "00:59"
    clock.advance(58.5)
    assert timer.face() == "00:01" and timer.next_change() == pytest.approx(0.5)
    clock.advance(0.5)
    assert timer.reading() == ("over", "00:00") and timer.left() == 0 and timer.next_change() is None
    clock.advance(100)
    assert timer.reading() == ("over", "00:00")


def test_a_pause_holds_the_time_and_pauses_add_up(clock):
    timer = RoundTimer(minutes=2, clock=clock)
    timer.start()
    clock.advance(10)
    timer.pause()
    clock.advance(500)
    assert timer.reading() == ("paused", "01:50") and timer.next_change() is None
    timer.resume()
    clock.advance(20)
    timer.pause()
    clock.advance(7)
    timer.resume()
    clock.advance(30)
    assert timer.left() == 60 and timer.state == "running"
    clock.advance(60)
    assert timer.state == "over"


def test_a_clock_that_steps_back_adds_no_time(clock):
    timer = RoundTimer(minutes=1, clock=clock)
    timer.start()
    clock.advance(-50)
    assert timer.left() == 60
    assert timer.left(now=-1e9) == 60 and timer.left(now=1e300) == 0


def test_every_length_of_round_is_checked_before_anything_else():
    assert RoundTimer(5).minutes == 5 and isinstance(RoundTimer(5).minutes, int)
    assert RoundTimer(0.1, clock=lambda: 0.0).face() == "00:06"
    assert RoundTimer(Fraction(1, 2), clock=lambda: 0.0).face() == "00:30"
    assert RoundTimer(LONGEST_MINUTES, clock=lambda: 0.0).face() == "180:00"
    wrong_kind = {
        "5": "'5' (a string)",
        b"5": "b'5' (bytes, not text)",
        None: "None (nothing)",
        True: "True (True or False)",
        (5,): "(5,) (a tuple)",
    }
    for minutes, quoted in wrong_kind.items():
        with pytest.raises(TypeError) as info:
            RoundTimer(minutes)
        assert str(info.value) == f"minutes must be a number like 5; got {quoted}"
    for minutes in (0, -1, -0.0):
        with pytest.raises(TimerError, match=r"^minutes must be a number above 0, like 5; got "):
            RoundTimer(minutes)
    for minutes in (math.nan, math.inf, -math.inf, 10**400, -(10**400)):
        with pytest.raises(TimerError, match=r"^minutes must be a finite number like 5; got "):
            RoundTimer(minutes)
    for minutes in (180.5, 181, 1e300):
        with pytest.raises(TimerError) as info:
            RoundTimer(minutes)
        assert str(info.value).startswith("minutes must be at most 180 (three hours), like 5; got ")
    assert issubclass(TimerError, ValueError)


def test_a_move_the_state_does_not_allow_is_refused_and_changes_nothing(clock):
    timer = RoundTimer(minutes=5, clock=clock)
    refusals = {
        "ready": {
            "pause": "cannot pause(): the timer has not started; start() it first, "
            "and reset() sets it back to 05:00",
            "resume": "cannot resume(): the timer has not started; start() it first, "
            "and reset() sets it back to 05:00",
        },
        "running": {
            "start": "cannot start(): the timer is running already; pause() stops it for a while, "
            "and reset() sets it back to 05:00",
            "resume": "cannot resume(): the timer is running already; pause() stops it for a while, "
            "and reset() sets it back to 05:00",
        },
        "paused": {
            move: f"cannot {move}(): the timer is paused; resume() goes on, and reset() sets it back to 05:00"
            for move in ("start", "pause")
        },
        "over": {
            move: f"cannot {move}(): the round is over, and reset() sets it back to 05:00"
            for move in ("start", "pause", "resume")
        },
    }
    to_reach = {"ready": [], "running": ["start"], "paused": ["start", "pause"], "over": ["start"]}
    for state, moves in refusals.items():
        timer.reset()
        for move in to_reach[state]:
            getattr(timer, move)()
            clock.advance(1)
        if state == "over":
            clock.advance(300)
        assert timer.state == state
        for move, message in moves.items():
            before = snapshot(timer)
            with pytest.raises(TimerError) as info:
                getattr(timer, move)()
            assert str(info.value) == message
            assert snapshot(timer) == before


def test_reset_goes_back_to_the_whole_round_and_may_change_its_length(clock):
    timer = RoundTimer(minutes=5, clock=clock)
    timer.start()
    clock.advance(100)
    before = snapshot(timer)
    with pytest.raises(TimerError, match=r"^minutes must be at most 180"):
        timer.reset(minutes=200)
    with pytest.raises(TypeError, match=r"^minutes must be a number like 5; got '3' \(a string\)$"):
        timer.reset(minutes="3")
    assert snapshot(timer) == before
    timer.reset(minutes=2.5)
    assert timer.reading() == ("ready", "02:30") and timer.seconds == 150
    assert repr(timer) == "<RoundTimer: 02:30 left of 2.5 minutes, ready>"


def test_a_clock_that_is_no_clock_is_refused(clock):
    with pytest.raises(
        TypeError, match=r"^clock must be a function that returns the time in seconds; got 5 \("
    ):
        RoundTimer(clock=5)
    readings = iter([0.0, math.nan])
    timer = RoundTimer(minutes=1, clock=lambda: next(readings))
    timer.start()
    with pytest.raises(
        TimerError, match=r"^the timer's clock must return a finite time in seconds; it returned nan"
    ):
        timer.pause()
    with pytest.raises(
        TypeError, match=r"^the timer's clock must return the time in seconds, a number; it returned 'x'"
    ):
        RoundTimer(minutes=1, clock=lambda: "x").start()
    timer = RoundTimer(minutes=1, clock=clock)
    for now, error in (("12", TypeError), (b"1", TypeError), (None, None), (math.nan, TimerError)):
        if error is None:
            assert timer.left(now) == 60
            continue
        with pytest.raises(error, match=r"^now must be a "):
            timer.left(now)
    assert timer.state == "ready"


def test_any_moment_may_be_asked_about_while_the_clock_stays_where_it_is(clock):
    timer = RoundTimer(clock=clock)  # the guide's twenty minutes unless told
    assert timer.minutes == ROUND_MINUTES == 20
    assert repr(timer) == "<RoundTimer: 20:00 left of 20 minutes, ready>"
    timer.start()
    clock.advance(10.25)
    later = clock() + 100
    assert timer.reading(now=later) == ("running", "18:10")
    assert timer.face(now=later) == "18:10" and timer.face() == "19:50"
    assert timer.next_change(now=later) == pytest.approx(0.75)
    assert timer.next_change(now=clock() + 0.5) == pytest.approx(0.25)
    assert timer.reading(now=clock() + 1190) == ("over", "00:00")
    assert timer.next_change(now=clock() + 1190) is None
    with pytest.raises(TimerError) as info:
        timer.face(now=math.inf)
    assert str(info.value) == "now must be a finite number like 12.5; got inf"
    with pytest.raises(TypeError) as info:
        timer.reading(now="soon")
    assert str(info.value) == "now must be a number like 12.5; got 'soon' (a string)"


def test_a_round_of_one_minute_is_one_minute_and_a_refused_length_is_quoted():
    assert repr(RoundTimer(1, clock=lambda: 0.0)) == "<RoundTimer: 01:00 left of 1 minute, ready>"
    assert repr(RoundTimer(2, clock=lambda: 0.0)) == "<RoundTimer: 02:00 left of 2 minutes, ready>"
    with pytest.raises(TimerError) as info:
        RoundTimer(181.5)
    assert str(info.value) == "minutes must be at most 180 (three hours), like 5; got 181.5"


# -- the widget -----------------------------------------------------------------------------------


def test_the_widget_is_listed_with_the_others():
    assert WIDGETS["Timer"] == "setwidgets.widgets.timer"
    assert setwidgets.Timer is Timer


def test_the_widget_counts_down_redrawing_exactly_when_a_second_passes(clock, loop):
    widget = Timer(minutes=1, clock=clock, loop=loop)
    assert (widget.text, widget.state, widget.buttons["main"].description) == ("01:00", "ready", "Start")
    assert loop.waiting == [], "nothing runs before Start"
    start = clock()
    widget.buttons["main"].click()
    assert widget.state == "running" and widget.buttons["main"].description == "Pause"
    assert [h.when for h in loop.waiting] == [start + 1.0]
    loop.run(0.999)
    assert "01:00" in widget._words.value
    loop.run(0.001)
    assert "00:59" in widget._words.value
    assert [h.when for h in loop.waiting] == [start + 2.0]
    loop.run(0.5)
    widget.pause()
    assert loop.waiting == [] and widget.buttons["main"].description == "Resume"
    clock.advance(600)
    widget.tick()
    assert widget.text == "00:59" and "Paused" in widget._words.value
    widget.press(" ")
    assert widget.state == "running" and [h.when for h in loop.waiting] == [clock() + 0.5]


def test_a_late_redraw_shows_the_clock_s_time_not_a_count_of_redraws(clock, loop):
    widget = Timer(minutes=1, clock=clock, loop=loop)
    widget.start()
    clock.advance(10.3)  # the kernel was busy: no redraw came for ten seconds
    widget.tick()
    assert widget.text == "00:50" and "00:50" in widget._words.value
    assert [h.when for h in loop.waiting] == [pytest.approx(clock() + 0.7)]


def test_at_the_end_the_clock_flashes_once_and_beeps(clock, loop):
    widget = Timer(minutes=0.05, clock=clock, loop=loop)  # three seconds
    faces = []
    widget._face = lambda face, paper, ink, words: faces.append((face, paper, words))
    widget.start()
    end = clock() + 3
    loop.run(2.5)
    assert widget.state == "running" and widget._sound.value == ""
    faces.clear()
    loop.run(0.6)
    assert widget.state == "over" and clock() == pytest.approx(end + 0.1)
    red = [f for f in faces if f[1] == FLASH]
    assert len(red) == FLASHES + 1 and red[-1] == faces[-1] == ("00:00", FLASH, "Time!")
    assert '<audio autoplay src="data:audio/wav;base64,' in widget._sound.value
    assert loop.waiting == [] and widget.buttons["main"].description == "Start"
    faces.clear()
    widget._sound.value = ""
    widget.tick()
    loop.run(60)
    widget._client_ready()  # the page is reloaded: the clock is painted red again, with no flash
    assert faces == [("00:00", FLASH, "Time!")] and widget._sound.value == "", "the end comes once"
    widget.buttons["main"].click()  # the next round, of the same length
    assert widget.state == "running"
    assert widget._sound.value == "" and widget.text == "00:03"


def test_a_click_on_another_thread_s_loop_is_handed_to_the_clock_s_loop(clock, loop):
    """JupyterLab may send clicks to a kernel subshell: a thread with a loop of its own."""
    widget = Timer(minutes=1, clock=clock, loop=loop)

    subshell = threading.Thread(target=widget.buttons["main"].click)
    subshell.start()
    subshell.join()
    assert widget.state == "ready" and len(loop.soon) == 1
    loop.soon.pop()()
    assert widget.state == "running" and [h.when for h in loop.waiting] == [clock() + 1.0]
    widget._by_the_clock(widget.pause)  # no loop running here: the move is made at once
    assert widget.state == "paused" and loop.soon == []


def test_the_beep_is_a_short_wav_file():
    with wave.open(io.BytesIO(beep_wav())) as sound:
        seconds = sound.getnframes() / sound.getframerate()
    assert 0.5 < seconds < 1.0 and len(beep_wav()) < 10_000


def test_the_space_bar_does_what_the_big_button_does_and_other_keys_nothing(clock, loop):
    widget = Timer(minutes=2, clock=clock, loop=loop)
    assert widget.press("a") is False and widget.state == "ready"
    assert widget.press(" ") is True and widget.state == "running"
    assert widget.press("Space") is True and widget.state == "paused"
    assert widget.press("spacebar") is True and widget.state == "running"
    with pytest.raises(
        TypeError, match=r"^press\(\) takes a key such as ' ' \(the space bar\); got 5 \(a number\)$"
    ):
        widget.press(5)
    assert widget.state == "running"


def test_reset_from_the_button_and_from_code(clock, loop):
    widget = Timer(minutes=2, clock=clock, loop=loop)
    widget.start()
    loop.run(30)
    widget.buttons["reset"].click()
    assert widget.state == "ready" and widget.text == "02:00" and loop.waiting == []
    with pytest.raises(TimerError, match=r"^minutes must be a number above 0"):
        widget.reset(minutes=-3)
    assert widget.text == "02:00"
    widget.reset(minutes=0.5)
    assert widget.text == "00:30" and repr(widget) == "<Timer: 00:30 ready>"


def test_wrong_arguments_are_refused_in_our_words(clock):
    with pytest.raises(TypeError, match=r"^minutes must be a number like 5; got '5' \(a string\)$"):
        Timer(minutes="5", clock=clock)
    with pytest.raises(TimerError, match=r"^minutes must be at most 180"):
        Timer(minutes=181, clock=clock)
    with pytest.raises(TypeError, match=r"^clock must be a function"):
        Timer(clock=3)
    with pytest.raises(TypeError, match=r"^loop must be an asyncio event loop"):
        Timer(clock=clock, loop=3)


def test_a_move_the_timer_refuses_from_code_changes_nothing(clock, loop):
    widget = Timer(minutes=2, clock=clock, loop=loop)
    with pytest.raises(TimerError, match=r"^cannot pause\(\): the timer has not started"):
        widget.pause()
    assert widget.state == "ready" and loop.waiting == []


def test_inside_nbgrader_nothing_runs_and_the_time_is_shown_as_text(clock, loop, monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    widget = Timer(minutes=1, clock=clock, loop=loop)
    widget.start()
    assert loop.waiting == []
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert WIDGET_VIEW not in data and "01:00" in data["text/html"] and data["text/plain"] == "Timer: 01:00"


def test_closing_the_widget_stops_its_clock(clock, loop):
    widget = Timer(minutes=1, clock=clock, loop=loop)
    widget.start()
    assert loop.waiting
    widget.close()
    assert loop.waiting == []
