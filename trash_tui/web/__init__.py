"""The web face of ``trash serve``: the app in a browser, at the same tables as SSH."""
