"""Saving, loading and autosaving games: a `History` to and from `io.saves`.

Loading replays the saved actions through the rule system from the starting
map, step by step with each step's own dice, and checks that every step
still applies and rolls what it rolled when it was played. A step that no
longer applies, or rolls differently (a save from another version of the
rules), is a UserError naming the file and the step. A step the game took by itself
(`Step.forced`) is saved with its reason and applied again as recorded: a replay never
derives such steps, so a save made before the game took any replays as it was played.

`Autosave(path).write(history)` is what a play screen calls after every
apply, undo and redo: the write is atomic, so a session killed at any moment
reopens with every action that completed before it. Each game has its own
autosave file, named by the game's id (`Autosave.new_game_in`, `for_new_game`):
starting or opening another game never writes over one.
"""

from __future__ import annotations

import gc
import glob
import os
import secrets
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tactical.dice.fair import FairLedger, FairRoll
from tactical.errors import UserError
from tactical.io.saves import ChatLine, SavedAction, SavedGame, SaveError, read_save, write_save
from tactical.rules.base import Action
from tactical.session.adjust import ADJUST, adjust_params
from tactical.session.digest import game_digest, same_scheme
from tactical.session.game import Game, Step
from tactical.session.history import History


def saved_game(
    played: History | Game, fair: FairLedger | None = None, chat: Sequence[ChatLine] = ()
) -> SavedGame:
    """What a save holds: every step of a history's line and its cursor, or a game's steps;
    the digest of the game at the end of the line; `fair`, the chain heads of a game whose
    dice came from the players' nonces (`dice.fair`); `chat`, what its players wrote."""
    if isinstance(played, Game):
        first, steps, cursor, take = played, played.steps, len(played.steps), True
        last = played
    else:
        # a history may start from a game already under way: the cursor counts every step
        first, steps = played.first, played.steps
        cursor, take = first.step_number + played.cursor, played.take_single
        last = played.last
    actions = tuple(map(_saved, steps))
    return SavedGame(
        first.initial, first.seed, actions, cursor, take, fair, game_digest(last), tuple(chat)
    )


_SAVED: weakref.WeakKeyDictionary[Step, SavedAction] = weakref.WeakKeyDictionary()


def _saved(step: Step) -> SavedAction:
    """A step as saved, made once per step (an autosave saves every step again)."""
    found = _SAVED.get(step)
    if found is None:
        action = step.action
        found = SavedAction(
            action.kind, action.actor, action.params, step.results, step.forced, step.fair
        )
        _SAVED[step] = found
    return found


# What rule-system code raises on values it never made itself: a save's `rule_state` (or an
# action's parameters) edited by hand. From a save these are the file's fault, not a bug.
UNTRUSTED_FAULTS = (
    KeyError,
    ValueError,
    TypeError,
    AttributeError,
    IndexError,
    ArithmeticError,
    AssertionError,
    RecursionError,
)


def _fault_text(fault: BaseException) -> str:
    detail = str(fault).splitlines()[0][:120] if str(fault) else ""
    return f"{type(fault).__name__}: {detail}" if detail else type(fault).__name__


