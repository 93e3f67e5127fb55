"""The federation's ratings app: players, tournaments, tables, the rating history, grades.

Layers (import direction, checked by tests/test_layers.py):
engine -> models -> services/selectors -> tables/filters/forms -> views/admin/tasks.
"""
