"""The package's browser-side behaviour, in one module: a key typed inside a widget stays there,
and a screen reader hears what ipywidgets leaves unsaid.

JupyterLab's command mode acts on single keys: ``r`` turns a cell raw, ``m`` makes it
Markdown, ``x`` and ``d d`` delete it, ``a`` and ``b`` insert one, the digits make headings,
the arrows and Enter move through the notebook. A card menu (``<select>``), a toggle or a
button of a widget takes the keys it uses (the arrows change a menu) and lets the others
bubble up to the notebook, where a student who was only picking a card wrecks a cell.

Lumino, which dispatches JupyterLab's and Notebook 7's shortcuts, walks up the page from the
element that got the key, looking for an element a shortcut's selector matches, and stops at
the first element marked ``data-lm-suppress-shortcuts``. The mark must be on the focused
control itself: command mode's selectors end in ``:focus`` (``.jp-Notebook.jp-mod-commandMode
:not(.jp-mod-readWrite) :focus``), which the focused ``<select>`` matches before the walk
reaches any ancestor. ipywidgets can only give a widget CSS classes, so every widget of this
package carries the class :data:`GUARDED` (:func:`keep_keys`), and a small front-end module
marks the control that gets a key inside such a widget just before Lumino sees the key:

- a key without Ctrl, Alt or Meta (Shift included): the control is marked, so no shortcut
  runs and the key does only what the control does with it (a menu's arrows, a text box's
  letters, a board's card keys);
- a key with Ctrl, Alt or Meta: the mark is taken off, so Ctrl+S still saves and Ctrl+Enter
  still runs the cell from inside a widget.

A control that loses the focus by no doing of the student (disabled when a game ends, hidden,
or removed by a redraw) hands it to the nearest usable control of the same widget, or to the
widget itself: the browser would give it to the page's ``<body>``, where the widget's keys do
nothing and Tab and a screen reader start again from the top of the page.

What a screen reader is told, the same module adds to the package's widgets, as ipywidgets cannot:

- each canvas of cards gets a role and a name (the cards of the names list drawn beside it);
- each line marked :data:`LIVE` (:func:`announce`: a verdict, a board's status) becomes a polite
  live region, so its new text is said as it changes;
- each toggle button inside a :data:`GUARDED` widget (the buttons of a ``ToggleButtons``, such as
  the standings' division picker and the insight's copy picker, and a ``ToggleButton``, which
  has the same class) says whether it is the chosen one: ipywidgets marks it only with the CSS
  class ``mod-active``, and a screen reader heard two buttons and never which one was chosen.
  The button carries ``aria-pressed``, ``"true"`` with that class and ``"false"`` without, set
  when it appears and kept in step by an observer of that button's ``class`` attribute alone;
- each ``ToggleButtons`` inside a :data:`GUARDED` widget is a group named by its description
  (``role="group"``, ``aria-label``): ipywidgets writes the description as a ``<label>`` that
  belongs to no control, so a screen reader heard "A", "B" and never what they choose.

Widgets come and go with redraws: one observer of the page's added and removed nodes and text
(not of attributes, which JupyterLab changes all the time) has the module look again, at most
once a frame.

The module is an anywidget whose ``initialize`` runs once a page has the guard's model,
whether or not anything shows it: one guard per kernel, made with the first widget, serves
every widget of every notebook view of that kernel (a reloaded page gets the model again).
The mark is set in a capture listener on the window, which runs before Lumino's listener on
the document (capturing in Notebook 7, bubbling in JupyterLab).
"""

from __future__ import annotations

from typing import Any

import anywidget
from ipywidgets import Layout

__all__ = ["GUARDED", "LIVE", "KeyGuard", "announce", "keep_keys"]

GUARDED = "setw-guarded"
"""The CSS class of a widget whose keys stay inside it."""
LIVE = "setw-live"
"""The CSS class of a line a screen reader says as it changes (a verdict, a board's status)."""

