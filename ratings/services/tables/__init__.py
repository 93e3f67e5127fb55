"""Tables: saving and checking them, submitting, the crosstable grid, replacing a player, settling."""
