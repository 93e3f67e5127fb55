"""Upload of a FESA turnering.txt into a table; filled in separately, imported by ratings/admin/__init__.py."""
