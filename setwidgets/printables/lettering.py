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

- for the other scripts (Devanagari, Tamil, Thai, Ethiopic, Bengali, Cherokee, ...), the Noto font
  of the letter's script (Debian's fonts-noto-core), embedded and shaped with HarfBuzz so that
  vowel signs and joined consonants sit where a reader of the script expects them; the PDF
  keeps the name's own text beside the shapes, so it copies as typed
  (:mod:`setwidgets.printables.scripts`).

A name that mixes scripts no one font has ("Priya प्रिया") is printed in runs, each in a
font that has its letters. A letter that none of these fonts has (no Noto font installed,
say) would still print as a box: :func:`legible` writes such letters as a Latin reading made
from their Unicode names ("DEVANAGARI LETTER KA" reads "ka"), so that the name can be read on
the paper. An emoji prints as DejaVu Sans draws it (in black, as the rest of the name) when
DejaVu has it (😀 ☺ ❤); one that no font here has is printed as its Unicode name in
brackets, "[unicorn face]", and copies as those words: what is printed is what is copied.
Zero-width joiners and non-joiners (Persian, Sinhala) shape the letters around them and draw
nothing themselves.

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
from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont

from setwidgets.printables import scripts
from setwidgets.printables.rtl import joined, reordered, right_to_left, visual

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
    "text_width",
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


# Characters that draw nothing themselves: the zero-width joiner and non-joiner (Persian,
# Sinhala, emoji sequences), the variation selectors of emoji and their skin tones. HarfBuzz
# uses them to shape the letters around them; a font without them would print a box instead.
_INVISIBLE = frozenset("\u200c\u200d\ufe0e\ufe0f" + "".join(map(chr, range(0x1F3FB, 0x1F400))))


def _seen(text: str) -> str:
    """``text`` without the characters that draw nothing."""
    return "".join(c for c in text if c not in _INVISIBLE)


def _covers(font: str, text: str) -> bool:
    """True when ``font`` draws every letter of ``text`` (Adobe's CJK fonts: taken as they come)."""
    if font.startswith("Helvetica"):
        try:
            text.encode("cp1252")
            return True
        except UnicodeEncodeError:
            return False
    if font in _CID_FONTS.values():
        return True
    return _has_all(font, text if scripts.is_shaped(font) else _seen(text))


def _char_font(char: str, bold: bool) -> str | None:
    """The first font that has ``char``, in :func:`font_for`'s order, or None."""
    if _covers("Helvetica", char):
        return "Helvetica-Bold" if bold else "Helvetica"
    for font in (_dejavu(bold), _dejavu(False), *cjk_fonts(), scripts.font_for_char(char, bold)):
        if font and _has_all(font, char):
            return font
    return None


@lru_cache(maxsize=4096)
def _runs(text: str, bold: bool) -> tuple[tuple[str, str], ...]:
    """``text`` in runs, each with a font that has its letters: one run when one font has them all.

    A space, a mark, a joiner, a digit or a sign stays in the run before it when that run's
    font has it (a shaped script keeps its words together); anything else starts a new run in
    the first font that has it.
    """
    whole = font_for(text, bold)
    if _covers(whole, text):
        return ((whole, text),)
    runs: list[list[str]] = []
    for char in text:
        if runs and not unicodedata.category(char).startswith("L") and _covers(runs[-1][0], char):
            runs[-1][1] += char
            continue
        font = _char_font(char, bold) or whole
        if runs and runs[-1][0] == font:
            runs[-1][1] += char
        else:
            runs.append([font, char])
    return tuple((font, piece) for font, piece in runs)


def _piece(font: str, piece: str) -> str:
    """What is drawn of ``piece`` in ``font``: a font that is not shaped draws no invisible character."""
    return piece if scripts.is_shaped(font) else _seen(piece)


