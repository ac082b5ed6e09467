"""The table: from camera frames to settled throws and keeps. ``observe`` watches the
frames, ``changes`` says what changed in the picture, ``reading`` reads the dice there,
``zones`` places them on the mat, ``tracking`` votes the reads and compares settled
states."""
