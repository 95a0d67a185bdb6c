"""Players' names on paper: a font that has every letter, right-to-left words in order, a fit.

reportlab's built-in Helvetica has the letters of Western Europe only (Windows' code page
1252): a name such as "Łukasz", "Ἀθηνᾶ" or "فاطمة" would print as black boxes. So each text
is written in the first font that has all its letters:

- Helvetica, for the letters it has (the look of the rest of the page);
- DejaVu Sans, a free font (Latin, Greek, Cyrillic, Arabic, Hebrew and more) that ships
  with matplotlib and with most Linux systems, embedded in the PDF;
- for Chinese, Japanese and Korean, a CJK TrueType font, embedded in the PDF (only the
  letters used, a few kilobytes a name): the file named by the environment variable
  ``SETWIDGETS_CJK_FONT`` when it is set, otherwise the first of :data:`CJK_FONTS` found.
  WenQuanYi Micro Hei (Debian's fonts-wqy-microhei, Apache 2.0 or GPL 3 with the font
  exception, 1.6 MB to download) comes first: it has the Chinese characters, kana, all
  11,172 Hangul syllables and Latin letters too. ``python3 course.py test`` installs it,
  ``course.py lab`` too when it runs as root, and Binder's ``apt.txt`` lists it.
  Droid Sans Fallback (fonts-droid-fallback) has Chinese and kana but no Hangul syllables
  and no Latin letters: it prints only names written in those scripts alone.
  Noto Sans CJK (.otf, .ttc) has PostScript outlines, which reportlab cannot embed;
- without such a font (or for a name it lacks), one of Adobe's standard CJK fonts
  (STSong-Light, HeiseiKakuGo-W5, HYGothic-Medium), named in the PDF but not embedded:
  Adobe's readers with their Asian font packs show them, but poppler, many printers and
  Linux viewers without those fonts show empty boxes in their place.

A letter that none of these fonts has (Devanagari, Tamil, Thai, Ethiopic, Cherokee, ...) would
still print as a box: :func:`legible` writes such letters as a Latin reading made from their
Unicode names ("DEVANAGARI LETTER KA" reads "ka"), so that the name can be read on the paper.

Arabic letters change shape with their neighbours and Arabic and Hebrew run from right to
left; reportlab writes letters one after the other from left to right, so
:func:`visual` joins the Arabic letters (their presentation forms) and puts right-to-left
words in the order the eye reads them. A name too long for its place shrinks to fit, then
wraps on more lines where its box has room for them, and never runs over (:func:`layout`);
only a name that fits no way at all is shortened with an ellipsis (:func:`fit`).

>>> fit("Ada", "Helvetica", 10, 100)
'Ada'
>>> fit("Ada Lovelace, Countess of Lovelace", "Helvetica", 10, 60)
'Ada Lovel…'
"""

from __future__ import annotations

import importlib.util
import math
import os
import unicodedata
import warnings
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont

__all__ = [
    "CJK_FONTS",
    "CJK_FONT_VARIABLE",
    "ELLIPSIS",
    "LEADING",
    "SHRINK",
    "SMALLEST",
    "cjk_fonts",
    "draw",
    "fit",
    "font_for",
    "layout",
    "legible",
    "visual",
]

ELLIPSIS = "\u2026"

# Where DejaVu Sans is found: matplotlib's own copy first (the widgets and sim extras bring
# it), then the usual places of Linux and macOS systems.
_SYSTEM_FOLDERS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/Library/Fonts",
)
# The one home of the CJK TrueType fonts' choice (see the module's help). course.py asks
# cjk_fonts() whether one is installed before it installs fonts-wqy-microhei.
CJK_FONT_VARIABLE = "SETWIDGETS_CJK_FONT"
CJK_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  # fonts-wqy-microhei: CJK, Hangul, Latin
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",  # Fedora's wqy-microhei-fonts
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",  # fonts-wqy-zenhei: CJK, Hangul, Latin
    "/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",  # fonts-droid-fallback: no Hangul
    "/usr/share/fonts/google-droid-sans-fonts/DroidSansFallbackFull.ttf",
)
"""Where CJK TrueType fonts are looked for, in order of preference (after ``SETWIDGETS_CJK_FONT``)."""
_CID_FONTS = {"korean": "HYGothic-Medium", "japanese": "HeiseiKakuGo-W5", "chinese": "STSong-Light"}


