"""Combat (CR 506-511): declaring attackers and blockers, combat damage, banding
(702.22) and the requirements and restrictions on a whole declaration (508.1c-d)."""
