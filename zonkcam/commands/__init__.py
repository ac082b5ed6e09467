"""One module per `zonkcam` sub-command; each exposes ``register(subparsers)``."""
