"""State-based actions (CR 704)."""
