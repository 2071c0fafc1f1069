"""`tactical lab run|replay|report`: the balance lab (docs/balance-lab.md).

- `tactical lab run MAP [--games N] [--ai LEVEL[,LEVEL]] [--set KEY=VALUE ...]
  [--against KEY=VALUE ...] [--terrain map|random] [--seed S] [--workers K]
  [--ray auto|ADDRESS] [--db results.sqlite]`: seat-swapped AI-vs-AI games of the map,
  stored in the results file as they finish; the same command again resumes the run.
  Ctrl+C or SIGTERM stops it cleanly (exit 130), keeping every finished game.
- `tactical lab replay DB GAME [-o SAVE] [--force]`: one stored game played again from
  its seed into a normal save (`tactical play SAVE`, `tactical replay SAVE`).
- `tactical lab report DB [--json] [--html report.html] [--force]`: win rates with
  Wilson intervals, the difference between variants with its test, game length, damage,
  losses by unit class and by unit (each named as on the play screen); `--html` writes
  the page and its PNG plots beside it.

Everything is checked before anything is written (a results file too: `lab.checks`); a
user's mistake, or a damaged or changed results file, is one line and exit code 2. A
run stopped with Ctrl+C or SIGTERM, even during its start-up, keeps its games and ends
with one line and exit code 130.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from tactical.cli.declare import JSON_OUTPUT, MAP, command
from tactical.errors import UserError

DEFAULT_DB = "results.sqlite"
INTERRUPTED = 130
WORKERS_PER_CORE = 2
STOPPED = "stopped: every finished game is stored; run the same command again to resume"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "lab",
        help="balance lab: many AI-vs-AI games of a rule variant, stored and reported",
        description="Play many seat-swapped AI-vs-AI games of a map and its rule variants "
        "(on this machine's cores or a Ray cluster), store every game in SQLite, and "
        "report who wins, with intervals and significance tests.",
    )
    commands = parser.add_subparsers(dest="lab_command", parser_class=type(parser))
    _add_run(commands)
    _add_replay(commands)
    _add_report(commands)
    _add_fairness(commands)
    parser.set_defaults(run=_missing_command(parser))


def _missing_command(parser: argparse.ArgumentParser) -> Any:
    def run(args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2

    return run


# the options more than one subcommand takes, with the same meaning and help
_SHARED = {
    "--db": {"default": DEFAULT_DB, "help": f"results file (default {DEFAULT_DB})"},
    "--json": JSON_OUTPUT[1],
    "--force": {"action": "store_true", "help": "replace existing files"},
    "--quiet": {"action": "store_true", "help": "no progress bar"},
}
_DB = ("db", {"metavar": "DB", "help": "results file"})


def _command(
    commands: Any, name: str, run: Any, options: tuple, **words: str
) -> argparse.ArgumentParser:
    """One `lab` subcommand (`cli.declare.command`), its shared flags those of `_SHARED`."""
    return command(commands, name, run, options, shared=_SHARED, **words)


def _add_run(commands: Any) -> None:
    variant = {"action": "append", "default": [], "metavar": "KEY=VALUE"}
    _command(
        commands,
        "run",
        run_lab,
        (
            MAP,
            ("--games", {"type": int, "default": 100, "help": "games per variant (default 100)"}),
            (
                "--ai",
                {
                    "default": "greedy",
                    "metavar": "LEVEL[,LEVEL]",
                    "help": "AI level of both players, or of the first and second (default greedy)",
                },
            ),
            ("--set", {**variant, "help": "change a map option in every variant (repeatable)"}),
            (
                "--against",
                {**variant, "help": "a second variant with this option changed (repeatable)"},
            ),
            (
                "--terrain",
                {
                    "choices": ("map", "random"),
                    "default": "map",
                    "help": "the map's terrain, or random terrain by R002.9 for each pair of games",
                },
            ),
            (
                "--seed",
                {
                    "type": int,
                    "default": 0,
                    "help": "the run's seed: every game's seed derives from it",
                },
            ),
            (
                "--workers",
                {
                    "type": int,
                    "default": None,
                    "help": "worker processes (default: one per core); "
                    "with --ray auto, the CPUs of a local Ray instance",
                },
            ),
            (
                "--ray",
                {
                    "metavar": "auto|ADDRESS",
                    "default": None,
                    "help": "play on Ray: 'auto' (the cluster on this machine, "
                    "else a local instance) or a cluster address; needs the [cluster] extra",
                },
            ),
            "--db",
            "--quiet",
        ),
        help="play AI-vs-AI games of a map into a results file",
        description="Play seat-swapped AI-vs-AI games of MAP for one variant of its options "
        "or two (--against) and store each game in the results file as it ends. Running the "
        "same command again resumes the run; a larger --games extends it; another --seed "
        "adds an independent run.",
    )


def _add_replay(commands: Any) -> None:
    _command(
        commands,
        "replay",
        replay_lab,
        (
            _DB,
            ("game", {"metavar": "GAME", "type": int, "help": "the game's id in the report"}),
            (
                "-o",
                "--output",
                {"default": None, "help": "save file to write (default game-GAME.json)"},
            ),
            ("--force", {"action": "store_true", "help": "replace an existing save"}),
        ),
        help="play a stored game again into a save",
        description="Play game GAME of the results file again from its seed and write it as "
        "a normal save (open it with `tactical play SAVE` or `tactical replay SAVE`).",
    )


def _add_report(commands: Any) -> None:
    _command(
        commands,
        "report",
        report_lab,
        (
            _DB,
            "--json",
            (
                "--html",
                {
                    "metavar": "FILE",
                    "default": None,
                    "help": "write an HTML page and its PNG plots "
                    "(FILE-1-win-rates.png, ...) beside it",
                },
            ),
            "--force",
        ),
        help="who wins, by how much, and is it significant",
        description="Summarise a results file per scenario and variant: win rates with "
        "Wilson 95% intervals, the difference between variants with a significance test, "
        "game length, damage per turn, losses by unit class and by unit.",
    )


def _add_fairness(commands: Any) -> None:
    _command(
        commands,
        "fairness",
        fairness_lab,
        (
            ("map", {"metavar": "MAP", "help": "map file (TOML) or a built-in map's name"}),
            ("--layouts", {"type": int, "default": 40, "help": "random tables (default 40)"}),
            ("--games", {"type": int, "default": 40, "help": "games per table (default 40)"}),
            ("--ai", {"default": "greedy", "metavar": "LEVEL[,LEVEL]", "help": "AI levels"}),
            ("--seed", {"type": int, "default": 0, "help": "the run's seed (tables and games)"}),
            ("--workers", {"type": int, "default": None, "help": "worker processes"}),
            "--db",
            ("--html", {"metavar": "FILE", "default": None, "help": "write the HTML report"}),
            "--json",
            "--force",
            "--quiet",
            (
                "--report-only",
                {
                    "action": "store_true",
                    "help": "play nothing: report on the games the results file "
                    "holds for these tables",
                },
            ),
        ),
        help="does the table's fairness score predict who wins? (docs/fairness.md)",
        description="Put the map's first fleet on both sides, lay --layouts random tables by "
        "R002.9, play --games seat-swapped AI games on each (each layout a lab run in the "
        "results file) and report the rank correlation between each table's score and the "
        "first side's results, with its 95% interval.",
    )


# --------------------------------------------------------------------------- run


class Stop(KeyboardInterrupt):
    """Ctrl+C or SIGTERM during a run. A subclass, not KeyboardInterrupt itself: CPython
    marks a KeyboardInterrupt that passes through an `exec` of a string (a dataclass being
    made while a module loads) as unhandled, and ends the process by SIGINT at exit
    however it was caught."""


def run_lab(args: argparse.Namespace) -> int:
    return _stoppable(_run, args)


def _stoppable(body: Any, args: argparse.Namespace) -> int:
    """`body(args)` with Ctrl+C and SIGTERM stopping it cleanly."""
    # SIGTERM (a scheduler's stop, `timeout`) stops the run as cleanly as Ctrl+C does, and
    # either one, at any moment from here on (the start-up included), ends with one message
    previous = _handle(_stop)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _stop_again(previous_hook)
    try:
        return body(args)
    except KeyboardInterrupt:
        print(STOPPED, file=sys.stderr)
        return INTERRUPTED
    finally:
        sys.unraisablehook = previous_hook
        _handle(*previous)


def _stop_again(previous: Any) -> Any:
    """A hook for exceptions Python ignores: a Stop that lands in a callback (an import
    lock's, a finaliser) is ignored there and printed; instead the signal is sent again,
    to land in the run itself, and nothing is printed."""

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, Stop):
            signum = unraisable.exc_value.args[0] if unraisable.exc_value.args else signal.SIGINT
            again = threading.Timer(0.01, os.kill, (os.getpid(), signum))
            again.daemon = True
            again.start()
            return
        previous(unraisable)

    return hook


def _handle(on_int: Any, on_term: Any = None) -> tuple[Any, Any]:
    """Set the SIGINT and SIGTERM handlers (in the main thread only); the previous ones."""
    if threading.current_thread() is not threading.main_thread():
        return (None, None)
    if on_int is None:
        return (None, None)
    # a run started with SIGINT ignored (in a script's background) keeps ignoring it
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN and on_int is _stop
    return (
        signal.getsignal(signal.SIGINT) if ignored else signal.signal(signal.SIGINT, on_int),
        signal.signal(signal.SIGTERM, on_term if on_term is not None else on_int),
    )


def _run(args: argparse.Namespace) -> int:
    from tactical.lab import games
    from tactical.lab.pool import LocalPool
    from tactical.lab.runner import run_games
    from tactical.lab.specs import build_spec, parse_players
    from tactical.lab.store import Store

    workers = _workers(args.workers)
    players = parse_players(args.ai, games.ai_levels())
    spec = build_spec(
        args.map, args.games, players, args.set, args.against, args.terrain, args.seed
    )
    games.check_playable(spec)
    Store.check_writable(args.db)
    cluster = None
    if args.ray is not None:
        from tactical.lab.cluster import RayCluster

        cluster = RayCluster(
            args.ray, games.play_task, num_cpus=args.workers if args.workers else None
        )
        backend: Any = cluster
        workers = cluster.cpus
    else:
        backend = LocalPool(workers, games.play_task)
    try:
        with Store.open(args.db) as store:
            outcome = run_games(spec, store, backend, workers, show_progress=not args.quiet)
    finally:
        if cluster is not None:
            cluster.close()
    where = (
        f"Ray ({workers} CPUs)"
        if cluster
        else (f"{workers} workers" if workers != 1 else "1 worker")
    )
    rate = f", {outcome.games_per_second:.2f} games/s" if outcome.played else ""
    print(
        f"{args.db}: run {outcome.run_id}, {outcome.done} of {outcome.asked} games done "
        f"({outcome.played} played now on {where}{rate})"
    )
    if outcome.interrupted:
        print(STOPPED, file=sys.stderr)
        return INTERRUPTED
    return 0


def _workers(asked: int | None) -> int:
    """`--workers`: one per core by default; at most two per core (more only wait)."""
    cores = os.cpu_count() or 1
    if asked is None:
        return cores
    most = cores * WORKERS_PER_CORE
    if not 1 <= asked <= most:
        raise UserError(
            f"--workers {asked}: expected a whole number from 1 to {most} (twice this "
            f"machine's {cores} {'core' if cores == 1 else 'cores'})"
        )
    return asked


def _stop(signum: int, frame: Any) -> None:
    raise Stop(signum)


# --------------------------------------------------------------------------- replay


def replay_lab(args: argparse.Namespace) -> int:
    from tactical.lab import games
    from tactical.lab.files import refuse_existing
    from tactical.lab.store import Store

    output = Path(args.output or f"game-{args.game}.json")
    refuse_existing([output], args.force)
    with Store.read(args.db) as store:
        stored = games.stored_game(store, args.game)
    record = games.replay_stored(stored, output)
    print(f"{output}: game {args.game} ({record}) written; open it with tactical play {output}")
    return 0


# --------------------------------------------------------------------------- report


def report_lab(args: argparse.Namespace) -> int:
    from tactical.lab.files import refuse_existing, write_files
    from tactical.lab.pages import html_report, text_report
    from tactical.lab.report import build_report
    from tactical.lab.store import Store

    page = Path(args.html) if args.html else None
    if page is not None:
        refuse_existing([page], args.force)  # a name that cannot be a page, before reading
    with Store.read(args.db) as store:
        report = build_report(store)
    if not report["games"]:
        raise UserError(f"{args.db!r}: no games stored yet (tactical lab run MAP --db {args.db})")
    written: list[str] = []
    if page is not None:
        from tactical.lab.plots import plot_files, plot_path

        stem = page.with_suffix("")
        plot_paths = [
            plot_path(stem, n, kind)
            for n in range(1, len(report["scenarios"]) + 1)
            for kind in ("win-rates", "damage")
        ]
        refuse_existing([page, *plot_paths], args.force)
        plots = plot_files(report, stem)
        names = [[p.name for p, _ in plots[i : i + 2]] for i in range(0, len(plots), 2)]
        page_bytes = html_report(report, names).encode("utf-8")
        written = [str(p) for p in write_files([*plots, (page, page_bytes)])]
        written = [written[-1], *written[:-1]]
    _print_report(args, report, written, text_report)
    return 0


def _print_report(args: argparse.Namespace, report: dict, written: list[str], text: Any) -> None:
    """A report as JSON (`--json`) or as the text `text(report)`, and the files written."""
    if args.json:
        print(json.dumps({**report, "written": written}, indent=1, ensure_ascii=False))
    else:
        print(text(report))
        for path in written:
            print(f"wrote {path}")


# --------------------------------------------------------------------------- fairness


def fairness_lab(args: argparse.Namespace) -> int:
    return _stoppable(_fairness, args)


def _fairness(args: argparse.Namespace) -> int:
    from tactical.io.paths import find_map
    from tactical.lab import fairness, games
    from tactical.lab.files import refuse_existing, write_files
    from tactical.lab.pool import LocalPool
    from tactical.lab.runner import run_games
    from tactical.lab.specs import parse_players
    from tactical.lab.store import Store

    workers = _workers(args.workers)
    players = parse_players(args.ai, games.ai_levels())
    page = Path(args.html) if args.html else None
    plot = page.with_name(f"{page.stem}-scatter.png") if page is not None else None
    if page is not None and plot is not None:
        refuse_existing([page, plot], args.force)
    found = fairness.layouts(str(find_map(args.map)), args.layouts, args.games, players, args.seed)
    stopped = False
    if args.report_only:
        with Store.read(args.db) as store:
            report = fairness.fairness_report(store, found)
    else:
        for layout in found[:1]:
            games.check_playable(layout.spec)
        Store.check_writable(args.db)
        backend = LocalPool(workers, games.play_task)
        try:
            with Store.open(args.db) as store:
                for layout in found:
                    outcome = run_games(layout.spec, store, backend, workers, not args.quiet)
                    if outcome.interrupted:
                        stopped = True
                        break
                report = fairness.fairness_report(store, found)
        finally:
            backend.close()
    written: list[str] = []
    if page is not None and plot is not None and report["layouts"]:
        files = [(plot, fairness.scatter_png(report))]
        files.append((page, fairness.html_page(report, plot.name).encode("utf-8")))
        written = [str(p) for p in write_files(files)]
    _print_report(args, report, written, fairness.text_report)
    if stopped:
        print(STOPPED, file=sys.stderr)
        return INTERRUPTED
    return 0
