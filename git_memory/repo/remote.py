"""Normalize a remote URL into a public repository identity `host[:port]/path`."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_SCP = re.compile(r"^(?:[^@/]+@)?(?P<host>[^:/]+):(?!//)(?P<path>[^\\].*)$")


def public_identity(url: str | None) -> str | None:
    """Strip credentials, query, fragment and `.git`; local and `file:` remotes give None."""
    if not url:
        return None
    url = url.strip()
    if "://" in url:
        return _from_url(url)
    if url.startswith(("/", ".", "~")) or re.match(r"^[A-Za-z]:[\\/]", url):
        return None
    match = _SCP.match(url)
    if not match:
        return None
    return _join(match["host"].lower(), None, match["path"])


def _from_url(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme.lower() == "file" or not parts.hostname:
        return None
    try:
        port = parts.port
    except ValueError:
        return None
    return _join(parts.hostname.lower(), port, parts.path)


def _join(host: str, port: int | None, path: str) -> str | None:
    path = path.split("?", 1)[0].split("#", 1)[0].strip("/")
    if path.endswith(".git"):
        path = path[: -len(".git")]
    path = path.rstrip("/")
    if not path:
        return None
    authority = f"{host}:{port}" if port else host
    return f"{authority}/{path}"
