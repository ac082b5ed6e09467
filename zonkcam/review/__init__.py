"""The night in review: what the game log says about the dice and the games."""
