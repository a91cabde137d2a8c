"""Operating Arbiter: the local cluster (launcher, Tansu), the bench, profiling, and the
deployment files (compose, Kubernetes, their configs) and their offline checks. The
services' runtime (`arbiter_services`) and the gateway import nothing from here
(tests/structure/test_layers.py)."""
