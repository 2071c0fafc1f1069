"""The messages of online play: JSON objects with a protocol version and a type.

Every message is one WebSocket text frame holding a JSON object `{"v": 1, "type": ...,
...}`. What a client may send is listed in `CLIENT_FIELDS`, field by field with its kind;
`read_client` refuses anything else (over `MAX_MESSAGE` bytes, not JSON, a wrong type, an
unknown or missing field, a value of the wrong kind) with a `ProtocolError` whose words
go back to the sender in an `error` frame. Nothing received is evaluated, unpickled or
used as a path: it is plain JSON, checked field by field, then handed to the game as an
action that the rules check again.

Client to server: `hello` (first: the seat's token, or `watch`), `action` (with the
version of the game it was chosen on), `nonce` (a fresh nonce for a step that rolls),
`undo` (a request), `undo_answer`, `chat`, `sync` (send me the whole game), `ping`; and,
from the client that referees a stretch of hidden moves (`net.referee`): `sealed_action`
(its hidden move as a commitment), `probed` and `refereed` (its answers).
Server to client: `welcome` (the seat, the whole game as a save, the version), `step`
(one step: action, fair record, digest, version), `refused` (with the rule's reason),
`nonce_wanted`, `waiting`, `undo_asked`, `undo_declined`, `game` (the whole game again:
after an undo, or asked for), `chat`, `error`, `pong`.

While the rules hide something from a client's side (a cloaked enemy ship), that client
gets no `step` and no `game`: it gets `view` (the game as its side knows it, `net.views`:
the table, the turn, and the steps from `from` on, as the side may read them), in the
welcome too. When nothing is hidden from it any more, it gets the whole `game` again.
The client that referees a stretch gets `referee` (the stretch begins; again on a
reconnect), `probe` and `play` (the requests it answers) and `refereed` (its step's
version).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

PROTOCOL_VERSION = 2  # 2: views of a side (`view`), for hidden information
MAX_MESSAGE = 1 << 20  # bytes of one message a server accepts (1 MiB)
FRAME_LIMIT = 2 * MAX_MESSAGE  # a frame past this closes the connection (websockets' max_size)
MAX_TEXT = 500  # characters in a chat line
DEFAULT_PORT = 8765
CHECKER = "Check"  # who says, in the chat, what the check of a refereed stretch found


class ProtocolError(ValueError):
    """A message that is not one the protocol allows: its words go back in an error frame."""


def _text(limit: int) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, str) and 0 < len(value) <= limit


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _object(value: Any) -> bool:
    return isinstance(value, dict)


def _list(value: Any) -> bool:
    return isinstance(value, list)


def _hex64(value: Any) -> bool:
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )


# type: {field: (check, required, what it is)}
CLIENT_FIELDS: dict[str, dict[str, tuple[Callable[[Any], bool], bool, str]]] = {
    "hello": {
        "token": (_text(200), False, "the seat's token (text)"),
        "watch": (_flag, False, "true to watch"),
        "name": (_text(60), False, "the player's name (text)"),
    },
    "action": {
        "version": (_whole, True, "the game version the action was chosen on"),
        "kind": (_text(60), True, "the kind of action (text)"),
        "actor": (_text(200), True, "who acts (text)"),
        "params": (_object, False, "the action's parameters (an object)"),
        "id": (_text(64), False, "the action's own id (text): sent again, it is applied once"),
    },
    "nonce": {
        "step": (_whole, True, "the step number the nonce is for"),
        "nonce": (_hex64, True, "64 lowercase hex digits"),
    },
    # the side whose moves are hidden from a hosting player referees them (`net.referee`)
    "sealed_action": {
        "version": (_whole, True, "the game version the action was chosen on"),
        "commitment": (_hex64, True, "H(action ‖ salt): 64 lowercase hex digits"),
        "id": (_text(64), False, "the action's own id (text): sent again, it is applied once"),
    },
    "probed": {
        "ref": (_text(32), True, "the request answered"),
        "refused": (_text(2000), False, "why the action cannot be played (text)"),
        "rolls": (_flag, False, "whether the step rolls dice"),
        "title": (_text(500), False, "the step's title"),
        "seen_title": (_text(500), False, "the step's title as the other side reads it"),
    },
    "refereed": {
        "ref": (_text(32), True, "the request answered"),
        "report": (_object, True, "the other side's view after the step"),
        "next": (_object, False, "the step the game takes by itself next"),
        "open": (_flag, False, "true once nothing is hidden any more"),
        "reveal": (_list, False, "every hidden move with its salt, once open"),
    },
    "undo": {"version": (_whole, True, "the game version to undo from")},
    "undo_answer": {"accept": (_flag, True, "true or false")},
    "chat": {"text": (_text(MAX_TEXT), True, f"a line of 1 to {MAX_TEXT} characters")},
    "sync": {},
    "ping": {},
}


def read_client(frame: str | bytes) -> dict[str, Any]:
    """A client's message, checked (see the module docstring); ProtocolError otherwise."""
    if len(frame) > MAX_MESSAGE:
        raise ProtocolError(f"a message of at most {MAX_MESSAGE} bytes (this one has {len(frame)})")
    if isinstance(frame, bytes):
        raise ProtocolError("a text frame holding a JSON object (this one is binary)")
    try:
        message = json.loads(frame)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("a JSON object (this frame is not JSON)") from None
    if not isinstance(message, dict):
        raise ProtocolError("a JSON object with v and type")
    if message.get("v") != PROTOCOL_VERSION:
        raise ProtocolError(f"protocol version {PROTOCOL_VERSION} in v (got {message.get('v')!r})")
    kind = message.get("type")
    fields = CLIENT_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ProtocolError("a type of " + ", ".join(CLIENT_FIELDS) + f" (got {kind!r})")
    for key, value in message.items():
        if key in ("v", "type"):
            continue
        spec = fields.get(key)
        if spec is None:
            raise ProtocolError(
                f"{kind}: no field {key!r} (it takes {', '.join(fields) or 'none'})"
            )
        check, _, what = spec
        if not check(value):
            raise ProtocolError(f"{kind}.{key}: {what}")
    for key, (_, required, what) in fields.items():
        if required and key not in message:
            raise ProtocolError(f"{kind}.{key} is missing: {what}")
    return message


