"""The federation's ratings app: players, tournaments, tables, the rating history, grades.

Its packages, from the bottom layer up, and the direction imports may go are in docs/architecture.md;
import-linter checks that direction (its contracts in pyproject.toml, run by ``make check``).
"""
