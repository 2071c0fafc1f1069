"""Running the lab's games on Ray (`--ray auto|ADDRESS`, the optional `[cluster]` extra).

The same chunks and the same game function as the local pool (`pool.play_chunk`):
one Ray task plays a chunk of games, not one game; each finished chunk's results come
back to the main process, which stores them as they arrive. At most a few chunks per
CPU are in flight, so that Ctrl+C cancels little work. A task whose worker dies is
retried by Ray (`max_retries`); a game delivered twice is stored once (the store's
unique key).

`auto` attaches to the Ray cluster running on this machine, or starts a local Ray
instance when there is none; any other address is a cluster to attach to
(`HOST:PORT`, or `ray://HOST:10001` through the Ray client).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator, Sequence
from typing import Any

from tactical.errors import UserError
from tactical.lab.plan import GameResult, GameTask, RunSpec
from tactical.lab.pool import GameFailed, PlayFunction, play_chunk

IN_FLIGHT_PER_CPU = 2
RAY_AUTH_LOGGER = "ray._private.authentication.authentication_token_setup"
TASK_RETRIES = 3
CONNECT_SECONDS = 5.0
INSTALL_HINT = 'Ray is not installed: pip install -e ".[cluster]"'


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UserError(f"--ray: {INSTALL_HINT}") from None
    return ray


def _play_chunk_task(play: PlayFunction, spec: RunSpec, chunk: Sequence[GameTask]) -> list:
    return list(play_chunk(play, spec, chunk))


class RayCluster:
    """A connection to Ray and the run of chunks on it."""

    def __init__(self, address: str, play: PlayFunction, num_cpus: int | None = None) -> None:
        ray = import_ray()
        self.ray = ray
        self.play = play
        self.started_here = False
        try:
            if address == "auto":
                # an existing cluster on this machine, or a new local instance
                self.started_here = not _cluster_running(ray)
                # Ray notes on stderr that a new local instance uses token authentication
                # (its default, kept): a line our output has no use for
                logging.getLogger(RAY_AUTH_LOGGER).setLevel(logging.ERROR)
                ray.init(
                    num_cpus=num_cpus if self.started_here else None,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
            else:
                _check_reachable(address)
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        except (ConnectionError, TimeoutError, ValueError, RuntimeError) as error:
            raise UserError(
                f"--ray {address}: cannot reach a Ray cluster there ({_first_line(error)}); "
                "nothing was written"
            ) from None
        self.remote = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False)(_play_chunk_task)

    @property
    def cpus(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def run(self, spec: RunSpec, chunks: Sequence[Sequence[GameTask]]) -> Iterator[GameResult]:
        """Play every chunk on the cluster; yields results as chunks finish."""
        ray = self.ray
        waiting = [tuple(c) for c in chunks if c]
        waiting.reverse()  # popped from the end: first chunk first
        spec_ref = ray.put(spec)
        play_ref = ray.put(self.play)
        running: dict[Any, tuple[GameTask, ...]] = {}
        limit = IN_FLIGHT_PER_CPU * self.cpus
        try:
            while waiting or running:
                while waiting and len(running) < limit:
                    chunk = waiting.pop()
                    running[self.remote.remote(play_ref, spec_ref, chunk)] = chunk
                finished, _ = ray.wait(list(running), num_returns=1)
                for ref in finished:
                    chunk = running.pop(ref)
                    try:
                        results = ray.get(ref)
                    except ray.exceptions.RayTaskError as error:
                        first = chunk[0]
                        raise GameFailed(
                            f"a chunk from game {first.number} of variant {first.variant} "
                            f"failed on Ray:\n{error}"
                        ) from None
                    yield from results
        finally:
            for ref in running:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        self.ray.shutdown()


def _cluster_running(ray: Any) -> bool:
    """Whether a Ray cluster is already running on this machine (`ray start`)."""
    try:
        from ray._private.services import find_gcs_addresses
    except ImportError:
        return False
    return bool(find_gcs_addresses())


def _check_reachable(address: str) -> None:
    """UserError unless something answers at the address's host and port (Ray itself waits
    a long time for an address where nothing listens)."""
    host_port = address.removeprefix("ray://")
    host, colon, port = host_port.rpartition(":")
    if not colon or not host or not port.isdigit():
        raise UserError(
            f"--ray {address}: expected 'auto' or a cluster address HOST:PORT (or ray://HOST:PORT)"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS):
            pass
    except OSError as error:
        raise UserError(
            f"--ray {address}: cannot reach a Ray cluster there ({error.strerror or error}); "
            "nothing was written"
        ) from None


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