def _font_folders() -> list[Path]:
    folders = []
    spec = importlib.util.find_spec("matplotlib")  # its location only: importing it takes seconds
    if spec and spec.submodule_search_locations:
        for place in spec.submodule_search_locations:
            folders.append(Path(place) / "mpl-data" / "fonts" / "ttf")
    return folders + [Path(p) for p in _SYSTEM_FOLDERS]


@cache
def _dejavu(bold: bool) -> str | None:
    """The name DejaVu Sans (bold) is registered under, or None when no copy is found."""
    file = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in _font_folders():
        if (folder / file).is_file():
            name = "DejaVuSans-Bold" if bold else "DejaVuSans"
            try:
                pdfmetrics.registerFont(TTFont(name, str(folder / file)))
            except Exception:  # an unreadable copy: the next place may hold a good one
                continue
            return name
    return None


@cache
def cjk_fonts() -> tuple[str, ...]:
    """The names the CJK TrueType fonts found are registered under, the preferred first.

    Empty when none is found: Chinese, Japanese and Korean names are then printed in Adobe's
    CJK fonts, which the PDF names without embedding them. A file named by
    ``SETWIDGETS_CJK_FONT`` that reportlab cannot read (missing, PostScript outlines) is
    skipped with a warning; the usual places are tried after it.
    """
    chosen = os.environ.get(CJK_FONT_VARIABLE, "").strip()
    names: list[str] = []
    for place in ([chosen] if chosen else []) + list(CJK_FONTS):
        path = Path(place)
        if not path.is_file() and place != chosen:
            continue
        name = f"CJK-{path.stem}"
        if name in names:
            continue
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))  # a .ttc: its first font
        except Exception as error:  # an unreadable file: the next place may hold a good one
            if place == chosen:
                warning = f"{CJK_FONT_VARIABLE}={chosen} is not a font reportlab can embed: {error}"
                warnings.warn(warning, stacklevel=3)
            continue
        names.append(name)
    return tuple(names)


def _has_all(font: str, text: str) -> bool:
    glyphs = pdfmetrics.getFont(font).face.charToGlyph
    return all(ord(c) in glyphs for c in text)


def _cjk(text: str) -> str | None:
    names = "".join(unicodedata.name(c, "") for c in text)
    if "HANGUL" in names:
        return "korean"
    if "HIRAGANA" in names or "KATAKANA" in names:
        return "japanese"
    if "CJK" in names:
        return "chinese"
    return None


def font_for(text: str, bold: bool = False) -> str:
    """The name of the first font that has every letter of ``text`` (registered with reportlab).

    >>> font_for("Zoë"), font_for("Ἀθηνᾶ")
    ('Helvetica', 'DejaVuSans')
    """
    helvetica = "Helvetica-Bold" if bold else "Helvetica"
    try:
        text.encode("cp1252")
        return helvetica
    except UnicodeEncodeError:
        pass
    for font in (_dejavu(bold), _dejavu(False)):
        if font and _has_all(font, text):
            return font
    for font in cjk_fonts():  # embedded, so that every reader and printer shows them
        if _has_all(font, text):
            return font
    script = _cjk(text)
    if script:
        name = _CID_FONTS[script]
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(UnicodeCIDFont(name))
        return name
    # No font found has them all: DejaVu shows most, Helvetica the Western letters.
    return _dejavu(False) or helvetica


# -- letters no font has -------------------------------------------------------------------------

# Signs that sound on their own after a letter; the other marks (nukta, ...) add nothing to a reading.
_SOUNDING_SIGNS = {"ANUSVARA": "m", "VISARGA": "h", "CANDRABINDU": "n"}
_KINDS = ("LETTER", "SYLLABLE", "CHARACTER")


def _printable(char: str) -> bool:
    """True when one of the fonts :func:`font_for` picks from has ``char``."""
    try:
        char.encode("cp1252")
        return True
    except UnicodeEncodeError:
        pass
    dejavu = _dejavu(False)
    return (
        bool(dejavu and _has_all(dejavu, char))
        or any(_has_all(font, char) for font in cjk_fonts())
        or _cjk(char) is not None
    )


