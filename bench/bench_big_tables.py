"""Big-table budgets on the stress maps of 1,000 and 3,000 ships, written by
`scripts/make_maps.py --units N` into a temporary folder (one ship per 23 square inches,
as on maps/stress-200.toml: 215" x 107" for 1,000 ships, 372" x 186" for 3,000).

| row | budget |
|---|---|
| `tactical check --json`, 1,000 units (whole process, to /dev/null) | <= 2 s, <= 300 MB |
| `tactical check --json`, 3,000 units | <= 20 s, peak memory bounded (<= 600 MB) |
| `check --json` per pair, 3,000 units, in process (reports and text) | <= 2 us |
| `check` as text per pair, in process (reports and text) | <= 3 us |
| the same per pair at 250 to 3,000 units: no growth with N | slope; a + b x entries |
| the same on thinned tables (each pair writes about as much at every size) | slope <= 10% |
| the same by the compiled kernels (numba, the `fast` extra) and by numpy alone | both rows |
| per-pair report cost (reports for 50 firers x 999 targets, per pair) | <= 2 us |
| matrix rows of 1,000 units, each line tested once (ratio to from both its ends) | >= 1.3x |
| all-pairs matrix, 1,000 units | <= 150 ms |
| play screen, 1,000 units: select / pan / zoom (back and forth; to a new level) | <= 33 ms |
| cached 1920x1080 frame, 3,000 units | <= 16 ms |
| launch to first frame, maps/stress-200.toml (with bytecode; and without) | <= 0.4 s |
| `Game.odds` of one attack, 1,000 units (ratio to 2,000 seeded samples) | <= 16 ms |
| range bands of every pair, 200 units, BFM and SW D6 (ratio to pair by pair) | >= 10x |

Run: .venv/bin/python -m pytest bench/bench_big_tables.py --benchmark-enable -p no:cacheprovider
(add --benchmark-timer time.process_time for CPU time on a shared machine). The process rows
run a few rounds only and report the child's wall time (the parent's clock, from start to
exit) and its CPU time (user + system, from wait4): the budgets are held on CPU time, which
a loaded machine does not inflate the way it inflates wall time. The per-pair rows stream
every pair of each table in this process (CPU time) against the per-pair way (a
`PairReport` each, json.dumps or its line of words) on the first pairs, in the same run.
On the stress maps a line crosses more pieces and models as the table grows (at the
same density a line is longer), so each pair writes more; the thinned stress maps
(`make_maps.py --thin`: fewer pieces and Surface ships as the table grows) keep what a
pair writes about the same at every size, and there the cost a pair must not grow:
its slope is given with a 95% interval over THIN_ROUNDS rounds. In quick mode
(bench/conftest.py) the tables have 60 and 120 ships and nothing is held to a budget.
Where numba is installed the per-pair rows run twice, alternating: by the compiled
kernels (what `tactical check` runs) and with TACTICAL_NO_JIT=1 (numpy alone).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from conftest import BUDGETS, FIGURES, RATIOS, is_quick, quick, record

from tactical.geometry import compiled_kernels
from tactical.geometry.compiled_kernels import NO_JIT
from tactical.io.maps import load_map
from tactical.rules.measuring import TableGeometry

PYTHON = sys.executable
MAKE_MAPS = Path(__file__).resolve().parents[1] / "scripts" / "make_maps.py"
SIZE = (1920, 1080)

CHECK_BUDGET = 2.0
BIG_CHECK_BUDGET = 20.0
CHECK_MEMORY = 300 * 2**20
BIG_CHECK_MEMORY = 600 * 2**20
PAIR_BUDGET = 2e-6
JSON_PAIR_BUDGET = 2e-6
TEXT_PAIR_BUDGET = 3e-6
SMALL, BIG = quick((1000, 3000), (60, 120))  # the process rows' tables
SLOPE_SIZES = quick((250, 500, 1000, 2000, 3000), (60, 120))  # the per-pair rows' tables
BASELINE_PAIRS = quick(20_000, 500)  # pairs written the per-pair way, for the ratio
# the ways the per-pair rows are streamed: by the compiled kernels where numba is installed
# (at every size: `tactical check` asks for them from COMPILED_PAIRS pairs a table, where
# they repay their loading), and by numpy alone
WAYS = ("compiled", "numpy") if compiled_kernels.available() else ("numpy",)
# the thinned maps' rounds, alternating the ways: the slope's interval is over them
THIN_ROUNDS = quick(3, 1)
THIN_GROWTH = 0.10  # the cost a pair on the biggest thinned table over the smallest's, at most
# t of Student's distribution (two-sided 95%) by degrees of freedom: the slopes' intervals
STUDENT_T = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365}
# sha256 of each table's text as it was written before the blocks' text was laid out as
# cells (the "pairs" list of `check --json`, and the lines of `check`): the same bytes since
PINNED = {
    60: {
        "json": "0098448f140a8e9aba4f30e2e3cef0bec3dce21f136d5bb2bad53eeb3d3fd573",
        "text": "4aed0b35e40708b2610b59c104eea390b79e68fb2da2e3371c5c1f1302a1d57e",
    },
    120: {
        "json": "30706b0fb48cca4806cc5ddfd9b649430487093bf6ffaeb6f7035a8f557fbd58",
        "text": "d893191db9f1db3bab14a8611b5846a3193fc9865cdf43b34c1cbaa2504bf622",
    },
    250: {
        "json": "303c30042a52282e56a854480d675c3304ab0d38956837ab1d63e3a4135682c5",
        "text": "7d658c9c104ca2605fbf73db40dad362ecfa874e4c5eda1751a330fb08f13b9a",
    },
    500: {
        "json": "b326033b312865e351cadb0288a1029720ee436e54340ad586227df787a24390",
        "text": "6127e07a590614bd4b00f33bc5612dc554c7693d246e894c2f6d6bc53dbc7c2e",
    },
    1000: {
        "json": "e57ed6d640beaa2d1b91ae0a3833fd8efbf00da51ad00ee44e312220c5ac0a91",
        "text": "e863c4eba7da6eb7266945c792b29a4560e5cfe4fc508bc8a75eaa9969fdb81c",
    },
    2000: {
        "json": "2ffb0f46b7df507a7cbccd8407760d15354adfed6bcabb3f1423abf55a42b070",
        "text": "679b499b792e95d4f873c674c4ecf4453031e1209c4f5308b07ddba72063aca2",
    },
    3000: {
        "json": "9bb6bfc89716489a6894d29908da639d0ce73156442b4e49650c6a2b6668c401",
        "text": "5d3627a43837c9c95f49eef8f78a0daa6af2f91100a8827c2faba9ea08eeb806",
    },
}
# the thinned maps' texts (below THIN_FROM ships the thinned map is the stress map itself)
PINNED_THIN = {
    60: PINNED[60],
    120: PINNED[120],
    250: PINNED[250],
    500: {
        "json": "b457892323c0a260082a4346400961d85c814f26c9692fba9d62f90965719b56",
        "text": "898d701bef019c92637887d1c1a0da8b840f4c9228fba3b4f97c9b62b83b4ae6",
    },
    1000: {
        "json": "67c98d15b4f9ed018ca21ff8758e5473ac998db037dff7465becbd6097cb10e8",
        "text": "74ab003916b7bb421598ad94837b69b1d26058eadecacc55dd103f5df084bed6",
    },
    2000: {
        "json": "e4f0a02a841c0421fe62d497ab261162ca29b79db8c313bbc6f8199bbcd4d5b6",
        "text": "b67d3f73b17008e58e3f5b97ff9004544721ec15a44db594658619a42b127730",
    },
    3000: {
        "json": "990ccdc09e7fbc9bf1d04bff911a9b1ab414cbe9a2b90b4be851516c9d614bc7",
        "text": "c5701670de837e71a8814dfb303ea329a9efb260145b0decae24f22622d2439a",
    },
}
MATRIX_BUDGET = 0.150
INTERACTION_BUDGET = 0.033
FRAME_BUDGET = 0.016
LAUNCH_BUDGET = 0.4


@pytest.fixture(scope="session")
def big_maps(tmp_path_factory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("big-maps")
    paths = {}
    for units in sorted({SMALL, BIG, *SLOPE_SIZES}):
        subprocess.run(
            [PYTHON, str(MAKE_MAPS), "--units", str(units), "--out", str(folder)],
            check=True, capture_output=True,
        )  # fmt: skip
        paths[units] = folder / f"stress-{units}.toml"
    return paths


@pytest.fixture(scope="session")
def thin_maps(tmp_path_factory) -> dict[int, Path]:
    """The thinned stress maps of SLOPE_SIZES ships (`make_maps.py --thin`)."""
    folder = tmp_path_factory.mktemp("thin-maps")
    for units in SLOPE_SIZES:
        subprocess.run(
            [PYTHON, str(MAKE_MAPS), "--units", str(units), "--thin", "--out", str(folder)],
            check=True, capture_output=True,
        )  # fmt: skip
    return {units: folder / f"stress-thin-{units}.toml" for units in SLOPE_SIZES}


CPU: dict[str, float] = {}  # CPU seconds (user + system) of the process rows


def _run_measured(args: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident bytes of one child process, stdout to /dev/null (its
    CPU seconds kept in CPU["last"]: the machine is shared, wall time waits for a core)."""
    started = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        child = subprocess.Popen(args, stdout=sink, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        errors = child.stderr.read().decode()
        child.stderr.close()
    seconds = time.perf_counter() - started
    assert child.returncode == 0, errors
    CPU["last"] = usage.ru_utime + usage.ru_stime
    return seconds, usage.ru_maxrss * 1024


def _keep(name: str, seconds: float, budget: float | None = None) -> None:
    FIGURES[name] = seconds
    if budget is not None:
        BUDGETS[name] = budget


def _check(path: Path, rounds: int, *extra: str) -> tuple[float, int]:
    """Median wall seconds (from start to exit, the parent's clock) and the peak memory of
    `rounds` runs of `tactical check`; their median CPU seconds kept in CPU["check"]."""
    runs, cpu = [], []
    for _ in range(rounds):
        runs.append(_run_measured([PYTHON, "-m", "tactical", "check", str(path), *extra]))
        cpu.append(CPU["last"])
    CPU["check"] = float(np.median(cpu))
    return float(np.median([s for s, _ in runs])), max(m for _, m in runs)


def _units(n: int) -> str:
    return f"{n:,} units"


@pytest.mark.benchmark
def test_check_json_small(big_maps):
    seconds, peak = _check(big_maps[SMALL], quick(3, 1), "--json")
    _keep(f"check --json, {_units(SMALL)} (wall)", seconds, CHECK_BUDGET)
    _keep(f"check --json, {_units(SMALL)} (CPU)", CPU["check"], CHECK_BUDGET)
    print(f"check --json {_units(SMALL)}: wall {seconds:.2f} s, CPU {CPU['check']:.2f} s, "
          f"peak {peak / 2**20:.0f} MB")  # fmt: skip
    assert peak <= CHECK_MEMORY
    assert is_quick() or CPU["check"] <= CHECK_BUDGET


@pytest.mark.benchmark
def test_check_json_big(big_maps):
    seconds, peak = _check(big_maps[BIG], 1, "--json")
    _keep(f"check --json, {_units(BIG)} (wall)", seconds, BIG_CHECK_BUDGET)
    _keep(f"check --json, {_units(BIG)} (CPU)", CPU["check"], BIG_CHECK_BUDGET)
    print(f"check --json {_units(BIG)}: wall {seconds:.2f} s, CPU {CPU['check']:.2f} s, "
          f"peak {peak / 2**20:.0f} MB")  # fmt: skip
    assert peak <= BIG_CHECK_MEMORY
    assert is_quick() or CPU["check"] <= BIG_CHECK_BUDGET


@pytest.mark.benchmark
def test_check_text_small(big_maps):
    seconds, peak = _check(big_maps[SMALL], quick(3, 1))
    _keep(f"check as text, {_units(SMALL)} (wall)", seconds)
    _keep(f"check as text, {_units(SMALL)} (CPU)", CPU["check"])
    print(f"check as text {_units(SMALL)}: wall {seconds:.2f} s, CPU {CPU['check']:.2f} s, "
          f"peak {peak / 2**20:.0f} MB")  # fmt: skip
    assert peak <= CHECK_MEMORY


class Streamed(NamedTuple):
    """One table streamed as `tactical check` streams it: CPU seconds reporting and writing
    (hashing left out), pairs, bytes written, entries in the lists of what is in each
    line's way (pieces and models: the text grows with them), and the sha256 of the text."""

    seconds: float
    pairs: int
    size: int
    entries: int
    digest: str


def _stream(table: TableGeometry, write) -> Streamed:
    """Every ordered pair of the table reported and written, block by block."""
    seconds, pairs, size, entries = 0.0, 0, 0, 0
    digest = hashlib.sha256()
    blocks = table.report_blocks()
    while True:
        started = time.process_time()
        block = next(blocks, None)
        if block is None:
            break
        text = write(block)
        seconds += time.process_time() - started
        digest.update(text)
        pairs, size = pairs + len(block), size + len(text)
        entries += len(block.blocker_lists.items)
        entries += 0 if block.model_lists is None else len(block.model_lists.items)
    return Streamed(seconds, pairs, size, entries, digest.hexdigest())


def _json_writer():
    """`PairReports.json_text` of each block as `tactical check --json` writes them (", "
    between blocks): the text of the "pairs" list."""
    written = []

    def write(block):
        written.append(True)
        return block.json_text(first=len(written) == 1)

    return write


def _per_pair_way(table: TableGeometry, count: int, write) -> float:
    """CPU seconds a pair the per-pair way: the first `count` pairs' reports from the same
    blocks, then each pair's `PairReport` written by itself."""
    started = time.process_time()
    done = 0
    for block in table.report_blocks():
        for k in range(min(len(block), count - done)):
            write(block[k])
        done += min(len(block), count - done)
        if done >= count:
            break
    return (time.process_time() - started) / max(done, 1)


@pytest.fixture(scope="module")
def per_pair_costs(big_maps) -> dict[str, list[tuple[int, float, int]]]:
    """For each table size: CPU microseconds a pair of `check --json` and `check` as text,
    in this process (map loading left out: it is the same either way), with the bytes
    and list entries a pair; each text held to the bytes it was before (PINNED)."""
    import json

    from tactical.cli.check_words import Words, pair_line

    costs: dict[str, list] = {
        f"{kind} {way}{sizes}": []
        for kind in ("json", "text")
        for way in WAYS
        for sizes in ("", " sizes")
    }
    # the first table streamed in a process pays for the heap it grows (page faults, some
    # 0.5 us a pair at 250 units) and the kernels' loading (some 0.35 s): streamed once
    # untimed each way, so that every size is measured warm and the fit's fixed part is the
    # reports'
    for way in WAYS:
        with _way(way):
            table = TableGeometry.of(load_map(big_maps[SLOPE_SIZES[0]]))
            _stream(table, _json_writer())
            _stream(table, Words(table).text)
    for units in SLOPE_SIZES:
        state = load_map(big_maps[units])
        for way in WAYS:  # alternating, size by size: both see the same load
            with _way(way):
                table = TableGeometry.of(state)
                streamed = {"json": _stream(table, _json_writer())}
                table = TableGeometry.of(state)  # afresh: nothing cached from the JSON run
                streamed["text"] = _stream(table, Words(table).text)
            for kind, run in streamed.items():
                costs[f"{kind} {way}"].append((units, run.seconds / run.pairs * 1e6, run.pairs))
                costs[f"{kind} {way} sizes"].append(
                    (units, run.size / run.pairs, run.entries / run.pairs)
                )
                assert run.digest == PINNED[units][kind], (units, kind, way)
    for kind in ("json", "text"):  # the unnamed rows: what `tactical check` runs
        costs[kind] = costs[f"{kind} {WAYS[0]}"]
        costs[f"{kind} sizes"] = costs[f"{kind} {WAYS[0]} sizes"]
    table = TableGeometry.of(load_map(big_maps[SLOPE_SIZES[0]]))
    names, pieces = table.state.shown_names, table.state.shown_terrain_names
    costs["json per pair way"] = [
        (
            SLOPE_SIZES[0],
            1e6
            * _per_pair_way(
                table, BASELINE_PAIRS, lambda r: json.dumps(r.as_json(), ensure_ascii=False)
            ),
            0,
        )
    ]
    costs["text per pair way"] = [(SLOPE_SIZES[0], 1e6 * _per_pair_way(
        table, BASELINE_PAIRS, lambda r: pair_line(r, names, pieces)), 0)]  # fmt: skip
    return costs


class _way:
    """Streams by the compiled kernels ("compiled": at every size, where `tactical check`
    asks for them from COMPILED_PAIRS pairs) or by numpy alone ("numpy": NO_JIT set)
    while the block runs."""

    def __init__(self, way: str) -> None:
        self.way, self.before = way, None

    def __enter__(self) -> None:
        self.before = (os.environ.get(NO_JIT), compiled_kernels.COMPILED_PAIRS)
        os.environ[NO_JIT] = "1" if self.way == "numpy" else ""
        if self.way == "compiled":
            compiled_kernels.COMPILED_PAIRS = 1

    def __exit__(self, *exc) -> None:
        jit, compiled_kernels.COMPILED_PAIRS = self.before
        if jit is None:
            os.environ.pop(NO_JIT, None)
        else:
            os.environ[NO_JIT] = jit


def _slope(rows: list[tuple[int, float, int]]) -> float:
    """Least-squares growth of the cost a pair, microseconds per 1,000 more units."""
    units = np.array([u for u, _, _ in rows], dtype=float)
    cost = np.array([c for _, c, _ in rows])
    return float(np.polyfit(units / 1000.0, cost, 1)[0]) if len(rows) > 1 else 0.0


def _entry_fit(costs: list[float], entries: list[float]) -> tuple[float, float]:
    """The cost a pair as a fixed part plus a part an entry (a piece or model in a line's
    way): least-squares (a, b) of us a pair = a + b x entries a pair over the sizes."""
    if len(costs) < 2 or max(entries) - min(entries) < 1e-9:
        return (float(np.mean(costs)), 0.0)
    b, a = np.polyfit(np.asarray(entries), np.asarray(costs), 1)
    return float(a), float(b)


@pytest.mark.benchmark
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("kind", ["json", "text"])
def test_check_cost_a_pair_by_table_size(per_pair_costs, kind, way):
    """`check --json` and `check` as text, every pair of tables of 250 to 3,000 ships: the
    cost a pair at each size, its slope, and the ratio to the per-pair way; by the compiled
    kernels and by numpy alone (the first of WAYS is what `tactical check` runs)."""
    rows = per_pair_costs[f"{kind} {way}"]
    baseline = per_pair_costs[f"{kind} per pair way"][0][1]
    budget = JSON_PAIR_BUDGET if kind == "json" else TEXT_PAIR_BUDGET
    sizes = per_pair_costs[f"{kind} {way} sizes"]
    label = kind if way == WAYS[0] else f"{kind} ({way})"
    for (units, micro, pairs), (_, size, entries) in zip(rows, sizes, strict=True):
        _keep(f"check {label} a pair, {_units(units)}", micro * 1e-6)
        _keep(f"check {label} a kilobyte, {_units(units)}", micro * 1e-6 * 1000 / size)
        print(f"check {label}: {_units(units)}, {pairs:,} pairs: {micro:.2f} us a pair (CPU), "
              f"{baseline / micro:.1f}x the per-pair way ({baseline:.1f} us); {size:.0f} "
              f"bytes and {entries:.1f} pieces or models in the way a pair: "
              f"{micro * 1000 / size:.2f} us a kilobyte")  # fmt: skip
    if way == WAYS[0]:  # the budgets and the ratio: what `tactical check` runs
        _keep(f"check {kind} a pair, the per-pair way", baseline * 1e-6)
        BUDGETS[f"check {kind} a pair, {_units(rows[-1][0])}"] = budget
        RATIOS.append((f"check {kind}: columns vs a report a pair",
                       f"check {kind} a pair, the per-pair way",
                       f"check {kind} a pair, {_units(rows[0][0])}", 5.0))  # fmt: skip
    slope = _slope(rows)
    print(f"check {label}: slope {slope:+.3f} us a pair per 1,000 more units "
          f"({rows[0][1]:.2f} us at {_units(rows[0][0])}, {rows[-1][1]:.2f} at "
          f"{_units(rows[-1][0])})")  # fmt: skip
    # a bigger table at the same density has longer lines crossing more pieces and models:
    # more text a pair, so the cost a kilobyte is the one that must stay flat
    per_kb = [
        (u, micro * 1000 / size, p) for (u, micro, p), (_, size, _) in zip(rows, sizes, strict=True)
    ]
    print(f"check {label}: slope {_slope(per_kb):+.3f} us a kilobyte per 1,000 more units, "
          f"{_slope([(u, size, 0) for u, size, _ in sizes]):+.1f} bytes a pair per 1,000 "
          "more units")  # fmt: skip
    # what grows: the output (entries a pair) or the overhead a pair. Fit us a pair =
    # fixed + per entry x entries a pair; the fixed part's own slope is the overhead's growth
    micros = [micro for _, micro, _ in rows]
    entries = [e for _, _, e in sizes]
    fixed, per_entry = _entry_fit(micros, entries)
    rest = [(u, micro - per_entry * e, p) for (u, micro, p), e in zip(rows, entries, strict=True)]
    _keep(f"check {label}: slope a pair per 1,000 units", _slope(rows) * 1e-6)
    _keep(f"check {label}: fixed part a pair", fixed * 1e-6)
    _keep(f"check {label}: part an entry", per_entry * 1e-6)
    print(f"check {label}: fit {fixed:.3f} us a pair + {per_entry:.3f} us an entry "
          f"({', '.join(f'{e:.2f}' for e in entries)} entries a pair); the rest after the "
          f"entries: slope {_slope(rest):+.3f} us a pair per 1,000 more units")  # fmt: skip
    assert all(micro < baseline for _, micro, _ in rows)
    assert is_quick() or way != WAYS[0] or rows[-1][1] * 1e-6 <= budget


@pytest.fixture(scope="module")
def thin_costs(thin_maps) -> dict[str, list[list[tuple[int, float, float]]]]:
    """For each thinned table (`thin_maps`): CPU microseconds a pair of `check --json` and
    `check` as text, and the list entries a pair, each way, THIN_ROUNDS rounds (the ways
    alternating, size by size); each text held to the bytes it was (PINNED_THIN)."""
    from tactical.cli.check_words import Words

    costs: dict[str, list] = {f"{kind} {way}": [] for kind in ("json", "text") for way in WAYS}
    for way in WAYS:  # warm, as in `per_pair_costs`
        with _way(way):
            _stream(TableGeometry.of(load_map(thin_maps[SLOPE_SIZES[0]])), _json_writer())
    states = {units: load_map(path) for units, path in thin_maps.items()}
    for _ in range(THIN_ROUNDS):
        for rows in costs.values():
            rows.append([])
        for units in SLOPE_SIZES:
            for way in WAYS:
                with _way(way):
                    streamed = {
                        "json": _stream(TableGeometry.of(states[units]), _json_writer()),
                        "text": _stream(
                            TableGeometry.of(states[units]),
                            Words(TableGeometry.of(states[units])).text,
                        ),
                    }
                for kind, run in streamed.items():
                    assert run.digest == PINNED_THIN[units][kind], (units, kind, way)
                    costs[f"{kind} {way}"][-1].append(
                        (units, run.seconds / run.pairs * 1e6, run.entries / run.pairs)
                    )
    return costs


def _slope_interval(rounds: list[list[tuple[int, float, float]]]) -> tuple[float, float]:
    """The slope a pair (us per 1,000 more units) of each round: their mean and the half
    width of its 95% interval (Student's t; 0 from one round)."""
    slopes = np.array([_slope(rows) for rows in rounds])
    if len(slopes) < 2:
        return float(slopes[0]), 0.0
    spread = STUDENT_T[len(slopes) - 1] * slopes.std(ddof=1) / np.sqrt(len(slopes))
    return float(slopes.mean()), float(spread)


@pytest.mark.benchmark
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("kind", ["json", "text"])
def test_check_cost_a_pair_at_the_same_output(thin_costs, kind, way):
    """`check --json` and `check` as text on tables of 250 to 3,000 ships whose pairs each
    write about as much (the thinned stress maps): the cost a pair must not grow with the
    table. The slope with its 95% interval over the rounds, and the biggest table's cost
    a pair over the smallest's (at most 1 + THIN_GROWTH)."""
    rounds = thin_costs[f"{kind} {way}"]
    label = kind if way == WAYS[0] else f"{kind} ({way})"
    sizes = [units for units, _, _ in rounds[0]]
    means = [float(np.mean([r[k][1] for r in rounds])) for k in range(len(sizes))]
    entries = [e for _, _, e in rounds[0]]
    for units, micro in zip(sizes, means, strict=True):
        _keep(f"check {label} a pair, thinned, {_units(units)}", micro * 1e-6)
    slope, half = _slope_interval(rounds)
    growth = means[-1] / means[0]
    _keep(f"check {label}: slope a pair per 1,000 units, thinned", slope * 1e-6)
    print(f"check {label}, thinned tables ({len(rounds)} rounds): "
          + ", ".join(f"{_units(u)} {m:.3f} us a pair ({e:.2f} entries)"
                      for u, m, e in zip(sizes, means, entries, strict=True))
          + f"; slope {slope:+.3f} us a pair per 1,000 more units [{slope - half:+.3f}, "
          f"{slope + half:+.3f}], {_units(sizes[-1])} / {_units(sizes[0])}: "
          f"{growth:.3f}")  # fmt: skip
    assert is_quick() or way != WAYS[0] or growth <= 1 + THIN_GROWTH


@pytest.fixture(scope="module")
def table_1000(big_maps) -> TableGeometry:
    return TableGeometry.of(load_map(big_maps[SMALL]))


def test_report_cost_per_pair(benchmark, table_1000):
    """Reports for 65 firers against every other ship (64,935 pairs: two blocks of
    `check --json`), from their rows of the matrix (computed before, not counted)."""
    from tactical.geometry.matrix_blocks import matrix_rows

    g = table_1000
    n = len(g.units)
    firers = min(65, n)
    block = matrix_rows(g.units, range(firers), g.terrain, arcs=g.arcs, blocking=g.blocking)
    sources = np.repeat(np.arange(firers), n)
    targets = np.tile(np.arange(n), firers)
    keep = sources != targets
    sources, targets = sources[keep], targets[keep]
    reports = benchmark.pedantic(
        g.reports, args=(block, sources, targets), rounds=5, iterations=1, warmup_rounds=1
    )
    if benchmark.stats is not None:
        per_pair = benchmark.stats.stats.median / len(sources)
        _keep("report cost per pair", per_pair, PAIR_BUDGET)
        print(f"report cost: {per_pair * 1e6:.2f} us a pair")
    assert len(reports) == len(sources)


def _walk_rows(g: TableGeometry, once: bool) -> int:
    """Every row of the table's matrix, a block of 32 firers at a time (as `check` walks
    1,000 ships): each line tested once, its crossings kept for its other unit's block
    (`matrix_row_blocks`), or every line from each of its two units (`matrix_rows` a
    block). The crossings found, for the comparison."""
    from tactical.geometry.matrix_blocks import matrix_row_blocks, matrix_rows

    n = len(g.units)
    per_block = max(1, (1 << 15) // n)
    if once:
        blocks = matrix_row_blocks(g.units, g.terrain, g.arcs, g.blocking, rows_per_block=per_block)
    else:
        blocks = (
            matrix_rows(g.units, range(k, min(n, k + per_block)), g.terrain, arcs=g.arcs,
                        blocking=g.blocking)
            for k in range(0, n, per_block)
        )  # fmt: skip
    return sum(len(block.hit_piece) for block in blocks)


@pytest.mark.parametrize("once", [True, False], ids=["each line once", "each line twice"])
def test_matrix_rows_1000(benchmark, table_1000, once):
    """The matrix rows `check` reports from, every row of 1,000 ships: each line tested
    once against each line tested from both its units (the way before), in the same run."""
    crossings = benchmark.pedantic(
        _walk_rows, args=(table_1000, once), rounds=quick(3, 1), iterations=1
    )
    name = "matrix rows, 1,000 units, " + ("each line once" if once else "each line twice")
    record(name, benchmark)
    if once:
        RATIOS.append((
            "matrix rows: each line once vs twice",
            "matrix rows, 1,000 units, each line twice",
            name, 1.3,
        ))  # fmt: skip
    assert crossings > 0


def test_matrix_1000(benchmark, table_1000):
    """The matrix of the pairs within the longest weapon range (32", Range Band 4)."""
    g = table_1000
    from tactical.geometry.matrix import pair_matrix

    assert g.longest_range == 32.0
    matrix = benchmark.pedantic(
        pair_matrix, args=(g.units, g.terrain, g.arcs, g.blocking, g.longest_range),
        rounds=7, iterations=1, warmup_rounds=1,
    )  # fmt: skip
    record("all-pairs matrix in range, 1,000 units", benchmark, MATRIX_BUDGET)
    assert matrix.within.sum() > quick(100_000, 100) and not matrix.los_clear[matrix.within].all()


def test_full_matrix_1000(benchmark, table_1000):
    """Reference: every pair measured (what `check --json` needs, block by block)."""
    g = table_1000
    from tactical.geometry.matrix import pair_matrix

    matrix = benchmark.pedantic(
        pair_matrix, args=(g.units, g.terrain, g.arcs, g.blocking), rounds=5, iterations=1,
        warmup_rounds=1,
    )  # fmt: skip
    record("full matrix (every pair), 1,000 units", benchmark)
    assert matrix.los_clear.shape == (SMALL, SMALL) and not matrix.los_clear.all()


# --------------------------------------------------------------------------- play screen


@pytest.fixture(scope="module")
def app_1000(big_maps):
    from tactical.ui.app import App

    state = load_map(big_maps[SMALL])
    app = App(state, SIZE, headless=True)
    app.step()
    app.frame()
    return app


def test_play_select_1000(benchmark, app_1000):
    """A click selects another ship: its arcs, range rings and sight lines are drawn."""
    app = app_1000
    picks = [app.state.units[0].id, app.state.units[1].id]
    turn = iter(range(10**9))

    def select():
        app.select(picks[next(turn) % 2])
        return app.frame()

    benchmark(select)
    record("play select, 1,000 units", benchmark, INTERACTION_BUDGET)


def test_play_pan_1000(benchmark, app_1000):
    """An arrow key pans the view at rest: the table is drawn again at the new place."""
    import pygame

    app = app_1000
    app.select(app.state.units[0].id)
    app.frame()
    turn = iter(range(10**9))
    keys = (pygame.K_LEFT, pygame.K_RIGHT)

    def pan():
        key = keys[next(turn) % 2]
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
        return app.frame()

    benchmark(pan)
    record("play pan, 1,000 units", benchmark, INTERACTION_BUDGET)


def test_play_zoom_1000(benchmark, app_1000):
    """The wheel zooms in and out by a notch about the pointer (each frame a new scale)."""
    import pygame

    app = app_1000
    app.select(app.state.units[0].id)
    app.frame()
    turn = iter(range(10**9))

    def zoom():
        notch = 1 if next(turn) % 2 == 0 else -1
        app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=notch, flipped=False))
        return app.frame()

    benchmark(zoom)
    record("play zoom, 1,000 units", benchmark, INTERACTION_BUDGET)


