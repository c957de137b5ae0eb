"""Supply: what the game's rounds consume, bounded against what setup left in play."""
