"""Print a set-up command of README.md exactly as written there, for `.ci/run`.

README.md's "Set up" section holds two `sh` code blocks: the first installs the package and
runs the demo, the second installs the test extra and runs the tests. `.ci/run` runs each as
this prints it, so CI runs what a newcomer copies and the two cannot drift apart.

    python3 .ci/setup_commands.py 1    # the first block
    python3 .ci/setup_commands.py 2    # the second
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
SECTION = re.compile(r"^## Set up\n(.*?)(?=^## )", re.M | re.S)
BLOCK = re.compile(r"^```sh\n(.*?)^```$", re.M | re.S)


def setup_commands(text: str) -> list[str]:
    """The `sh` code blocks of the README's "Set up" section, in order (exactly two)."""
    section = SECTION.search(text)
    if section is None:
        raise SystemExit("README.md has no '## Set up' section")
    blocks = BLOCK.findall(section.group(1))
    if len(blocks) != 2:
        raise SystemExit(f"README.md's Set up section has {len(blocks)} sh blocks, not 2")
    return [block.rstrip("\n") for block in blocks]


def main(argv: list[str]) -> int:
    """Print block `argv[1]` (1 or 2)."""
    if len(argv) != 2 or argv[1] not in ("1", "2"):
        print("usage: setup_commands.py 1|2", file=sys.stderr)
        return 2
    print(setup_commands(README.read_text(encoding="utf-8"))[int(argv[1]) - 1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
