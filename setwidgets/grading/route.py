"""The grader's own way into a grading kernel: a message of its own type, which no notebook name shadows.

While autograding, :class:`setwidgets.grading.preprocessors.GradingExecute` asks the kernel
questions: what the student's function answers on the grader's inputs
(:func:`setwidgets.grading.compute.call`), and whether the student's code ran in a test cell
(:mod:`setwidgets.grading.watch`). An expression evaluated in the notebook's namespace would be
the notebook's to answer: a global named ``__import__`` or ``get_ipython`` takes the question and
can answer anything, at any size. So the grader does not evaluate anything in the notebook's
namespace. The kernel starts with this module loaded as an IPython extension (the sandbox's
kernel command asks for it, before any cell runs), which registers a handler for one message
type of its own, :data:`REQUEST`, on the kernel's shell channel. The reply, :data:`REPLY`, holds
one string: JSON text, which the grader bounds (:data:`MAX_REPLY`) before it parses it as JSON.

Nothing here is trusted either: a notebook may still reach the kernel object and replace the
handler. It then answers with data of its own making, which is no more than what its own
function could return; the grader's verdict never depends on the kernel's good faith, and what
the kernel can forge (call counts, the watch's answer) never decides a grade or hides a flag.
"""

from __future__ import annotations

import json
from typing import Any

REQUEST = "setwidgets_grading_request"
"""The type of the grader's question, on the kernel's shell channel."""

REPLY = "setwidgets_grading_reply"
"""The type of the kernel's answer."""

MAX_REPLY = 8 * 2**20
"""The most characters of an answer's text the grader reads; anything longer is refused unread."""

MAX_MESSAGE = 3 * MAX_REPLY
"""The most bytes of one message on the grader's shell channel (JSON escapes can double a text);
a longer message is dropped by ZeroMQ before anything parses it."""


def kernel_argument() -> str:
    """The kernel's command-line argument that loads this module as an IPython extension."""
    return f"--IPKernelApp.extensions={__name__}"


def answer(ask: str, args: list[Any], namespace: dict[str, Any]) -> str:
    """The text of the answer to the grader's question ``ask`` with ``args``, in the kernel."""
    if ask == "call":
        from setwidgets.grading import compute

        (request,) = args
        return compute.call(request, namespace)
    if ask in ("start", "finish"):
        from setwidgets.grading import watch

        return json.dumps(getattr(watch, ask)(*args))
    raise ValueError(f"the grader asked an unknown question: {str(ask)[:40]!r}")


def load_ipython_extension(shell: Any) -> None:
    """Register the handler of :data:`REQUEST` on the kernel running ``shell`` (IPython calls this)."""
    kernel = getattr(shell, "kernel", None)
    if kernel is None:  # not in a kernel (a terminal IPython): nothing to answer
        return

    def handle(stream: Any, ident: Any, parent: dict[str, Any]) -> None:
        content = parent.get("content") or {}
        try:
            text = answer(content.get("ask"), list(content.get("args") or []), shell.user_ns)
            reply = {"status": "ok", "reply": text}
        except Exception as error:  # a malformed question: the grader reads it as no answer
            reply = {"status": "error", "reply": f"{type(error).__name__}: {str(error)[:200]}"}
        if len(reply["reply"]) > MAX_REPLY:
            too_long = f"the answer is longer than the {MAX_REPLY:,} characters the grader reads"
            reply = {"status": "error", "reply": too_long}
        kernel.session.send(stream, REPLY, reply, parent, ident=ident)

    kernel.shell_handlers[REQUEST] = handle
