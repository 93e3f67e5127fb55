"""The demo federation: one deterministic model of a federation's players, tournaments and games.

The model is pure Python (``people``, ``world``, ``play``, ``sim``, ``names``): the same parameters give the same
federation in any process. It comes out in two forms:

- ``history.engine_history``: the engine's input (opening states and tables), no database — for the engine
  benchmark and for checking the database form against the engine;
- ``build.demo_build``: rows in the database, rated by the site's own re-rating service — for
  ``manage.py seed_demo``, the re-rating benchmark and the page-load benchmark.

This package's ``__init__`` imports nothing, so that the pure modules can be used without Django.
"""
