"""The `fantan` command line (contract: ../shared/spec/cli.md).

Each sub-command lives in its own module under `fantan/commands/` with two functions:
`add_parser(subparsers)` and `run(args) -> int`. This file only dispatches, so that
`fantan check` never imports the camera stack and `fantan serve` never imports torch.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# sub-command name -> module under fantan.commands
COMMANDS = {
    "check": "check",
    "settle": "settle",
    "simulate": "simulate",
    "detect": "detect",
    "watch": "watch",
    "serve": "serve",
    "dataset": "dataset",
    "train": "train",
    "bank": "bank",
}


def _load(name: str):
    try:
        return importlib.import_module(f"fantan.commands.{COMMANDS[name]}")
    except ModuleNotFoundError as exc:  # a command whose module is not there yet
        if exc.name == f"fantan.commands.{COMMANDS[name]}":
            return None
        raise


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fantan", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        if only is not None and name != only:
            # Register a cheap placeholder so `fantan --help` lists it without importing it.
            sub.add_parser(name, add_help=False)
            continue
        module = _load(name)
        if module is not None:
            module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    first = argv[0] if argv and argv[0] in COMMANDS else None
    parser = build_parser(only=first)
    args = parser.parse_args(argv)
    if not getattr(args, "command", None) or not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
