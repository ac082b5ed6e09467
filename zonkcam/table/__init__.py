"""The table: camera sources, the demo table, settled-roll detection and zones."""
