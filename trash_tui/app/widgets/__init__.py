"""Widgets the app's screens share."""
