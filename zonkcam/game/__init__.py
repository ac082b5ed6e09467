"""The rules engine: a game is its rules and the table actions played, folded into its
state. Pure: no I/O beyond the preset tables it ships, no hardware, no screen.

    from zonkcam.game import PRESETS, Bank, Game, Keep, Players, Roll, parse_dice

    game = Game(PRESETS["chicago"], [Players(("Ann", "Bob"))])
    game.play(Roll(parse_dice([1, 5, 2, 3, 4])))
    game.state.options.keeps  # what the rules accept next: the keeps, bank, ...
    game.play(Keep((1, 5)))
    game.play(Bank())
    game.state.players[0].score  # 150
"""

from zonkcam.game.actions import (
    Action,
    Bank,
    Drunk,
    GoFor1000,
    HandedOut,
    Join,
    Keep,
    Land,
    Landing,
    Leave,
    Pass,
    Penalty,
    PenaltyKind,
    Piggyback,
    Players,
    Reroll,
    Roll,
    RuleMade,
    Undo,
    ZonkName,
    action_from_json,
    action_to_json,
)
from zonkcam.game.dice import Die, parse_dice
from zonkcam.game.errors import RulesError, TableError
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS, RuleSet, load_rules
from zonkcam.game.scoring import LegalKeep, RollScore, score_roll
from zonkcam.game.state import GameState, Options, Phase, PlayerState

__all__ = [
    "PRESETS",
    "Action",
    "Bank",
    "Die",
    "Drunk",
    "Game",
    "GameState",
    "GoFor1000",
    "HandedOut",
    "Join",
    "Keep",
    "Land",
    "Landing",
    "Leave",
    "LegalKeep",
    "Options",
    "Pass",
    "Penalty",
    "PenaltyKind",
    "Phase",
    "Piggyback",
    "PlayerState",
    "Players",
    "Reroll",
    "Roll",
    "RollScore",
    "RuleMade",
    "RuleSet",
    "RulesError",
    "TableError",
    "Undo",
    "ZonkName",
    "action_from_json",
    "action_to_json",
    "load_rules",
    "parse_dice",
    "score_roll",
]
