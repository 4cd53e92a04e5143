"""``python -m bot [subcommand]``: run the bot, or one of the offline tools."""

from __future__ import annotations

import argparse
import importlib
import sys

from bot.cli import COMMANDS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = {}
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        modules[name] = module
        module.add_arguments(sub.add_parser(name, help=help_text, description=help_text))
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["run", *(argv or [])])
    result: int = modules[args.command].run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
