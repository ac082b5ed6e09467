"""zonkcam: a camera reads physical dice and keeps score for Zonk (Farkle / 10,000)."""

__version__ = "0.1.0"
