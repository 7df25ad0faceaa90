"""How the common development servers say, in their own output, that they are up: one row per
server and line, each with the line it prints (the servers' documented start-up lines).

A server does not end: an agent starts it in the background or stops waiting for it, so its
exit status is never seen (`extract/builtin/observed.py`). What it printed by then is: a
server that says it is listening has started (`npm run dev`, `uvicorn app:app`), one that
printed no such line, or an error, stays unknown. The rows are read only for a command whose
kind is `run` (it starts the application), and none is a line a build prints too (webpack's
"compiled successfully" is both).
"""

from __future__ import annotations

from git_memory.command_line.report_rows import Report, W, row

RUN = "run"

SERVER_REPORTS: tuple[Report, ...] = (
    row(
        "vite",
        W,
        RUN,
        hint="ready in",
        pattern=r"\bVITE v\d\S*[ \t]+ready in \d",
        example="  VITE v5.4.2  ready in 312 ms",
    ),
    row(
        "next",
        W,
        RUN,
        hint="eady",
        pattern=r"^[ \t]*(?:✓ )?Ready in \d|^ready - started server on\b",
        example=" ✓ Ready in 2.1s",
    ),
    row(
        "astro, nuxt, vite and others",
        W,
        RUN,
        hint="Local:",
        pattern=r"^[ \t]*(?:[➜>-][ \t]+)?Local:[ \t]+https?://",
        example="  ➜  Local:   http://localhost:5173/",
    ),
    row(
        "uvicorn",
        W,
        RUN,
        hint="Uvicorn running on",
        pattern=r"\bUvicorn running on https?://",
        example="INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)",
    ),
    row(
        "django",
        W,
        RUN,
        hint="Starting development server at",
        pattern=r"^Starting development server at https?://",
        example="Starting development server at http://127.0.0.1:8000/",
    ),
    row(
        "flask",
        W,
        RUN,
        hint="Running on",
        pattern=r"^[ \t]*\* Running on https?://",
        example=" * Running on http://127.0.0.1:5000",
    ),
    row(
        "puma (rails)",
        W,
        RUN,
        hint="Listening on",
        pattern=r"^[ \t]*\* Listening on (?:https?|tcp)://",
        example="* Listening on http://127.0.0.1:3000",
    ),
    row(
        "angular",
        W,
        RUN,
        hint="Development Server is listening",
        pattern=r"Development Server is listening on\b",
        example="** Angular Live Development Server is listening on localhost:4200 **",
    ),
    row(
        "hugo, mkdocs",
        W,
        RUN,
        hint="erv",
        pattern=r"^[ \t]*Web Server is available at https?://|\bServing on https?://",
        example="INFO    -  [12:00:01] Serving on http://127.0.0.1:8000/",
    ),
    row(
        "an application's own start-up line (Express, Laravel, Fastify, …)",
        W,
        RUN,
        hint="istening",
        pattern=r"\b[Ll]istening (?:on|at) (?:port \d+|\[?https?://)",
        example="Server listening on port 3000",
    ),
    row(
        "an application's own start-up line (Express, Laravel, Fastify, …)",
        W,
        RUN,
        hint="unning",
        pattern=r"\b[Ss]erver (?:is )?running (?:on|at) \[?(?:https?://|port \d+)",
        example="   INFO  Server running on [http://127.0.0.1:8000].",
    ),
)
