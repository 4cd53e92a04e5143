"""Slash-command cogs: one per game or feature, each a thin layer over tables/ and rules/."""
