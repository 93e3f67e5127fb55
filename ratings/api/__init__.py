"""The read-only JSON API, version 1 (``/api/v1/``): Django REST framework over ratings/selectors/.

* ``serializers``: what each answer holds, written field by field: only what the public pages show (never a
  date of birth, a staff member's name or a grade officer's decision and its reasons).
* ``views``: thin read views, paginated, filtered with ratings/web/filters.py, cacheable (ETag, Cache-Control)
  and throttled (``throttling``).
* ``urls``: the endpoints, the OpenAPI schema and its documentation page.
"""
