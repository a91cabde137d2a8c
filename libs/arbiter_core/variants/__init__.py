"""Game variants (CR 800-811, 900-904) as behaviour: a base `Variant` with hooks, and one
subclass per variant."""
