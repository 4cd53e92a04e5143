"""Presentation: embeds and images. State in, picture out; no side effects."""
