"""gunicorn's settings for the site: read by itself from the working directory (the checkout, in the systemd
units and in the image), so every start gets them whatever its command line says.

Its own lines and its access lines go through the site's logging (federation/logs.py): one JSON object a line
on standard error with LOG_FORMAT=json, the default with DEBUG off. The command line still chooses the address
and the number of workers (docs/deploy.md).
"""

from __future__ import annotations

import os

from federation.logs import log_config

_debug = os.environ.get("DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}
_format = os.environ.get("LOG_FORMAT", "text" if _debug else "json")
_level = os.environ.get("LOG_LEVEL", "INFO").upper()

logconfig_dict = log_config(log_format=_format if _format in {"json", "text"} else "json", level=_level)
logconfig_dict["loggers"] = {
    "gunicorn.error": {"level": _level, "handlers": ["stderr"], "propagate": False},
    "gunicorn.access": {"level": "INFO", "handlers": ["stderr"], "propagate": False},
}
accesslog = "-"  # through the handler above, to standard error, like every other line
access_log_format = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms'
# gunicorn's control socket lives in the home folder, which the systemd units hide (ProtectHome): nothing uses it.
control_socket_disable = True
# A request may take as long as the proxy waits for it (deploy/nginx/fesa-ratings.conf, proxy_read_timeout). A
# rating officer's preview of a merge replays in the request every table the merge reaches: 30 s for a long
# career at 100,000 players (bench/README.md), where gunicorn's default of 30 s killed the worker.
timeout = 120


def child_exit(server: object, worker: object) -> None:
    """A worker that ends leaves its counters to the sum (PROMETHEUS_MULTIPROC_DIR), and its gauges out of it."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess  # noqa: PLC0415 - only with the metrics folder

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined]
