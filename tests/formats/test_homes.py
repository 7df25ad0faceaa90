"""Home directories and user names become `~` and `<user>` in what a reviewer reads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from git_memory.formats.homes import home_names, rewrite_homes

# (text as a transcript has it, as a reviewer reads it): one row per home shape.
HOMES = [
    ("go test in /Users/alice/Work/cli/cmd", "go test in ~/Work/cli/cmd"),
    ("cache at /home/bob/.cache/go-build", "cache at ~/.cache/go-build"),
    ("C:\\Users\\carol\\src\\app\\main.ts", "~\\src\\app\\main.ts"),
    ("C:\\\\Users\\\\carol\\\\src", "~\\\\src"),  # escaped inside JSON output
    ("C:/Users/dave/src/app", "~/src/app"),
    ("written to /root/.npmrc", "written to ~/.npmrc"),
    ("cd /Users/alice && make", "cd ~ && make"),
    ("`/home/runner/work/api/api/tests` failed", "`~/work/api/api/tests` failed"),
    # Windows homes as Git Bash and WSL name them, and in lower case
    ("bash /c/Users/erin/tools/x.sh", "bash ~/tools/x.sh"),
    ("/mnt/c/Users/erin/other/run.sh", "~/other/run.sh"),
    ("cd c:/users/erin/app/web", "cd ~/app/web"),
    ("c:\\users\\erin\\x", "~\\x"),
    # a Windows account's folder with a blank in its name
    ('dir "C:\\Users\\John Smith\\Documents"', 'dir "~\\Documents"'),
    ('ls "/c/Users/John Smith/Documents"', 'ls "~/Documents"'),
    # Windows ignores case: typed in capitals, and Git Bash's drive in capitals too
    ("type C:\\USERS\\bob\\notes.txt", "type ~\\notes.txt"),
    ("cd /C/Users/bob/src && ls /C/USERS/bob", "cd ~/src && ls ~"),
    # a `file://` link names the home as its path, its colon or blank percent-encoded
    ("open file:///home/bob/report.html", "open file://~/report.html"),
    ("[x](file:///Users/alice/Work/a.md)", "[x](file://~/Work/a.md)"),
    ("file:///C:/Users/carol/src/a.ts", "file:///~/src/a.ts"),
    ("file:///c%3A/Users/carol/src/a.ts#L3", "file:///~/src/a.ts#L3"),
    ("file:///C:/Users/John%20Smith/Documents/a.md", "file:///~/Documents/a.md"),
    ("[doc](file:///C:/Users/John%20Smith)", "[doc](file:///~)"),
    ("open file://localhost/home/bob/x.py", "open file://localhost~/x.py"),
    ("vscode://file/home/bob/x.py:12", "vscode://file~/x.py:12"),
    ("FILE:///home/bob/x", "FILE://~/x"),
    # any mix of case and separators Windows reads, and its long-path prefix
    ("cd C:\\UsErS\\bob\\src", "cd ~\\src"),
    ("dir c:/Users\\bob\\src", "dir ~\\src"),
    ("dir \\\\?\\C:\\Users\\bob\\x", "dir \\\\?\\~\\x"),
    # where the account's name ends: a sentence's full stop, a list, a pipe, an angle bracket
    ("cd /home/bob. Then run it", "cd ~. Then run it"),
    ("cd C:\\Users\\carol. Then run it", "cd ~. Then run it"),
    ("profile C:\\Users\\bob, then <C:\\Users\\bob>|more", "profile ~, then <~>|more"),
    # names in any alphabet
    ("C:\\Users\\José\\x", "~\\x"),
    ("/home/josé/x", "~/x"),
    # a name with an apostrophe or a domain's `@` in it, not the `'s` after one
    ("cd C:\\Users\\O'Brien\\src", "cd ~\\src"),
    ("C:\\Users\\bob@corp\\x", "~\\x"),
    ("see /Users/bob's folder", "see ~'s folder"),
    # a WSL home through Windows's share, as typed, with slashes, escaped inside JSON
    ("cd \\\\wsl$\\Ubuntu\\home\\bob\\src", "cd ~\\src"),
    ("open //wsl.localhost/Debian/home/bob/x.py", "open ~/x.py"),
    ('"\\\\\\\\wsl$\\\\Ubuntu\\\\home\\\\bob\\\\x"', '"~\\\\x"'),
    ("cd \\\\WSL.LOCALHOST\\Ubuntu\\home\\bob\\src", "cd ~\\src"),
    ("error: \\\\?\\UNC\\wsl$\\Ubuntu\\home\\bob\\Cargo.toml", "error: ~\\Cargo.toml"),
    # a line of text escaped inside JSON, as a tool call's input is read
    ('{"command": "ls\\n/home/bob/src"}', '{"command": "ls\\n~/src"}'),
    ('"cd X\\n\\\\\\\\wsl$\\\\Ubuntu\\\\home\\\\bob\\\\src"', '"cd X\\n~\\\\src"'),
    # a typographic apostrophe before a capital; not a quote closing an argument
    ("cd C:\\Users\\O’Brien\\src", "cd ~\\src"),
    ("p = 'C:\\Users\\bob'if x else '/tmp'", "p = '~'if x else '/tmp'"),
    ("copied to /home/bob's-backup/x", "copied to ~'s-backup/x"),
]


@pytest.mark.parametrize(("typed", "shown"), HOMES)
def test_every_shape_of_home_becomes_tilde(typed: str, shown: str) -> None:
    assert rewrite_homes(typed).text == shown


def test_this_machines_home_becomes_tilde_wherever_it_lies() -> None:
    found = rewrite_homes("see /srv/people/erin/notes and /srv/people/erin", "/srv/people/erin")
    assert found.text == "see ~/notes and ~"
    assert rewrite_homes("/srv/people/erinx/a", "/srv/people/erin").text == "/srv/people/erinx/a"


def test_a_name_a_home_revealed_becomes_user_where_it_stands_alone() -> None:
    found = rewrite_homes("ssh alice@build.local; chown alice /Users/alice/x; alice-tools")
    assert found.text == "ssh <user>@build.local; chown <user> ~/x; alice-tools"
    assert found.names == {"alice"}


def test_a_name_with_an_apostrophe_or_a_domain_is_rewritten_whole_and_alone() -> None:
    found = rewrite_homes("cd C:\\Users\\O'Brien\\x; O'Brien and bob@corp in /home/bob@corp")
    assert found.names == {"O'Brien", "bob", "bob@corp"}
    assert found.text == "cd ~\\x; <user> and <user> in ~"
    assert rewrite_homes("/Users/bob's folder; bob ran it").text == "~'s folder; <user> ran it"
    assert rewrite_homes("/home/bob@corp/x; ssh bob@build").text == "~/x; ssh <user>@build"


def test_an_address_a_domain_account_starts_keeps_its_domain() -> None:
    found = rewrite_homes("/home/bob@corp/x; mail bob@corp.com or bob@corp-mail.com")
    assert found.text == "~/x; mail <user>@corp.com or <user>@corp-mail.com"


def test_a_web_address_on_a_host_named_like_the_share_is_no_home() -> None:
    text = "open http://wsl.localhost/app/home/dashboard then run the dashboard tests"
    assert rewrite_homes(text).text == text


def test_names_given_by_the_caller_are_rewritten_too() -> None:
    assert rewrite_homes("pushed by frank", names=["frank"]).text == "pushed by <user>"


def test_shared_accounts_keep_their_name_and_shared_folders_stay() -> None:
    found = rewrite_homes("the runner in /home/runner/x; /Users/Shared/cache")
    assert found.text == "the runner in ~/x; /Users/Shared/cache"
    assert home_names("/home/runner/x /home/ci/y /Users/Guest/z /home/ab/c") == set()


def test_paths_that_only_contain_users_are_not_homes() -> None:
    for text in ("/opt/x/Users/bob/y", "~/Users/x", "docs/home/bob.md", "https://x.org/home/bob"):
        assert rewrite_homes(text).text == text
    # an API's route is no Git Bash home: nothing and no number becomes `<user>`
    for text in ("fetch('/v/users/123') failed; retried 123 times", 'get("/c/users/list")'):
        assert rewrite_homes(text).text == text


def test_no_user_name_a_link_or_a_capitalised_home_revealed_is_left() -> None:
    found = rewrite_homes("see file:///home/bob/x.html; ssh bob@ci; C:\\USERS\\dora\\y; dora")
    assert found.names == {"bob", "dora"}
    assert found.text == "see file://~/x.html; ssh <user>@ci; ~\\y; <user>"


def test_a_name_a_link_or_a_sentence_revealed_is_the_persons_whole_name() -> None:
    found = rewrite_homes("file:///C:/Users/John%20Smith/x.txt -- John Smith wrote it")
    assert found.names == {"John Smith"}
    assert found.text == "file:///~/x.txt -- <user> wrote it"
    found = rewrite_homes("cd /home/josé. Then josé ran ssh josé@build")
    assert found.text == "cd ~. Then <user> ran ssh <user>@build"


def test_thousands_of_names_are_rewritten_in_one_pass() -> None:
    # a transcript naming many homes: each name is not one more pass over the whole text
    text = "".join(f"/home/u{n:05d} u{n:05d}\n" for n in range(3000))
    found = rewrite_homes(text)
    assert len(found.names) == 3000
    assert found.text == "~ <user>\n" * 3000


def test_a_git_bash_home_ends_where_a_path_list_or_an_escape_goes_on() -> None:
    assert rewrite_homes("export PATH=/c/Users/bob:/usr/bin; cd /c/Users/bob").text == (
        "export PATH=~:/usr/bin; cd ~"
    )
    assert rewrite_homes('cd \\"/c/Users/bob\\" && ls').text == 'cd \\"~\\" && ls'
    assert rewrite_homes("PATH=C:\\Users\\bob;C:\\Windows").text == "PATH=~;C:\\Windows"


@given(st.text(alphabet=st.sampled_from("/Uershomab C:\\x.~-"), max_size=40))
def test_the_rewrite_never_leaves_a_person_home_and_is_stable(text: str) -> None:
    once = rewrite_homes(text).text
    assert rewrite_homes(once).text == once
    assert not home_names(once)
