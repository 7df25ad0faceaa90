"""Shell completion scripts generated from the click commands (`contrib/completion/`).

Completion is dynamic: the scripts call `git-memory` back with `_GIT_MEMORY_COMPLETE` set, so
they never go stale about options. Bash also gets `_git_memory`, the hook git's own completion
calls for `git memory …`. `python -m git_memory.cli.completion` rewrites the files; a test
fails when they differ from what click generates.

The fish script is a one-line loader instead: the reply format of fish completion changed
between click releases (8.4 split lines, 8.5 splits on commas), so a script frozen from one
click release breaks with another. The loader asks the installed `git-memory` for the script of
the click it runs with.
"""

from __future__ import annotations

from pathlib import Path

from click.shell_completion import get_completion_class

from git_memory import output
from git_memory.cli.main import cli

PROG = "git-memory"
COMPLETE_VAR = "_GIT_MEMORY_COMPLETE"
DIRECTORY = Path("contrib/completion")
FILES = {"bash": "git-memory.bash", "zsh": "_git-memory", "fish": "git-memory.fish"}

# git's bash completion calls `_git_<subcommand>` for `git <subcommand> …`: forward it to the
# click completion with the words `git memory` folded into `git-memory`.
GIT_BASH_HOOK = """
_git_memory() {
    local words=("git-memory" "${words[@]:2}")
    local response completion type value
    response=$(env COMP_WORDS="${words[*]}" COMP_CWORD=$((cword - 1)) \\
        _GIT_MEMORY_COMPLETE=bash_complete git-memory 2>/dev/null)
    local IFS=$'\\n'
    for completion in $response; do
        IFS=',' read -r type value <<< "$completion"
        if [[ $type == 'plain' ]]; then
            COMPREPLY+=("$value")
        fi
    done
}
"""


FISH_LOADER = f"""\
# fish completion for git-memory: load the script of the click release git-memory runs with.
env {COMPLETE_VAR}=fish_source {PROG} | source
"""


def render(shell: str) -> str:
    """The completion script for `shell` (bash, zsh or fish)."""
    if shell == "fish":
        return FISH_LOADER

    completion_class = get_completion_class(shell)
    if completion_class is None:
        raise ValueError(f"no completion for {shell!r}")
    source = completion_class(cli, {}, PROG, COMPLETE_VAR).source()
    return source + (GIT_BASH_HOOK if shell == "bash" else "")


def main() -> None:
    """Rewrite the scripts under contrib/completion/ (run from the project root)."""
    DIRECTORY.mkdir(parents=True, exist_ok=True)
    for shell, name in FILES.items():
        (DIRECTORY / name).write_text(render(shell), encoding="utf-8")
        output.echo(f"wrote {DIRECTORY / name}")


if __name__ == "__main__":
    main()
