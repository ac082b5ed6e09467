"""The game record: the crash-safe event log (``store``, its layout in ``schema``), a game
bound to it (``logged_game``), each roll's photo beside it (``photos``), a game's times
read through clock jumps (``clock``), who writes which game (``claims``), files written
into a folder the user named (``outfolder``) and the win tables on disk (``win_tables``)."""
