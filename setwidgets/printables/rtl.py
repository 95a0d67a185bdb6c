"""Arabic and Hebrew names on paper: letters joined and words in the order the eye reads them.

Arabic letters change shape with their neighbours and Arabic and Hebrew run from right to
left; reportlab writes letters one after the other from left to right, so :func:`joined`
gives the Arabic letters their joined forms (Unicode's presentation forms, which DejaVu Sans
has) and :func:`reordered` puts right-to-left runs in the order they are drawn.
"""

from __future__ import annotations

import unicodedata

__all__ = ["joined", "reordered", "right_to_left", "visual"]


def _form(char: str, form: str) -> str | None:
    try:
        return unicodedata.lookup(f"{unicodedata.name(char)} {form} FORM")
    except (KeyError, ValueError):
        return None


def _joins_next(char: str | None) -> bool:
    return char is not None and _form(char, "INITIAL") is not None


def _joins_previous(char: str | None) -> bool:
    return char is not None and _form(char, "FINAL") is not None


def joined(text: str) -> str:
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


def right_to_left(char: str) -> bool:
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
    if not any(right_to_left(c) for c in text):
        return text
    return reordered(joined(text))


def reordered(text: str) -> str:
    strong = [c for c in text if unicodedata.bidirectional(c) in ("L", "R", "AL")]
    rtl_paragraph = right_to_left(strong[0])
    # Runs: each character is right-to-left (True) or not; neutrals take the side of the
    # text around them when both sides agree, the paragraph's side otherwise.
    sides: list[bool | None] = [
        True if right_to_left(c) else (False if unicodedata.bidirectional(c) in ("L", "EN", "AN") else None)
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