def _reading(char: str) -> tuple[str, bool]:
    """(a Latin reading of ``char`` from its Unicode name, whether it replaces a letter's own vowel)."""
    if unicodedata.digit(char, None) is not None:
        return str(unicodedata.digit(char)), False
    words = unicodedata.name(char, "").split()
    if unicodedata.category(char) in ("Mn", "Mc"):  # a sign written on a letter
        if "VIRAMA" in words or "HALANT" in words:  # the letter without its own vowel
            return "", True
        if "VOWEL" in words and "SIGN" in words:  # another vowel instead of the letter's own
            return "".join(words[words.index("SIGN") + 1 :]).lower(), True
        return next((_SOUNDING_SIGNS[w] for w in words if w in _SOUNDING_SIGNS), ""), False
    kind = next((i for i, w in enumerate(words) if w in _KINDS), None)
    rest = (
        [w for w in words[kind + 1 :] if w not in ("CAPITAL", "SMALL", "GLOTTAL")] if kind is not None else []
    )
    if not rest:
        return "?", False
    if rest[0] in ("SARA", "VOCALIC") and len(rest) > 1:  # Thai vowels; Indic r and l sounding as vowels
        return (rest[1] + ("i" if rest[0] == "VOCALIC" else "")).lower(), False
    return rest[0].lower(), False


def legible(text: str) -> str:
    """``text`` with each letter that no font here has written as a Latin reading of it.

    The reading comes from the letter's Unicode name: "DEVANAGARI LETTER KA" reads "ka", a vowel
    sign replaces the "a" a consonant carries and a virama drops it, and each word starts with
    a capital. Letters a font has stay as they are.

    >>> legible("प्रिया शर्मा"), legible("Zoë 李")
    ('Priyaa Sharmaa', 'Zoë 李')
    """
    out: list[str] = []
    own_vowel = False  # the last reading is a consonant's, ending with the vowel it carries
    for char in text:
        if _printable(char):
            out.append(char)
            own_vowel = False
            continue
        reading, replaces = _reading(char)
        if replaces and own_vowel:
            out[-1] = out[-1][:-1]
        if reading and (not out or "".join(out)[-1:].isspace()):
            reading = reading.capitalize()
        out.append(reading)
        own_vowel = len(reading) > 1 and reading.endswith("a") and not replaces
    return "".join(out)


# -- right to left ------------------------------------------------------------------------------


def _form(char: str, form: str) -> str | None:
    try:
        return unicodedata.lookup(f"{unicodedata.name(char)} {form} FORM")
    except (KeyError, ValueError):
        return None


def _joins_next(char: str | None) -> bool:
    return char is not None and _form(char, "INITIAL") is not None


def _joins_previous(char: str | None) -> bool:
    return char is not None and _form(char, "FINAL") is not None


def _shaped(text: str) -> str:
    """Arabic letters in their joined forms (initial, medial, final), lam-alef as one letter."""
    letters = list(text)
    out = []
    i = 0
    while i < len(letters):
        char = letters[i]
        # Marks (vowel signs) sit on a letter and do not break the joining.
        before = next((c for c in reversed(letters[:i]) if unicodedata.category(c) != "Mn"), None)
        after_at = next(
            (j for j in range(i + 1, len(letters)) if unicodedata.category(letters[j]) != "Mn"), None
        )
        after = letters[after_at] if after_at is not None else None
        joined_before = _joins_next(before) and _joins_previous(char)
        if (
            unicodedata.name(char, "") == "ARABIC LETTER LAM"
            and after
            and "ALEF" in unicodedata.name(after, "")
        ):
            # Lam then alef is always written as one ligature.
            tail = unicodedata.name(after).removeprefix("ARABIC LETTER ALEF")
            ligature = f"ARABIC LIGATURE LAM WITH ALEF{tail} {'FINAL' if joined_before else 'ISOLATED'} FORM"
            try:
                out.append(unicodedata.lookup(ligature))
                out.extend(letters[i + 1 : after_at])
                i = after_at + 1
                continue
            except KeyError:
                pass
        joined_after = _joins_next(char) and _joins_previous(after)
        form = {(True, True): "MEDIAL", (True, False): "FINAL", (False, True): "INITIAL"}.get(
            (joined_before, joined_after), "ISOLATED"
        )
        out.append(
            (_form(char, form) or _form(char, "ISOLATED") or char)
            if "ARABIC" in unicodedata.name(char, "")
            else char
        )
        i += 1
    return "".join(out)


