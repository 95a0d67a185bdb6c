"""The instant checks, set aside while this notebook is graded.

A check compares your function with the package's own answer, and while an exercise is graded
the package's answers are not in the kernel at all (:mod:`setwidgets.grading.handout`). Each
check says so in one sentence instead: the graded tests below say how your answers did.
"""

from setwidgets.checks.runner import CheckResult

SET_ASIDE = (
    "{name} is set aside while this notebook is graded (the package's own answers are not here): "
    "the graded tests below say how your answers did."
)


def _set_aside(name: str):
    def check(*args, **kwargs):
        message = SET_ASIDE.format(name=name)
        print(message)
        return CheckResult(name, False, 0, message)

    check.__name__ = check.__qualname__ = name
    check.__doc__ = SET_ASIDE.format(name=name)
    return check


def __getattr__(name: str):
    if name.startswith("check_"):
        return _set_aside(name)
    raise AttributeError(
        f"module 'setwidgets.checks' has no attribute {name!r} while this notebook is graded"
    )
