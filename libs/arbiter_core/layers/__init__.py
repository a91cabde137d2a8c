"""Continuous effects (CR 611-616): characteristics through the layers (613), control
(613.1b), replacement and redirection (614), and copies (707)."""
