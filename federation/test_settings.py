"""Test settings: the real settings, made fast and deterministic."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

# The tests run the development configuration; tests/test_deploy.py starts production ones in processes of their own.
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("LOG_FORMAT", "text")  # a test worker's log is read by people and by the tests ("ready.")
# Bulk downloads written by the tests' re-rates go to a folder of this process, never into the checkout. A
# pytest-xdist worker inherits the environment of the controller, which set one up too: the folder is marked
# with the worker it is for, so each worker makes its own, and what a worker starts (a Celery worker) shares it.
if "DOWNLOADS_DIR" not in os.environ or os.environ.get("TEST_DOWNLOADS_WORKER") not in (
    None,
    os.environ.get("PYTEST_XDIST_WORKER", ""),
):
    os.environ["DOWNLOADS_DIR"] = tempfile.mkdtemp(prefix="fesa-test-downloads-")
    os.environ["TEST_DOWNLOADS_WORKER"] = os.environ.get("PYTEST_XDIST_WORKER", "")
    atexit.register(shutil.rmtree, os.environ["DOWNLOADS_DIR"], ignore_errors=True)

# A process the tests start (a Celery worker) runs on the tests' clock from the moment they give (tests/conftest.py
# fixes the suite's "today"), so that times written by one process mean the same to the other.
if os.environ.get("TESTS_CLOCK"):
    import datetime as _dt

    import time_machine

    time_machine.travel(_dt.datetime.fromisoformat(os.environ["TESTS_CLOCK"]), tick=True).start()

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,  # noqa: F405 - the derived files as the environment configures them
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Stored pages live in each test process, whatever the environment says: tests/conftest.py empties them. Only
# the site instances a test starts on one shared cache (tests/deploy/test_two_instances.py) keep the cache
# PAGE_CACHE_URL gives, as production does.
if not os.environ.get("TESTS_SHARED_PAGE_CACHE"):
    CACHES["pages"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "test-pages"}  # noqa: F405

# Tests run without collectstatic: let WhiteNoise look files up as they are requested instead of warning.
WHITENOISE_AUTOREFRESH = True
# django-jinja tells the test client what a Jinja2 page was given (response.context), as Django's engine does.
TEMPLATES[0]["OPTIONS"]["debug"] = True  # type: ignore[index]  # noqa: F405