def test_play_zoom_new_level_1000(benchmark, app_1000):
    """A notch of the wheel to a level not seen before (nine notches in from the fitted view,
    about a new point each time): nothing of that scale cached."""
    import pygame

    app = app_1000
    app.select(app.state.units[0].id)
    app.frame()
    turn = iter(range(10**9))

    def zoom():
        k = next(turn)
        if k == 0:  # the warm-up round starts from the fitted view
            app.fit()
            app.frame()
        app.input.mouse = (600 + 37 * k, 400 + 11 * k)
        app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
        return app.frame()

    benchmark.pedantic(zoom, rounds=9, iterations=1, warmup_rounds=1)
    record("play zoom to a new level, 1,000 units", benchmark, INTERACTION_BUDGET)


@pytest.fixture(scope="module")
def scene_3000(big_maps):
    import pygame

    from tactical.rules import registry
    from tactical.ui.camera import Camera, Margins
    from tactical.ui.scene import SceneRenderer

    state = load_map(big_maps[BIG])
    system = registry.get(state.rules)
    camera = Camera.fit(state.board.bounds, SIZE, Margins(36, 36, 36, 36))
    target = pygame.Surface(SIZE)
    renderer = SceneRenderer()
    selected = state.units[0].id
    renderer.draw(target, state, camera, system, selected=selected)
    return state, system, camera, target, renderer, selected


