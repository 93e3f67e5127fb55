"""Forgetting a cache's own keys, and only those.

Django's ``clear()`` of a Redis cache is FLUSHDB: everything in the database goes, whoever wrote it. With the
page cache in the broker's database (against docs/deploy.md) that erased Celery's queue and beat's lock. This
deletes only the keys Django made for that cache (``KEY_PREFIX:VERSION:key``), by SCAN, in batches.
"""

from __future__ import annotations

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

BATCH = 500


def cache_forget(alias: str) -> None:
    """Delete every key of the cache ``alias``; other caches and other programs' keys in its Redis stay."""
    cache = caches[alias]
    if not isinstance(cache, RedisCache):
        cache.clear()  # in this process's memory (or a dummy): nothing else lives there
        return
    client = cache._cache.get_client(None, write=True)
    pattern = cache.key_prefix.replace("\\", "\\\\").replace("*", "\\*").replace("?", "\\?") + ":*"
    batch: list[bytes] = []
    for key in client.scan_iter(match=pattern, count=BATCH):
        batch.append(key)
        if len(batch) >= BATCH:
            client.unlink(*batch)
            batch.clear()
    if batch:
        client.unlink(*batch)
