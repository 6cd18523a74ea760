"""``mancala-marl serve``: play and watch the games in a browser, with the engines' view beside
the board, through a JSON API (docs/api.md). The page and its assets (``static/``) are package
data: plain HTML, CSS and JavaScript, nothing fetched from elsewhere, nothing to build.

- :mod:`.games`: the live games (no HTTP), :mod:`.policies`: what a request may play,
  :mod:`.trace`: a move replayed step by step and named, :mod:`.analysis`: the engines' view,
  :mod:`.app`: the Starlette app, :mod:`.command`: the subcommand.

Needs the ``[serve]`` extra (Starlette, uvicorn); importing this package does not.
"""