_ESM = """
const ROOT = ".ROOT_CLASS";
const MARK = "data-lm-suppress-shortcuts";

function mark(event) {
    const target = event.target;
    if (!(target instanceof Element) || target.closest(ROOT) === null) return;
    if (event.ctrlKey || event.altKey || event.metaKey) target.removeAttribute(MARK);
    else target.setAttribute(MARK, "true");
}

// A focused control that is disabled (a board's "Hint" when the game ends, as the computer or
// the class clock plays on), hidden or removed by a redraw loses the focus to the page's <body>
// (Chromium's focus fixup; it fires focusout with no relatedTarget, checked in Chromium 156).
// The student's next keys then do nothing in the widget, Tab starts again from the top of the
// page, and a screen reader is thrown there. So the focus goes to the nearest place in the
// same widget: the next usable control after the lost one, else the nearest before it, else
// the widget itself (made focusable, outside the Tab order). Its keys keep the mark above.
// A control left by the student's own doing (a click elsewhere, another window) is let go.
const FOCUSABLE = "a[href], button, input, select, textarea, canvas, [tabindex]";

function usable(el) {
    return el.isConnected && !el.matches(":disabled") && el.tabIndex >= 0
        && el.checkVisibility({visibilityProperty: true});
}

function lost(event) {
    const gone = event.target;
    if (event.relatedTarget !== null || !(gone instanceof Element)) return;
    const roots = [];  // the guarded widgets around it, innermost first
    for (let r = gone.closest(ROOT); r !== null; r = r.parentElement && r.parentElement.closest(ROOT))
        roots.push(r);
    if (!roots.length) return;
    // The order is taken now: a removed control is still in place while its focusout runs.
    const all = [...roots[0].querySelectorAll(FOCUSABLE)];
    const at = all.indexOf(gone);
    const order = [...all.slice(at + 1), ...all.slice(0, Math.max(at, 0)).reverse()];
    // After the redraw that disabled or removed it has settled (one frame).
    requestAnimationFrame(() => {
        const active = document.activeElement;
        if (active !== null && active !== document.body) return;  // something else took it
        const forced = !gone.isConnected || gone.matches(":disabled")
            || !gone.checkVisibility({visibilityProperty: true});
        if (!forced) return;
        const root = roots.find(r => r.isConnected && r.checkVisibility());
        if (root === undefined) return;  // the whole widget went (its output was cleared)
        const next = order.find(el => root.contains(el) && usable(el));
        if (next !== undefined) {
            next.focus();
            return;
        }
        if (!root.hasAttribute("tabindex")) root.tabIndex = -1;
        root.focus({preventScroll: true});  // a tall widget does not jump to its top
    });
}

// What a screen reader needs and ipywidgets cannot say: a role and a name for each canvas of
// cards (from the names list drawn beside it), and the verdict lines as polite live regions.
function name(canvas, names) {
    const cards = [...names.querySelectorAll("li")].map(li => li.textContent);
    const keyed = canvas.closest(".setw-keys") !== null;
    const role = keyed ? "application" : "img";
    const label = (cards.length ? cards.length + " cards: " + cards.join("; ") : "no cards")
        + (keyed ? ". Click or focus the cards to use the keys: a card's letter picks it." : "");
    if (canvas.getAttribute("role") !== role) canvas.setAttribute("role", role);
    if (canvas.getAttribute("aria-label") !== label) canvas.setAttribute("aria-label", label);
}

function describe() {
    for (const names of document.querySelectorAll(".setw-names")) {
        const box = names.parentElement;
        const canvas = box && box.querySelector(":scope > canvas");
        if (canvas) name(canvas, names);
    }
    for (const line of document.querySelectorAll(".LIVE_CLASS:not([aria-live])")) {
        line.setAttribute("role", "status");
        line.setAttribute("aria-live", "polite");
        line.setAttribute("aria-atomic", "true");
    }
}

// ipywidgets shows the chosen button of a ToggleButtons (and a ToggleButton that is on) only by
// the class mod-active, which a screen reader does not hear: it says two buttons and never which
// one is chosen. Each such button says so itself (aria-pressed), kept in step by an observer of
// its class alone (the page-wide observer above does not watch attributes, which change often).
const TOGGLE = `${ROOT} .widget-toggle-button, .widget-toggle-button${ROOT}`;
const watchedToggles = new WeakSet();

function press(button) {
    const pressed = String(button.classList.contains("mod-active"));
    if (button.getAttribute("aria-pressed") !== pressed) button.setAttribute("aria-pressed", pressed);
}

const toggled = new MutationObserver(records => records.forEach(r => press(r.target)));

// A ToggleButtons' description is a <label> of no control: the buttons' box is a group named by it.
const GROUP = `${ROOT} .widget-toggle-buttons, .widget-toggle-buttons${ROOT}`;

function grouped() {
    for (const box of document.querySelectorAll(GROUP)) {
        const label = box.querySelector(":scope > .widget-label");
        const name = label ? label.textContent.trim() : "";
        if (!name) continue;
        if (box.getAttribute("role") !== "group") box.setAttribute("role", "group");
        if (box.getAttribute("aria-label") !== name) box.setAttribute("aria-label", name);
    }
}

function pressable() {
    for (const button of document.querySelectorAll(TOGGLE)) {
        press(button);
        if (watchedToggles.has(button)) continue;
        watchedToggles.add(button);
        toggled.observe(button, {attributes: true, attributeFilter: ["class"]});
    }
}

let pending = false;
function later() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; describe(); pressable(); grouped(); });
}

export default {
    initialize() {
        // Once per page, however many guards (kernels, reloads) the page meets.
        if (window.__setwKeyGuard) return;
        window.__setwKeyGuard = true;
        window.addEventListener("keydown", mark, true);
        window.addEventListener("focusout", lost, true);
        // Cards, lines and toggle buttons come and go with the widgets' redraws: described again
        // after each.
        const watched = {childList: true, subtree: true, characterData: true};
        new MutationObserver(later).observe(document.body, watched);
        later();
    },
    render({ el }) {
        el.setAttribute("aria-hidden", "true");
    },
};
""".replace("ROOT_CLASS", GUARDED).replace("LIVE_CLASS", LIVE)


class KeyGuard(anywidget.AnyWidget):
    """The front-end module: keys kept inside the package's widgets, and what a screen reader hears
    of them (see the module docstring)."""

    _esm = _ESM


_guard: KeyGuard | None = None


def keep_keys(widget: Any) -> Any:
    """Give ``widget`` the keyboard policy: every key typed inside it stays there. Returns ``widget``.

    Adds the :data:`GUARDED` class, and makes the kernel's one :class:`KeyGuard` if there is
    none yet (or if ``Widget.close_all()`` closed it).
    """
    global _guard
    widget.add_class(GUARDED)
    if _guard is None or _guard.comm is None:
        _guard = KeyGuard(layout=Layout(display="none"))
    return widget


def announce(line: Any) -> Any:
    """Make ``line`` (an HTML widget: a verdict, a status) a polite live region; returns it.

    A screen reader then says its new text each time it changes ("Not a SET: ..."), without
    the student moving there. The role and ``aria-live`` are set by the guard's module.
    """
    line.add_class(LIVE)
    return line