def replay_actions(
    start: Game,
    actions: Sequence[Action],
    source: str,
    rolls: Sequence[tuple[int, ...]] | None = None,
    *,
    untrusted: bool = False,
    forced: Sequence[str] | None = None,
    fair: Sequence[FairRoll | None] | None = None,
) -> Game:
    """The game after applying `actions` in turn from `start`, checking recorded rolls if
    given; `forced` the reason of each step the game took by itself ("" for a decision);
    `fair` how each step's dice seed was made from the players' nonces (None: the seed's).
    Only the last game is kept (the steps hold what rebuilds the others, `session.steps`).

    `untrusted` (a save file): a step the rule system cannot even evaluate is refused as a
    SaveError naming the step, and the save's `rule_state` when it has one."""
    game = start
    for index, action in enumerate(actions):
        number = index + 1
        if untrusted:
            try:
                stranger = unknown_param(game, action)
            except (UserError, *UNTRUSTED_FAULTS):
                stranger = None  # applying it says what is wrong
            if stranger is not None:
                key, known = stranger
                raise SaveError(
                    source,
                    f"actions[{index}].params.{key}",
                    f"a parameter {action.kind} takes ({', '.join(known) or 'it takes none'})",
                )
        try:
            following = game.apply(
                action,
                forced=forced[index] if forced else "",
                fair=fair[index] if fair else None,
            )
        except UserError as error:
            where = _where(index, action)
            raise UserError(
                f"{source}: {where} no longer applies: {error.message}",
                spec_id=error.spec_id,
            ) from None
        except UNTRUSTED_FAULTS as fault:
            if not untrusted:
                raise
            where = _where(index, action)
            if start.initial.rule_state:
                raise SaveError(
                    source,
                    "rule_state",
                    f"the state of a {start.rules} game: {where} cannot be played from it "
                    f"({_fault_text(fault)})",
                ) from None
            raise SaveError(
                source, f"actions[{index}]", f"an action of the game ({_fault_text(fault)})"
            ) from None
        if rolls is not None:
            got = following.steps[number - 1].results
            if got != rolls[index]:
                raise UserError(
                    f"{source}: {_where(index, action)} rolled {list(got)} on replay but the "
                    f"save recorded {list(rolls[index])}: the save was made with different "
                    "rules or dice"
                )
        game = following
    return game


def unknown_param(game: Game, action: Action) -> tuple[str, tuple[str, ...]] | None:
    """The first parameter of `action` that no choice of its kind and actor takes now (an
    adjustment: no adjustment of its `op`), with the ones they take; None when every one is
    known, or when nothing of the kind is offered (applying it says why)."""
    if action.kind == ADJUST:
        known = adjust_params(action.params.get("op"))
    else:
        offered = [c for c in game.choices() if (c.kind, c.actor) == (action.kind, action.actor)]
        if not offered:
            return None
        known = tuple(dict.fromkeys(spec.name for c in offered for spec in c.fields))
    for key in action.params:
        if key not in known:
            return str(key), known
    return None


def _where(index: int, action: Action) -> str:
    return f"actions[{index}] (step {index + 1}, {action.kind} by {action.actor!r})"


