"""Turn structure (CR 500-514): phases and steps, turn-based actions (703), drawing
(121), cleanup (514), the next turn and extra turns (500.7)."""
