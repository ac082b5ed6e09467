import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    pass
