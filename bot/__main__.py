"""python -m bot [COMMAND]: run the bot, or one of the offline tools."""

from __future__ import annotations

import argparse
import importlib
import sys

from bot.cli import COMMANDS, GROUPS


def _command_list() -> str:
    width = max(len(name) for name in COMMANDS) + 2
    lines = []
    for title, commands in GROUPS:
        lines.append(f"{title}:")
        lines.extend(f"  {name:<{width}}{help_text}" for name, (_, help_text) in commands.items())
        lines.append("")
    return "\n".join(lines).rstrip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Discord bot (no COMMAND, or run), or one of the offline tools.",
        epilog=f"{_command_list()}\n\n'python -m bot COMMAND --help' tells more about one.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", help="one of the commands below (default: run)"
    )
    modules = {}
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        modules[name] = module
        # No help=: the grouped list in the epilog replaces argparse's flat one.
        module.add_arguments(sub.add_parser(name, description=help_text))
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["run", *(argv or [])])
    result: int = modules[args.command].run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
