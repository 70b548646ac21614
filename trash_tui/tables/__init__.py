"""The SSH server's shared tables: the table service, its tables and its wire protocol."""
