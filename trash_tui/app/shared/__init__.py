"""The shared-table client (over SSH): the link to the server's table service, the Tables
screen, a table's waiting room and its board."""
