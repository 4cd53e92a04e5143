"""The web companion: public pages, health and metrics (bot/web/server.py)."""
