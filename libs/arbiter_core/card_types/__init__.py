"""Card types with rules of their own (CR 300-315): planeswalkers and loyalty (306, 606)."""
