"""Sequences: a Discord bot for sequence games at the table."""
