"""The Textual app: screens and widgets on top of the engine."""