def frame(message_type: str, /, **fields: Any) -> str:
    """A message as sent: one JSON object with the protocol version and its type."""
    return json.dumps({"v": PROTOCOL_VERSION, "type": message_type, **fields}, ensure_ascii=False)


def read_server(text: str | bytes) -> dict[str, Any]:
    """A server's message as a client reads it (a JSON object with a type); ProtocolError
    for anything else: a client trusts the server's JSON no more than the server the
    client's, and checks every value it uses where it uses it."""
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError, TypeError):
        raise ProtocolError("the server sent something that is not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError("the server sent a message without a type")
    if message.get("v") != PROTOCOL_VERSION:
        raise ProtocolError(
            f"the server speaks protocol version {message.get('v')!r}, this program "
            f"{PROTOCOL_VERSION}: run the same version of tactical on both machines"
        )
    return message


def action_fields(message: Mapping[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """(kind, actor, params) of an `action` or `step` message."""
    return message["kind"], message["actor"], dict(message.get("params") or {})


def address_of(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """(host, port) from "HOST", "HOST:PORT" or "ws://HOST:PORT"; ValueError otherwise."""
    rest = text.strip()
    for prefix in ("ws://", "tactical://"):
        if rest.startswith(prefix):
            rest = rest[len(prefix) :]
    rest = rest.split("/", 1)[0]
    if not rest:
        raise ValueError("an address HOST or HOST:PORT, e.g. 192.168.1.20:8765")
    if rest.startswith("["):  # [IPv6]:port
        host, _, tail = rest[1:].partition("]")
        port_text = tail[1:] if tail.startswith(":") else ""
    elif rest.count(":") == 1:
        host, port_text = rest.split(":")
    else:
        host, port_text = rest, ""
    if not host:
        raise ValueError("an address HOST or HOST:PORT, e.g. 192.168.1.20:8765")
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"a port from 1 to 65535 after the colon (got {port_text!r})")
    return host, int(port_text)
