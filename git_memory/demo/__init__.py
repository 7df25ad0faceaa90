"""`git memory demo`: the main job on bundled sample sessions, in a throw-away setup."""