@contextmanager
def lasting_objects() -> Iterator[None]:
    """No cyclic garbage collection while a save is read and replayed: nearly everything
    made then lasts (the steps), and a collector run every few thousand new objects scans
    them all again (a third of the time of opening a long save)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def history_from_saved(saved: SavedGame, source: str = "<save>") -> History:
    """Rebuild a history by replaying a save (see the module docstring)."""
    with lasting_objects():
        return _replayed(saved, source)


def _replayed(saved: SavedGame, source: str) -> History:
    try:
        start = Game.new(saved.initial, saved.seed)
    except UserError as error:
        raise UserError(f"{source}: the saved map cannot start a game: {error.message}") from None
    except UNTRUSTED_FAULTS as fault:
        key = "rule_state" if saved.initial.rule_state else "map"
        raise SaveError(
            source, key, f"the state of a {saved.rules} game ({_fault_text(fault)})"
        ) from None
    last = replay_actions(
        start,
        [Action(a.kind, a.actor, a.params) for a in saved.actions],
        source,
        [a.rolls for a in saved.actions],
        untrusted=True,
        forced=[a.forced for a in saved.actions],
        fair=[a.fair for a in saved.actions],
    )
    if saved.digest is not None and same_scheme(saved.digest):
        replayed = game_digest(last)
        if replayed != saved.digest:
            key = "rule_state" if saved.initial.rule_state else "actions"
            raise SaveError(
                source,
                key,
                "what the game was when saved: its actions replay to another game (the "
                f"save's {key.replace('_', ' ')} was changed after it was written)",
            )
    return History.of_line(start, last, saved.cursor, saved.take_forced_steps)


def save_game(
    history: History | Game,
    path: str | os.PathLike[str],
    fair: FairLedger | None = None,
    chat: Sequence[ChatLine] = (),
) -> None:
    """Write the game to `path` as JSON, atomically (`fair`: its players' chain heads;
    `chat`: what they wrote to each other)."""
    write_save(saved_game(history, fair, chat), path)


def load_game(path: str | os.PathLike[str]) -> History:
    """Read a save and replay it into a history (cursor where it was saved)."""
    return load_played(path)[0]


def load_played(path: str | os.PathLike[str]) -> tuple[History, SavedGame]:
    """A save replayed into a history, and the save as read (its `fair` ledger)."""
    with lasting_objects():
        saved = read_save(path)
        return history_from_saved(saved, str(path)), saved


def _newest(files: list[Path]) -> Path | None:
    """The most recently modified of the regular files among `files` (None if none is)."""
    found = []
    for file in files:
        try:
            if file.is_file():
                found.append((file.stat().st_mtime_ns, file.name, file))
        except OSError:
            continue
    return max(found)[2] if found else None


def new_game_id(now: datetime | None = None) -> str:
    """A game's id: when it started (UTC, so that ids sort by age) and 6 random hex digits
    (two games started in the same second never share one)."""
    moment = now or datetime.now(UTC)
    return f"{moment:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


GAME_FILE = "{id}.json"  # a game's autosave in the autosave folder
# what a game id looks like to glob (so that `--resume` never takes another file for a game)
GAME_ID_GLOB = "[0-9]" * 8 + "-" + "[0-9]" * 6 + "-" + "[0-9a-f]" * 6


@dataclass(frozen=True)
class Autosave:
    """The autosave file a play screen writes after every change (atomic writes).

    One file per game: a new game never writes over another game's autosave. `naming`
    says how another game's file is named next to this one (`{id}` its game id): in the
    autosave folder `<id>.json`; next to a file given by hand `<stem>-<id><suffix>`.
    """

    path: Path
    naming: str = ""

    def __init__(self, path: str | os.PathLike[str], naming: str = "") -> None:
        object.__setattr__(self, "path", Path(path))
        object.__setattr__(self, "naming", naming)

    @classmethod
    def new_game_in(cls, folder: str | os.PathLike[str]) -> Autosave:
        """A new game's autosave in the autosave folder, named by its id."""
        return cls(Path(folder) / GAME_FILE.format(id=new_game_id()), GAME_FILE)

    @classmethod
    def latest_in(cls, folder: str | os.PathLike[str], *also: Path) -> Autosave | None:
        """The most recently written game of the autosave folder (and of the files `also`
        given, an older version's single autosave): what `--resume` reopens."""
        newest = _newest([*Path(folder).glob(GAME_FILE.format(id=GAME_ID_GLOB)), *also])
        if newest is None:
            return None
        return cls(newest, GAME_FILE if newest.parent == Path(folder) else "")

    @classmethod
    def latest_of(cls, file: str | os.PathLike[str]) -> Autosave | None:
        """The most recently written of a file given by hand and the games autosaved next
        to it (`<stem>-<id><suffix>`, see `for_new_game`): what `--resume --autosave` reopens."""
        path = Path(file)
        naming = f"{path.stem}-{{id}}{path.suffix}"
        pattern = f"{glob.escape(path.stem)}-{GAME_ID_GLOB}{glob.escape(path.suffix)}"
        newest = _newest([path, *path.parent.glob(pattern)])
        return None if newest is None else cls(newest, naming)

    def for_new_game(self) -> Autosave:
        """Where a new game started with this autosave writes: here while no game has
        written here yet, else a file of its own next to it, named by the new game's id."""
        if not self.path.exists():
            return self
        naming = self.naming or f"{self.path.stem}-{{id}}{self.path.suffix}"
        return Autosave(self.path.parent / naming.format(id=new_game_id()), naming)

    def is_for(self, path: str | os.PathLike[str]) -> bool:
        """Whether this autosave is the file `path` (a game reopened from its own autosave)."""
        try:
            return self.path.resolve() == Path(path).resolve()
        except OSError:
            return False

    def write(
        self, history: History | Game, fair: FairLedger | None = None, chat: Sequence = ()
    ) -> None:
        save_game(history, self.path, fair, chat)

    def exists(self) -> bool:
        return self.path.is_file()

    def load(self) -> History:
        """The autosaved game (UserError when there is none or it is unusable)."""
        return load_game(self.path)