def test_cached_frame_3000(benchmark, scene_3000):
    state, system, camera, target, renderer, selected = scene_3000
    benchmark(renderer.draw, target, state, camera, system, selected)
    record("cached 1920x1080 frame, 3,000 units", benchmark, FRAME_BUDGET)


FIRST_FRAME = """
import time
import pygame
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.ui.app import App
app = App(load_map(builtin_map("stress-200")), (1280, 800))
app.step()
app.frame()
pygame.display.flip()
print("flipped", flush=True)
"""


def _launch_times(
    env: dict[str, str], rounds: int = quick(5, 1)
) -> tuple[list[float], list[float]]:
    """Wall seconds (the parent's clock, from process start to the first flip) and CPU
    seconds (user + system) of `rounds` launches of the 200-ship map."""
    wall, cpu = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        child = subprocess.Popen(
            [PYTHON, "-c", FIRST_FRAME], env=env, stdout=subprocess.PIPE, text=True
        )
        line = child.stdout.readline()
        wall.append(time.perf_counter() - started)
        _, status, usage = os.wait4(child.pid, 0)
        child.stdout.close()
        assert os.waitstatus_to_exitcode(status) == 0 and line.strip() == "flipped"
        cpu.append(usage.ru_utime + usage.ru_stime)
    return wall, cpu


