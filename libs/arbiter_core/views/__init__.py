"""What a seat may see (CR 400.2, 800.4i) and what a player may do now (legal actions)."""
