"""The play mat and calibration: mat geometry (TOML), the printable mat, and finding
the mat in a camera image."""