@pytest.mark.benchmark
def test_launch_to_first_frame_200(tmp_path):
    """From process start (the parent's clock) to the first flip of the 200-ship map, as an
    installed program starts: with the modules' bytecode written (by a first launch, into a
    scratch PYTHONPYCACHEPREFIX). This machine sets PYTHONDONTWRITEBYTECODE, so that its
    every launch compiles the project's ~160 modules from source (the installed libraries
    have their bytecode): kept as a second, reference row."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    compiled = dict(env, PYTHONPYCACHEPREFIX=str(tmp_path / "pycache"))
    compiled.pop("PYTHONDONTWRITEBYTECODE", None)
    _launch_times(compiled, rounds=1)  # writes the bytecode
    wall, cpu = _launch_times(compiled)
    _keep("launch to first frame, 200 units", float(np.median(wall)), LAUNCH_BUDGET)
    _keep("launch to first frame, 200 units (CPU)", float(np.median(cpu)))
    print(f"first frame: median {np.median(wall):.3f} s (CPU {np.median(cpu):.3f} s)")
    if is_quick():
        return  # the reference row below only tells how much compiling costs
    source = dict(env, PYTHONDONTWRITEBYTECODE="1")
    source.pop("PYTHONPYCACHEPREFIX", None)
    source_wall, source_cpu = _launch_times(source)
    _keep("launch, compiling every module (wall)", float(np.median(source_wall)))
    _keep("launch, compiling every module (CPU)", float(np.median(source_cpu)))
    print(f"compiling every module {np.median(source_wall):.3f} s "
          f"(CPU {np.median(source_cpu):.3f} s)")  # fmt: skip


# --------------------------------------------------------------------------- range bands

BANDING_RATIO = 10  # all of a firer's distances at once against pair by pair


@pytest.fixture(scope="module", params=["battlefleet-mars", "sw-d6-capital"])
def banded_pairs(request):
    """maps/stress-200.toml's positions and bases, each a ship of the system's example map:
    every pair's firer index and range distance (39,800 pairs)."""
    import dataclasses

    from tactical.io.paths import builtin_map
    from tactical.model import FrozenMap

    stress = load_map(builtin_map("stress-200"))
    ships = load_map(builtin_map(request.param))
    units = tuple(
        dataclasses.replace(
            ships.units[k % len(ships.units)], id=f"ship-{k}", pose=unit.pose, base=unit.base
        )
        for k, unit in enumerate(stress.units)
    )
    state = dataclasses.replace(ships, units=units, board=stress.board, terrain=(),
                                options=FrozenMap())  # fmt: skip
    table = TableGeometry.of(state)
    n = len(units)
    i, j = np.repeat(np.arange(n), n), np.tile(np.arange(n), n)
    i, j = i[i != j], j[i != j]
    return request.param, table, i, table.range_distances(i, j)


