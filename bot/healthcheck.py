"""`python -m bot.healthcheck`: exit 0 when this machine's bot process answers `/healthz` with
200 (its event loop turns), 1 otherwise. For the Docker image's HEALTHCHECK: the address is
`SCOPA_METRICS`'s port on the loopback, and only the standard library is used, so that the
check costs a bare interpreter's start (nothing of the bot is imported)."""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

WITHIN = 5.0


def url(address: str) -> str:
    host, _, port = address.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/healthz"


def main() -> int:
    address = os.environ.get("SCOPA_METRICS", "").strip()
    if not address:
        print("SCOPA_METRICS is not set: the bot serves no /healthz", file=sys.stderr)
        return 1
    try:
        with urllib.request.urlopen(url(address), timeout=WITHIN) as answer:
            return 0 if answer.status == 200 else 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"/healthz: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
