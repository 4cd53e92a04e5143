"""Simulation and fitting machinery shared by the command line (``bot/cli``) and the tests:
the soak of the table service, board-game bot matches, and the board evaluation's fit."""
