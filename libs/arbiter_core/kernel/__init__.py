"""The kernel: the state, events and commands, `evolve` and `decide` as dispatchers over
registries, the transaction, randomness, hashing and the shell loop. It knows no rule:
every rule package registers what it adds here (registry.py), and nothing under this
package imports a rule package (an import-linter contract)."""