def _right_to_left(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("R", "AL")


def visual(text: str) -> str:
    """``text`` in the order its letters are drawn from left to right, Arabic letters joined.

    Text without right-to-left letters comes back as it is. Otherwise the runs of
    right-to-left letters (with the spaces and marks between them) are reversed; a text
    that begins right to left has its runs reversed too, as a reader of that script reads it.

    >>> visual("Ada")
    'Ada'
    >>> visual("\u05d3\u05e0\u05d4") == "\u05d4\u05e0\u05d3"
    True
    """
    if not any(_right_to_left(c) for c in text):
        return text
    return _reordered(_shaped(text))


def _reordered(text: str) -> str:
    strong = [c for c in text if unicodedata.bidirectional(c) in ("L", "R", "AL")]
    rtl_paragraph = _right_to_left(strong[0])
    # Runs: each character is right-to-left (True) or not; neutrals take the side of the
    # text around them when both sides agree, the paragraph's side otherwise.
    sides: list[bool | None] = [
        True if _right_to_left(c) else (False if unicodedata.bidirectional(c) in ("L", "EN", "AN") else None)
        for c in text
    ]
    for i, side in enumerate(sides):
        if side is None:
            left = next((s for s in reversed(sides[:i]) if s is not None), rtl_paragraph)
            right = next((s for s in sides[i + 1 :] if s is not None), rtl_paragraph)
            sides[i] = left if left == right else rtl_paragraph
    runs: list[tuple[bool, str]] = []
    for char, side in zip(text, sides):
        if runs and runs[-1][0] == side:
            runs[-1] = (side, runs[-1][1] + char)
        else:
            runs.append((side, char))
    pieces = [run[::-1] if side else run for side, run in runs]
    return "".join(reversed(pieces) if rtl_paragraph else pieces)


# -- fitting and drawing ------------------------------------------------------------------------


def _ellipsis(font: str) -> str:
    """The ellipsis in ``font``: three dots of its own where it has no "…" (Droid Sans Fallback)."""
    glyphs = getattr(pdfmetrics.getFont(font).face, "charToGlyph", None)
    if glyphs is None or ord(ELLIPSIS) in glyphs:
        return ELLIPSIS
    return next((dots * 3 for dots in (".", "\u30fb", "\uff0e") if ord(dots) in glyphs), "")


def fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` as it is when it fits ``width`` points, otherwise shortened, with an ellipsis."""
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    ellipsis = _ellipsis(font)
    low, high = 0, len(text)  # the longest start that fits with the ellipsis
    while low < high:
        middle = (low + high + 1) // 2
        if pdfmetrics.stringWidth(text[:middle].rstrip() + ellipsis, font, size) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ellipsis


SMALLEST = 5.0
"""The smallest type a name is printed in, in points: below it a name is no longer read at arm's length."""
SHRINK = 0.7
"""A name on one line shrinks to this share of its type's size at most before it is wrapped."""
LEADING = 1.15
"""The distance between two lines of a wrapped name, as a share of its type's size."""


def _wide(char: str) -> bool:
    """True for the letters of Chinese, Japanese and Korean, which a line may break between."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def _wrap(text: str, font: str, size: float, widths: Sequence[float], most: int = 0) -> list[str]:
    """``text`` cut into lines, each within its width (the last width for every line after).

    Lines break at spaces and after hyphens, between CJK letters, and inside a word only
    when the word alone is wider than the line (never before a combining mark). With
    ``most``, the line ``most`` holds the whole rest, however wide.
    """
    lines: list[str] = []
    rest = text.strip()
    while rest:
        width = widths[min(len(lines), len(widths) - 1)]
        if len(lines) + 1 == most or pdfmetrics.stringWidth(rest, font, size) <= width:
            lines.append(rest)
            break
        low, high = 1, len(rest)  # the longest start that fits (one letter at least)
        while low < high:
            middle = (low + high + 1) // 2
            if pdfmetrics.stringWidth(rest[:middle].rstrip(), font, size) <= width:
                low = middle
            else:
                high = middle - 1
        cut = next(
            (
                i
                for i in range(low, 0, -1)
                if rest[i].isspace()
                or rest[i - 1] in "-\u2010\u2013"
                or (_wide(rest[i - 1]) or _wide(rest[i]))
                and not unicodedata.combining(rest[i])
            ),
            low,
        )
        while cut > 1 and unicodedata.combining(rest[cut]):
            cut -= 1
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    return lines


def layout(
    text: str,
    *,
    size: float,
    width: float,
    bold: bool = False,
    first: float | None = None,
    height: float | None = None,
) -> tuple[str, float, list[str]]:
    """How a name is printed in a box: its font, its size and its lines, each in drawing order.

    The name keeps ``size`` when it fits ``width`` points (``first`` for the first line, where
    a prefix takes the rest). Otherwise it shrinks, to :data:`SHRINK` of ``size`` at most, to
    fit one line; then, where ``height`` points leave room for more lines, it is wrapped on as
    few lines as fit, each in the largest type that fits (down to :data:`SMALLEST` points);
    only a name that fits no way at all is shortened, with an ellipsis at the end of its last
    line. Nothing is ever printed beyond ``width`` or ``height``.

    >>> layout("Ada", size=10, width=100)
    ('Helvetica', 10, ['Ada'])
    >>> layout("Ada Lovelace, Countess of Lovelace", size=10, width=120)
    ('Helvetica', 7.25, ['Ada Lovelace, Countess of Lovelace'])
    >>> layout("Ada Lovelace, Countess of Lovelace", size=10, width=100, height=30)
    ('Helvetica', 10.0, ['Ada Lovelace,', 'Countess of Lovelace'])
    """
    text = legible(text)
    rtl = any(_right_to_left(c) for c in text)
    shaped = _shaped(text) if rtl else text
    font = font_for(shaped, bold)  # fit() shortens in the font's own ellipsis
    first = width if first is None else first
    widths = (first, width)

    def drawn(lines: list[str]) -> list[str]:
        # Wrapped before it is reordered: a right-to-left name is read line by line, from the top.
        return [_reordered(line) for line in lines] if rtl else lines

    one = pdfmetrics.stringWidth(shaped, font, 1)
    if one * size <= first:
        return font, size, drawn([shaped])
    if one * size * SHRINK <= first or height is None:
        smaller = math.floor(first / max(one, 1e-9) * 4) / 4  # a quarter point below the exact fit
        if smaller >= size * SHRINK:
            return font, smaller, drawn([shaped])
    if height is not None:
        # ``count`` lines of type ``s`` take s * (1 + LEADING * (count - 1)) points, top to bottom.
        most = max(1, int((height / SMALLEST - 1) / LEADING) + 1)
        for count in range(2, most + 1):
            # The largest type, in quarter points, at which the name takes ``count`` lines.
            top = min(size, height / (1 + LEADING * (count - 1)))
            steps = int((top - SMALLEST) * 4)
            for step in range(steps, -1, -1):
                tried = SMALLEST + step / 4
                lines = _wrap(shaped, font, tried, widths)
                if len(lines) <= count:
                    return font, tried, drawn(lines)
                if len(lines) > count + 2:
                    break  # much too long for this many lines at any smaller type either: skip ahead
        lines = _wrap(shaped, font, SMALLEST, widths, most)
        lines[-1] = fit(lines[-1], font, SMALLEST, widths[min(len(lines) - 1, 1)])
        return font, SMALLEST, drawn(lines)
    return font, size * SHRINK, drawn([fit(shaped, font, size * SHRINK, first)])


def draw(
    pdf,
    x: float,
    y: float,
    text: str,
    *,
    size: float,
    width: float,
    bold: bool = False,
    prefix: str = "",
    height: float | None = None,
    grow: str = "down",
) -> int:
    """Write ``prefix`` (in Helvetica) and then ``text`` from (x, y), together ``width`` points at most.

    ``text`` (a name) is written in a font that has its letters (letters no font has as a Latin
    reading, see :func:`legible`), shrunk to fit, then wrapped on more lines where ``height``
    gives room for them (see :func:`layout`); ``prefix`` (the page's own words, such as
    "Player 4 – ") keeps its size and is never cut. ``y`` is the baseline of a name on one
    line; more lines ``grow`` from it "down" (the first line at ``y``), "up" (the last line
    at ``y``) or from the "middle" (the block centred where one line would be). Returns the
    number of lines written.
    """
    helvetica = "Helvetica-Bold" if bold else "Helvetica"
    room = pdfmetrics.stringWidth(prefix, helvetica, size) if prefix else 0.0
    font, fitted, lines = layout(text, size=size, width=width, bold=bold, first=width - room, height=height)
    step = LEADING * fitted
    if grow == "up":
        y += step * (len(lines) - 1)
    elif grow == "middle":  # the block's middle where one line's middle would be
        y += step * (len(lines) - 1) / 2 + 0.35 * (size - fitted)
    if prefix:
        pdf.setFont(helvetica, size)
        pdf.drawString(x, y, prefix)
    pdf.setFont(font, fitted)
    for i, line in enumerate(lines):
        pdf.drawString(x + (room if i == 0 else 0), y - i * step, line)
    return len(lines)
