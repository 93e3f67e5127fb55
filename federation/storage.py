"""Where the derived files live (the rating history downloads and whatever else is rebuilt from the database):
Django's storage ``derived`` (``storages["derived"]``), configured in settings.py.

By default a folder, ``DOWNLOADS_DIR``, that the worker writes and the web process reads: one machine, or
several sharing the folder. With ``DOWNLOADS_STORAGE=s3`` an S3-compatible bucket through django-storages, so
web processes and workers on several machines share the files without a shared filesystem (docs/deploy.md).
Either way a file is replaced whole: a reader gets the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.base import File
from django.core.files.storage import FileSystemStorage


class AtomicFileSystemStorage(FileSystemStorage):
    """A folder whose files are replaced whole: written under a temporary name beside the old file, then renamed
    over it. Its folder is ``DOWNLOADS_DIR`` unless given, read at each use (a test may change the setting)."""

    def __init__(self, location: str | os.PathLike[str] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("allow_overwrite", True)
        kwargs.setdefault("file_permissions_mode", 0o644)  # public downloads, whatever the umask
        super().__init__(location=location, **kwargs)

    _location: str | os.PathLike[str] | None  # what the constructor was given (Django's FileSystemStorage keeps it)

    @property
    def base_location(self) -> str:
        return str(self._location or settings.DOWNLOADS_DIR)

    @property
    def location(self) -> str:
        return os.path.abspath(self.base_location)

    def _save(self, name: str, content: File) -> str:
        target = Path(self.path(name))
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                content.seek(0)
                for chunk in content.chunks():
                    out.write(chunk)
            os.chmod(temporary, self.file_permissions_mode or 0o644)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return name