def test_range_bands_at_once_200(benchmark, banded_pairs):
    """`TableGeometry.range_bands` of every pair of 200 ships (one call per firer)."""
    rules, table, i, distance = banded_pairs
    _, codes = benchmark.pedantic(
        table.range_bands, args=(i, distance), rounds=7, iterations=1, warmup_rounds=1
    )
    record(f"range bands at once, 200 units, {rules}", benchmark)
    assert len(codes) == len(i)
    RATIOS.append(
        (f"range bands at once vs pair by pair, {rules}",
         f"range bands pair by pair, 200 units, {rules}",
         f"range bands at once, 200 units, {rules}", BANDING_RATIO),
    )  # fmt: skip


def test_range_bands_pair_by_pair_200(benchmark, banded_pairs):
    """Baseline: `range_band` asked pair by pair (what `range_bands` did for these systems)."""
    rules, table, i, distance = banded_pairs
    system, units, options = table.system, table.state.units, table.state.options

    def one_by_one():
        return [
            system.range_band(units[a], d, options)
            for a, d in zip(i.tolist(), distance.tolist(), strict=True)
        ]

    benchmark.pedantic(one_by_one, rounds=3, iterations=1)
    record(f"range bands pair by pair, 200 units, {rules}", benchmark)


# --------------------------------------------------------------------------- odds

