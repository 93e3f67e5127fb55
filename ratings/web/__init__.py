"""The public site: views by area, its URLs, forms, filters, tables, charts, feeds and HTTP caching."""
