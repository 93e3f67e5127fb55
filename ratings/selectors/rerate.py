"""Whether a re-rate is still waiting: the admin's messages say "re-rated" or "will be re-rated" by it."""

from __future__ import annotations

from ratings.models import PendingRerate


def rerate_is_pending() -> bool:
    """True while a request is recorded that no run has done yet (queued for a worker, or a run that failed)."""
    return PendingRerate.objects.exists()