@lru_cache(maxsize=16384)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` (a line of a name) is printed at ``size`` points, in its fonts, shaped."""
    return sum(scripts.width(_piece(font, piece), font, size) for font, piece in _runs(text, bold))


def _draw_line(pdf, x: float, y: float, text: str, size: float, bold: bool) -> None:
    """One line of a name from (x, y): each run in its font, one after the other."""
    for font, piece in _runs(text, bold):
        drawn = _piece(font, piece)
        scripts.draw(pdf, x, y, drawn, font, size)
        x += scripts.width(drawn, font, size)


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
    own = {scripts.font_for_char(c, bold) for c in text if unicodedata.category(c)[0] == "L"}
    if len(own) == 1 and None not in own and _has_all(own_font := own.pop(), _seen(text)):
        return own_font  # a name in one script of those Noto fonts (Devanagari, Thai, ...)
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
    """True when one of the fonts :func:`font_for` picks from has ``char`` (or it draws nothing)."""
    if char in _INVISIBLE:
        return True
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
        or scripts.font_for_char(char) is not None
    )


def _reading(char: str) -> tuple[str, bool]:
    """(a Latin reading of ``char`` from its Unicode name, whether it replaces a letter's own vowel)."""
    if unicodedata.digit(char, None) is not None:
        return str(unicodedata.digit(char)), False
    if unicodedata.category(char) == "So":  # an emoji or a symbol: its name, in brackets
        return f"[{unicodedata.name(char, 'symbol').lower()}]", False
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
    a capital. Letters a font has stay as they are: Devanagari too where Debian's
    fonts-noto-core is installed (without it, "प्रिया शर्मा" reads "Priyaa Sharmaa"). Toto
    (Unicode 14) is in no font here; an emoji no font has reads as its name in brackets.

    >>> legible("\U0001e290\U0001e291 \U0001e292"), legible("Zoë 李"), legible("Ana \U0001f984")
    ('Paba Ta', 'Zoë 李', 'Ana [unicorn face]')
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


# -- fitting and drawing ------------------------------------------------------------------------


def _ellipsis(font: str) -> str:
    """The ellipsis in ``font``: three dots of its own where it has no "…" (Droid Sans Fallback)."""
    glyphs = getattr(pdfmetrics.getFont(font).face, "charToGlyph", None)
    if glyphs is None or ord(ELLIPSIS) in glyphs:
        return ELLIPSIS
    return next((dots * 3 for dots in (".", "\u30fb", "\uff0e") if ord(dots) in glyphs), "")


def fit(text: str, font: str, size: float, width: float, bold: bool | None = None) -> str:
    """``text`` as it is when it fits ``width`` points, otherwise shortened, with an ellipsis.

    ``text`` is measured in ``font``, or with ``bold`` (True or False) in the fonts of its runs.
    """

    def wide(part: str) -> float:
        return pdfmetrics.stringWidth(part, font, size) if bold is None else text_width(part, size, bold)

    if wide(text) <= width:
        return text
    ellipsis = _ellipsis(font)
    low, high = 0, len(text)  # the longest start that fits with the ellipsis
    while low < high:
        middle = (low + high + 1) // 2
        if wide(text[:middle].rstrip() + ellipsis) <= width:
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


def _wrap(text: str, bold: bool, size: float, widths: Sequence[float], most: int = 0) -> list[str]:
    """``text`` cut into lines, each within its width (the last width for every line after).

    Lines break at spaces and after hyphens, between CJK letters, and inside a word only
    when the word alone is wider than the line (never before a combining mark). With
    ``most``, the line ``most`` holds the whole rest, however wide.
    """
    lines: list[str] = []
    rest = text.strip()
    while rest:
        width = widths[min(len(lines), len(widths) - 1)]
        if len(lines) + 1 == most or text_width(rest, size, bold) <= width:
            lines.append(rest)
            break
        low, high = 1, len(rest)  # the longest start that fits (one letter at least)
        while low < high:
            middle = (low + high + 1) // 2
            if text_width(rest[:middle].rstrip(), size, bold) <= width:
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
    rtl = any(right_to_left(c) for c in text)
    shaped = joined(text) if rtl else text
    font = font_for(shaped, bold)  # fit() shortens in the font's own ellipsis
    first = width if first is None else first
    widths = (first, width)

    def drawn(lines: list[str]) -> list[str]:
        # Wrapped before it is reordered: a right-to-left name is read line by line, from the top.
        return [reordered(line) for line in lines] if rtl else lines

    one = text_width(shaped, 1, bold)
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
                lines = _wrap(shaped, bold, tried, widths)
                if len(lines) <= count:
                    return font, tried, drawn(lines)
                if len(lines) > count + 2:
                    break  # much too long for this many lines at any smaller type either: skip ahead
        lines = _wrap(shaped, bold, SMALLEST, widths, most)
        lines[-1] = fit(lines[-1], font, SMALLEST, widths[min(len(lines) - 1, 1)], bold)
        return font, SMALLEST, drawn(lines)
    return font, size * SHRINK, drawn([fit(shaped, font, size * SHRINK, first, bold)])


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
    for i, line in enumerate(lines):
        _draw_line(pdf, x + (room if i == 0 else 0), y - i * step, line, fitted, bold)
    return len(lines)
