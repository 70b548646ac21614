"""Play over SSH: ``trash serve`` (an asyncssh server, one app process per session).

``config`` reads the server's TOML file, ``auth`` holds the host key, the allow-list and
the password file, ``limits`` counts sessions and connection rates, ``connlog`` writes the
connection log, ``child`` runs one session's app on its own pseudo-terminal, and
``server`` ties them together (``start_server``). ``session`` is the child's entry point
(``python -m trash_tui.ssh.session``).
"""
