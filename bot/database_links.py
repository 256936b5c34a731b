"""PostgreSQL links as hosted services hand them out, turned into what asyncpg takes.

A link like `postgresql://u:p@host/db?sslmode=require&channel_binding=require` carries libpq's
parameters after `?`. SQLAlchemy hands each of them to `asyncpg.connect` as a keyword
argument of the same name, and asyncpg knows none of libpq's names, so every one used to stop
the bot with a traceback. asyncpg does read most of them from a link of its own (its `dsn`
argument, checked in its `connect_utils._parse_connect_dsn_and_args`): `sslmode`,
`sslrootcert`, `sslcert`, `sslkey`, `target_session_attrs`; and whatever else it finds there it
sends to the server as a setting, which is what `application_name` and `options` are. So
those go to asyncpg unchanged, as a link of parameters only (`dsn="postgresql://?sslmode=..."`)
beside the host, user and password SQLAlchemy passes, and asyncpg applies them exactly as it
would its own link. The two it would wrongly send to the server are translated here:
`connect_timeout` (asyncpg's `timeout`) and `channel_binding` (see `_channel_binding`).
Anything else is refused with one line naming it, before the bot connects.
"""

from __future__ import annotations

import ssl
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url

SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
# asyncpg's `SessionAttribute` values, the same words as libpq's.
SESSION_ATTRS = ("any", "primary", "standby", "prefer-standby", "read-write", "read-only")
CERTIFICATE_FILES = ("sslrootcert", "sslcert", "sslkey")
# Passed on to asyncpg's own link parsing as they are (validated first, below).
FOR_ASYNCPG = ("sslmode", *CERTIFICATE_FILES, "target_session_attrs", "application_name", "options")
# Translated here.
TRANSLATED = ("connect_timeout", "channel_binding")
# Read by SQLAlchemy itself: the unix-socket form `postgresql://user:@/db?host=/run/pg`.
FOR_SQLALCHEMY = ("host", "port")
KNOWN = (*FOR_ASYNCPG, *TRANSLATED, *FOR_SQLALCHEMY)


@dataclass(frozen=True)
class PostgresLink:
    """A PostgreSQL link split in two: the URL SQLAlchemy connects with (no libpq
    parameters left in it) and the extra keyword arguments for `asyncpg.connect`."""

    url: URL
    connect_args: dict[str, Any] = field(default_factory=dict)


def postgres_link(url: str | URL) -> PostgresLink:
    """The link's parameters checked and translated; ValueError (one line, naming the
    parameter) for one the bot cannot honour or does not know."""
    url = make_url(url)
    query = {name: _one_value(name, value) for name, value in url.query.items()}
    if "ssl" in query and "sslmode" not in query:
        # SQLAlchemy's own spelling for asyncpg (`?ssl=require`): the same words as sslmode.
        query["sslmode"] = query.pop("ssl")
    unknown = sorted(set(query) - set(KNOWN))
    if unknown:
        raise ValueError(
            f"unknown link parameter{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
            f"(the bot takes {', '.join(KNOWN)})"
        )
    connect_args: dict[str, Any] = {}
    _check_choice(query, "sslmode", SSL_MODES)
    _check_choice(query, "target_session_attrs", SESSION_ATTRS)
    if query.get("sslrootcert") == "system":
        connect_args["ssl"] = _system_certificates(query)
    for name in CERTIFICATE_FILES:
        if name in query and not Path(query[name]).expanduser().is_file():
            # asyncpg would fail each try with FileNotFoundError, which looks like a
            # network error (an OSError) and would be tried again for ever.
            raise ValueError(f"{name}: no file {query[name]}")
    if "connect_timeout" in query:
        connect_args["timeout"] = _seconds(query.pop("connect_timeout"))
    _channel_binding(query.pop("channel_binding", None))
    for_asyncpg = {name: value for name, value in query.items() if name in FOR_ASYNCPG}
    if for_asyncpg:
        connect_args["dsn"] = "postgresql://?" + urllib.parse.urlencode(for_asyncpg)
    kept = {name: url.query[name] for name in FOR_SQLALCHEMY if name in url.query}
    return PostgresLink(url.set(query=kept), connect_args)


def _one_value(name: str, value: str | tuple[str, ...]) -> str:
    if isinstance(value, tuple):
        raise ValueError(f"{name} is given more than once")
    return value


def _check_choice(query: dict[str, str], name: str, choices: tuple[str, ...]) -> None:
    if name in query and query[name] not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {query[name]!r}")


def _seconds(text: str) -> float:
    """libpq's connect_timeout, seconds. libpq reads 0 as "wait for ever"; the bot never
    waits for ever (a hung server must not hold start-up or a press), so 0 is refused."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0 or seconds == float("inf"):
        raise ValueError(f"connect_timeout must be a positive number of seconds, not {text!r}")
    return seconds


def _channel_binding(mode: str | None) -> None:
    """libpq's channel_binding: tie the password check (SCRAM) to this TLS connection, so a
    man in the middle holding a trusted certificate cannot relay it. asyncpg's SCRAM never
    binds (its `protocol/scram.pyx` sends the flag "n" and offers only SCRAM-SHA-256, not
    -PLUS). `prefer` is what libpq does with a server that offers no binding: go on
    without, as asyncpg does; `disable` asks for nothing. `require` cannot be honoured and
    is refused rather than dropped: silently weakening what the link asks for would be a
    lie. Hosted services (Neon) accept the same link with `channel_binding=prefer`."""
    if mode in (None, "disable", "prefer"):
        return
    if mode == "require":
        raise ValueError(
            "channel_binding=require: the asyncpg driver cannot do channel binding; "
            "use channel_binding=prefer (sslmode still encrypts the connection)"
        )
    raise ValueError(f"channel_binding must be one of disable, prefer, require, not {mode!r}")


def _system_certificates(query: dict[str, str]) -> ssl.SSLContext:
    """libpq's `sslrootcert=system`: trust the system's certificate authorities, which
    implies sslmode=verify-full. asyncpg would look for a file named "system"; a context
    of our own does it instead (asyncpg takes an SSLContext as its `ssl`)."""
    if query.get("sslmode", "verify-full") != "verify-full":
        raise ValueError("sslrootcert=system needs sslmode=verify-full")
    del query["sslrootcert"]
    query.pop("sslmode", None)  # asyncpg ignores the link's sslmode when given `ssl`
    return ssl.create_default_context()  # verifies the certificate and the host name
