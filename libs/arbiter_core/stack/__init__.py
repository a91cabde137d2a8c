"""The stack and priority (CR 117, 405, 601-608): priority, casting spells and activating
abilities, mana and costs, targets (115), resolving (608) and triggered abilities (603)."""
