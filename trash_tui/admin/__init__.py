"""The operator's side of ``trash serve``: the admin console (a Unix socket in the server's
data folder and the ``trash admin`` command), bans and mutes kept in the history database,
players' reports, Prometheus metrics and online backups of the history database."""
