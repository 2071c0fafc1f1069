"""The one exception type for a user's mistake.

Every layer raises `UserError` (or a subclass) for bad input; the command line
prints its message as one line on stderr and exits with code 2, and the play
screen shows it in the window. Anything else escaping is a bug.
"""

from __future__ import annotations


class UserError(Exception):
    """Bad input from a person: a file, an argument, an illegal action.

    `message` is one line that says what and why; `spec_id` names the SPEC
    rule that decided it, where one applies.
    """

    def __init__(self, message: str, *, spec_id: str | None = None) -> None:
        self.message = message
        self.spec_id = spec_id
        super().__init__(self.describe())

    def describe(self) -> str:
        if self.spec_id and self.spec_id not in self.message:
            return f"{self.message} ({self.spec_id})"
        return self.message