ODDS_BUDGET = 0.016
ODDS_SAMPLES = 2000


@pytest.fixture(scope="module")
def attack_1000(big_maps):
    """The 1,000-ship map played on (seeded) until the side to act may declare an attack
    with odds."""
    from tactical.errors import UserError
    from tactical.rules.base import Action
    from tactical.session.autoplay import candidate_params, next_game
    from tactical.session.game import Game

    game = Game.new(load_map(big_maps[SMALL]), 2026)
    for _ in range(100):
        for choice in game.rule_choices():
            if "attack" not in choice.kind:
                continue
            for params in candidate_params(choice):
                action = Action(choice.kind, choice.actor, params)
                try:
                    if game.odds(action) is not None:
                        return game, action
                except UserError:
                    continue
        game = next_game(game)
    pytest.skip("no attack with odds reached on the 1,000-ship map")


def _fresh(game):
    """The same game with its choices asked already but no odds computed (a first hover)."""
    from tactical.session.game import Game

    choices = game.rule_choices()
    fresh = Game(game.initial, game.seed, game.state, game.position, game.sides, game.steps)
    fresh._memo["rule_choices"] = choices
    return fresh


def test_game_odds_1000(benchmark, attack_1000):
    """`Game.odds` of one attack on the 1,000-ship map (exact, enumerated)."""
    game, action = attack_1000
    report = benchmark(lambda: _fresh(game).odds(action))
    assert report is not None and report == game.odds(action)
    record("Game.odds, 1,000 units", benchmark, ODDS_BUDGET)
    RATIOS.append(
        ("exact odds vs 2,000 samples, 1,000 units", "odds: 2,000 samples, 1,000 units",
         "Game.odds, 1,000 units", 2),
    )  # fmt: skip


def test_game_odds_1000_naive_sampling(benchmark, attack_1000):
    """Baseline: the same attack resolved with 2,000 seeded dice (approximate odds)."""
    from collections import Counter

    from tactical.dice import SeededDice

    game, action = attack_1000
    system = game.system

    def sample():
        counts: Counter = Counter()
        for k in range(ODDS_SAMPLES):
            counts[repr(system.apply(game.state, action, SeededDice(k)).summary)] += 1
        return counts

    benchmark.pedantic(sample, rounds=1, iterations=1)
    record("odds: 2,000 samples, 1,000 units", benchmark)


def _reference_loop(values: np.ndarray) -> np.ndarray:
    result = values
    for _ in range(100):
        result = values * 2.0 + 1.0
    return result


def test_machine_reference(benchmark):
    """100 small numpy operations (bench_geometry's reference): how fast the shared machine
    ran during this bench (0.17 ms when quiet)."""
    values = np.linspace(0.0, 1.0, 200)
    result = benchmark(_reference_loop, values)
    record("machine reference (100 numpy ops)", benchmark)
    assert result[-1] == 3.0
