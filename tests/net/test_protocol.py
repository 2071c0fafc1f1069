"""The online messages: what a client may send, checked field by field."""

from __future__ import annotations

import json

import pytest

from tactical.net.protocol import (
    MAX_MESSAGE,
    PROTOCOL_VERSION,
    ProtocolError,
    address_of,
    frame,
    read_client,
    read_server,
)


def test_a_good_message_reads_back():
    message = read_client(frame("action", version=3, kind="fire", actor="a1", params={"w": 1}))
    assert message["kind"] == "fire" and message["params"] == {"w": 1}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("x" * (MAX_MESSAGE + 1), "at most"),
        (b"\x00\x01", "binary"),
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"v": 9, "type": "ping"}), "protocol version 2"),
        (frame("launch"), "a type of"),
        (frame("ping", extra=1), "no field 'extra'"),
        (frame("action", version=1, kind="fire"), "action.actor is missing"),
        (frame("action", version="1", kind="fire", actor="a"), "action.version"),
        (frame("action", version=True, kind="fire", actor="a"), "action.version"),
        (frame("nonce", step=1, nonce="AB" * 32), "nonce.nonce"),
        (frame("chat", text=""), "chat.text"),
        (frame("chat", text="x" * 501), "chat.text"),
        ("[" * 5000 + "]" * 5000, "JSON"),
    ],
)
def test_a_bad_message_is_refused_with_what_was_expected(text, says):
    with pytest.raises(ProtocolError, match=None) as error:
        read_client(text)
    assert says in str(error.value)


def test_a_server_message_from_another_version_says_to_run_the_same_version():
    with pytest.raises(ProtocolError, match="same version"):
        read_server(json.dumps({"v": PROTOCOL_VERSION + 1, "type": "step"}))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("example.org", ("example.org", 8765)),
        ("10.0.0.2:9000", ("10.0.0.2", 9000)),
        ("ws://10.0.0.2:9000/", ("10.0.0.2", 9000)),
        ("[::1]:9001", ("::1", 9001)),
    ],
)
def test_addresses(text, expected):
    assert address_of(text) == expected


@pytest.mark.parametrize("text", ["", "host:0", "host:99999", "host:x"])
def test_bad_addresses_say_what_an_address_is(text):
    with pytest.raises(ValueError):
        address_of(text)
