"""Settings of the federation site, all from environment variables with safe local defaults.

Local default: a SQLite file beside the code, no broker (Celery tasks run in-process). DEBUG is off unless
``DEBUG=1`` asks for it (``make run`` and the tests do), so a forgotten variable never shows Django's debug page,
with its settings and URLs, to the internet. Production sets DATABASE_URL (postgres://...), REDIS_URL, SECRET_KEY
and ALLOWED_HOSTS; the HTTPS and proxy settings below have safe production defaults (docs/deploy.md).
Malformed values stop the start-up with a message naming the variable (federation/env.py).
"""

from __future__ import annotations

import ipaddress
import re
import zoneinfo
from pathlib import Path
from typing import Any

import dj_database_url
import sentry_sdk
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django_guid.integrations import CeleryIntegration

from .env import env_bool, env_int, env_list, env_str, env_url, secret_key_problem
from .logs import log_config

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY", "")
# The keys used before the last rotation (newest first): the links already sent by e-mail (confirm, unsubscribe)
# were signed with them and must keep working (docs/deploy.md, "A new secret key"). Empty entries are skipped, so
# the env file's line may be left empty.
SECRET_KEY_FALLBACKS = [key.strip() for key in env_str("SECRET_KEY_FALLBACKS", "").split(",") if key.strip()]
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
DATABASE_URL = env_url("DATABASE_URL", {"sqlite", "postgres", "postgresql", "pgsql"})
REDIS_URL = env_url("REDIS_URL", {"redis", "rediss", "unix"})
RERATE_LOCK_TIMEOUT = env_int("RERATE_LOCK_TIMEOUT", 5)  # then RerateBusy: the task retries later
# Where the bulk downloads (the whole rating history, ratings/services/history_files.py) are written.
DOWNLOADS_DIR = Path(env_str("DOWNLOADS_DIR", str(BASE_DIR / "downloads")))
API_ANON_RATE = env_str("API_ANON_RATE", "120/minute")
# Directors' submissions through the API (docs/api.md): requests per access token's owner, and the longest
# life of an access token.
API_SUBMIT_RATE = env_str("API_SUBMIT_RATE", "60/hour")
ACCESS_TOKEN_MAX_DAYS = env_int("ACCESS_TOKEN_MAX_DAYS", 365)
# The public pages as anonymous visitors get them (ratings/web/caching.py): in this process's memory unless
# PAGE_CACHE_URL names a Redis database shared by every web process (production: docs/deploy.md).
PAGE_CACHE = env_bool("PAGE_CACHE", True)
PAGE_CACHE_URL = env_url("PAGE_CACHE_URL", {"redis", "rediss", "unix"})
# The licence of the published data (the downloads, the files and the API say it). The federation chooses it:
# with DEBUG off, `check --deploy` warns while it is unset (federation/checks.py).
DATA_LICENCE_CHOSEN = bool(env_str("DATA_LICENCE_NAME", ""))
DATA_LICENCE_NAME = env_str("DATA_LICENCE_NAME", "") or "CC BY 4.0"
DATA_LICENCE_URL = env_str("DATA_LICENCE_URL", "") or "https://creativecommons.org/licenses/by/4.0/"
# The federation's name as the printed lists (PDF, ratings/selectors/list_pdf.py) head each page with it, and the
# TrueType font they are set in (a Latin, Greek and Cyrillic one: Debian's fonts-dejavu-core, which the
# Dockerfile and .ci/run install); without the file, the PDF falls back to Helvetica and Latin-1 names.
FEDERATION_NAME = env_str("FEDERATION_NAME", "Federation of European Shogi Associations (FESA)")
PDF_FONT = env_str("PDF_FONT", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
PDF_FONT_BOLD = env_str("PDF_FONT_BOLD", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
# /metrics answers only a request with "Authorization: Bearer <METRICS_TOKEN>"; unset, it does not exist.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# Officers' and superusers' admin logins need a code from an authenticator app (ratings/admin/second_factor.py).
SECOND_FACTOR_REQUIRED = env_bool("SECOND_FACTOR_REQUIRED", not DEBUG)
PAGE_CACHE_SECONDS = env_int("PAGE_CACHE_SECONDS", 86_400)  # a page of an old data version ages out
# The federation's season (ratings/services/season/): a tournament is registered this many days before it
# starts, plays at least one of the minimum time controls ("MINUTES+SECONDS": Fischer increment, byoyomi) and
# sends its results within this many days after its last day.
SEASON_NOTICE_DAYS = env_int("SEASON_NOTICE_DAYS", 14)
SEASON_MIN_FISCHER = env_str("SEASON_MIN_FISCHER", "30+30")
SEASON_MIN_BYOYOMI = env_str("SEASON_MIN_BYOYOMI", "20+40")
SEASON_RESULTS_DEADLINE_DAYS = env_int("SEASON_RESULTS_DEADLINE_DAYS", 14)
SEASON_REMINDER_DAYS = env_int("SEASON_REMINDER_DAYS", 3)  # directors are reminded this long before it
# E-mail (ratings/services/mail/): SMTP in production; in development (`make run`) each message is written to a
# file of EMAIL_FILE_PATH, where it can be read whole (the console mixed it with the server's log).
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.filebased.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH", str(BASE_DIR / "sent-mail"))
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "FESA ratings <ratings@localhost>")
# The site's address as people reach it, for the links in e-mail (the worker that writes them has no request):
# the first of ALLOWED_HOSTS over HTTPS unless set; http://localhost:8000 with DEBUG.
SITE_URL = env_str("SITE_URL", "") or ("http://localhost:8000" if DEBUG else f"https://{ALLOWED_HOSTS[0].lstrip('.')}")
SITE_URL = SITE_URL.rstrip("/")
if not re.fullmatch(r"https?://[^/\s]+(/\S*)?", SITE_URL):
    raise ImproperlyConfigured(f"SITE_URL={SITE_URL!r}: expected the site's address, e.g. https://ratings.example.org")
# Players' subscribers (ratings/services/season/subscriptions.py): an unconfirmed subscription expires after
# this many days, and one client address may ask this often.
SUBSCRIPTION_CONFIRM_DAYS = env_int("SUBSCRIPTION_CONFIRM_DAYS", 7)
SUBSCRIBE_RATE = env_str("SUBSCRIBE_RATE", "10/hour")
if not re.fullmatch(r"[1-9][0-9]*/(second|minute|hour|day)", SUBSCRIBE_RATE):
    raise ImproperlyConfigured(f"SUBSCRIBE_RATE={SUBSCRIBE_RATE!r}: expected a count and a period, e.g. 10/hour")
# The age categories the site publishes (ratings/engine/age_categories.py): U<age> under that age, S<age> that
# age and over, counted on the list's date from the date of birth (never published itself).
AGE_CATEGORIES = env_list("AGE_CATEGORIES", ["U12", "U16", "U20", "S50", "S65"])
# Whether the federation publishes a women's list (players a rating officer put on it, with their consent).
if not all(re.fullmatch(r"[US][1-9][0-9]?", code) for code in AGE_CATEGORIES) or len(set(AGE_CATEGORIES)) < len(
    AGE_CATEGORIES
):
    raise ImproperlyConfigured(f"AGE_CATEGORIES={AGE_CATEGORIES!r}: expected distinct U<age> or S<age>, e.g. U12,S65")
WOMENS_LIST = env_bool("WOMENS_LIST", True)
for _name in ("SEASON_MIN_FISCHER", "SEASON_MIN_BYOYOMI"):
    if not re.fullmatch(r"\d+\+\d+", globals()[_name]):
        raise ImproperlyConfigured(f"{_name} must read MINUTES+SECONDS, e.g. 30+30")

DEVELOPMENT_SECRET_KEY = "local-development-only-not-secret"  # noqa: S105 - refused with DEBUG off
if not SECRET_KEY and DEBUG:
    SECRET_KEY = DEVELOPMENT_SECRET_KEY
if not DEBUG:
    problem = secret_key_problem(SECRET_KEY, development_key=DEVELOPMENT_SECRET_KEY)
    if problem:
        raise ImproperlyConfigured(f"SECRET_KEY {problem} (DEBUG is off); docs/deploy.md shows how to make one")

INSTALLED_APPS = [
    "federation.admin.FederationAdminConfig",  # django.contrib.admin, its lists hardened (federation/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.forms",  # Django's widget templates, for FORM_RENDERER below
    "django.contrib.sitemaps",
    "corsheaders",
    "django_prometheus",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "django_tables2",
    "django_filters",
    "django_countries",
    "simple_history",
    "csp",
    "axes",
    "django_guid",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "ratings",
    "django_jinja",  # its makemessages reads the Jinja2 pages' {% trans %} blocks
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",  # first and last: the whole request is timed
    "django_guid.middleware.guid_middleware",  # every log line of the request carries its id
    "django.middleware.security.SecurityMiddleware",
    "corsheaders.middleware.CorsMiddleware",  # before WhiteNoise and CommonMiddleware, which may answer first
    # Compresses what the client accepts compressed (pages, JSON, CSV), after every middleware that writes the
    # body. Django's randomises the gzip header against BREACH; the public pages carry no CSRF token anyway.
    "django.middleware.gzip.GZipMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    # Probes by IP: answered before anything below reads the Host header (CommonMiddleware does), after the
    # middlewares that give every answer its security headers.
    "federation.middleware.health_without_host_check",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "federation.middleware.reject_hostile_query",  # 400 for NUL bytes and the like, before any view reads them
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",  # request.user.is_verified(): a code was given this session
    "ratings.admin.second_factor.require_second_factor",  # officers give one before the admin opens
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "federation.replica.replica_reads",  # anonymous page reads on DATABASE_REPLICA_URL, when it has caught up
    "axes.middleware.AxesMiddleware",  # last of the site's own, as django-axes requires
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out login before the password is checked
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "federation.urls"

TEMPLATES = [
    {
        # The public pages (templates/jinja2/): Jinja2 through django-jinja, which Django asks first. A page it does
        # not find there (the admin's, the e-mails') is Django's (below). Why two engines: bench/README.md.
        "BACKEND": "django_jinja.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "match_extension": None,  # every template of its folder, under the names the views already give
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
            ],
            # {% trans %} trims its text as Django's {% blocktranslate trimmed %}: one catalogue entry for both.
            "policies": {"ext.i18n.trimmed": True},
        },
    },
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Widgets render through the engines above, so templates/jinja2/django/forms/ may write one of Django's widgets.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

WSGI_APPLICATION = "federation.wsgi.application"

if DATABASE_URL is None and not DEBUG:
    # A shell or unit that lost the site's variables must not start on an empty SQLite file beside the code.
    raise ImproperlyConfigured(
        "DATABASE_URL must be set (DEBUG is off): postgres://user:password@host:5432/name, or sqlite:///path "
        "to use a SQLite file on purpose; run manage.py through deploy/fesa-manage to get the site's variables"
    )
DB_CONN_MAX_AGE = env_int("DB_CONN_MAX_AGE", 60)  # seconds a process keeps its database connection
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=DB_CONN_MAX_AGE,
        # A kept connection that the database or the network dropped is found out before a request uses it,
        # and replaced, instead of giving that request a 500.
        conn_health_checks=True,
    )
}
# The password as it is, so that one with @ : / # needs no URL-escaping (compose passes POSTGRES_PASSWORD here).
DATABASE_PASSWORD = env_str("DATABASE_PASSWORD", "")
DATABASE_REPLICA_URL = env_url("DATABASE_REPLICA_URL", {"postgres", "postgresql", "pgsql"})
if DATABASE_PASSWORD:
    DATABASES["default"]["PASSWORD"] = DATABASE_PASSWORD
if DATABASE_REPLICA_URL:
    # Anonymous visitors' page reads, when the replica has caught up with the primary's data version
    # (federation/replica.py); tests read the primary through it.
    DATABASES["replica"] = dj_database_url.parse(
        DATABASE_REPLICA_URL, conn_max_age=DB_CONN_MAX_AGE, conn_health_checks=True
    )
    if DATABASE_PASSWORD and not DATABASES["replica"].get("PASSWORD"):
        DATABASES["replica"]["PASSWORD"] = DATABASE_PASSWORD
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["federation.replica.ReplicaRouter"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction begins, so a re-rate that reads, then writes, is never
    # refused half-way by another writer; they wait for each other instead.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 30})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("de", "Deutsch"),
    ("nl", "Nederlands"),
    ("it", "Italiano"),
    ("es", "Español"),
    ("pl", "Polski"),
    ("ja", "日本語"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates typed ISO or day first in every language, never month first; shown ISO in en, fr and de, and in the other
# languages as Django's own formats write them (federation/formats/).
FORMAT_MODULE_PATH = ["federation.formats"]
# The federation's zone: the daily tasks (Celery beat's crontab) run at its 06:00, and pages show its dates.
TIME_ZONE = env_str("TIME_ZONE", "Europe/Paris")
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    raise ImproperlyConfigured(f"TIME_ZONE={TIME_ZONE!r}: expected a zone name such as Europe/Paris") from None
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))  # where collectstatic writes


def derived_storage_setting() -> dict[str, Any]:
    """``STORAGES["derived"]`` as the environment asks: a folder (``DOWNLOADS_DIR``), or with
    ``DOWNLOADS_STORAGE=s3`` any S3-compatible store (AWS, MinIO, Garage, a host's object storage) through
    django-storages. The keys come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, which boto3 reads itself.
    The bucket stays private: the site serves the files under its own URLs. tests/deploy/test_bucket.py checks
    it against an S3-compatible server."""
    kind = env_str("DOWNLOADS_STORAGE", "file")
    if kind == "file":
        return {"BACKEND": "federation.storage.AtomicFileSystemStorage"}
    if kind != "s3":
        raise ImproperlyConfigured(f"DOWNLOADS_STORAGE={kind!r}: expected file or s3")
    bucket = env_str("DOWNLOADS_S3_BUCKET", "")
    if not bucket:
        raise ImproperlyConfigured("DOWNLOADS_S3_BUCKET must be set with DOWNLOADS_STORAGE=s3")
    from botocore.config import Config  # noqa: PLC0415 - only a site with a bucket needs botocore loaded

    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": env_url("DOWNLOADS_S3_ENDPOINT_URL", {"http", "https"}),
            "region_name": env_str("DOWNLOADS_S3_REGION", "") or None,
            "location": env_str("DOWNLOADS_S3_PREFIX", "downloads"),
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": True,
            # A store that takes connections but does not answer holds a downloads page for seconds, not the
            # minute boto3 waits by default; the page then says the files cannot be reached just now.
            "client_config": Config(connect_timeout=5, read_timeout=15, retries={"max_attempts": 2}),
        },
    }


STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
    # The derived files (the rating history downloads), rebuilt from the database: federation/storage.py.
    "derived": derived_storage_setting(),
}


LOGIN_URL = "admin:login"
# The only login is the admin's: where it sends a user whose "next" it refused (another site), not Django's
# default /accounts/profile/, which this site does not have.
LOGIN_REDIRECT_URL = "admin:index"

DJANGO_TABLES2_TEMPLATE = "django_tables2/semantic.html"
DJANGO_TABLES2_TABLE_ATTRS = {"class": "data"}

# Celery: with REDIS_URL a worker does the work; without it tasks run in-process, on commit,
# through the same code (federation/celery.py).
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies is delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # the worker and beat log as LOGGING says: JSON lines like the web's
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# A broker that is down must not hold up the edit that queues a task: give up on it within about a second
# (the pending re-rate mark is already committed; the beat or the worker's start picks it up).
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_BEAT_SCHEDULE = {
    "rerate-pending": {"task": "ratings.tasks.task_rerate_pending", "schedule": 60.0},
    "season-daily": {"task": "ratings.tasks.task_season_daily", "schedule": crontab(hour=6, minute=0)},
    # Today's rating lists kept current: after midnight (the active list's two-year window moved) and after an edit
    # that changed the public data without a re-rate (a name, a club), within a minute rather than on a first view.
    # A minute with nothing changed reads the data version and finds the lists there.
    "lists-current": {"task": "ratings.tasks.task_lists_prepare", "schedule": 60.0, "options": {"expires": 60.0}},
    # How well the rating systems predict (ratings/services/predictions.py): after a worker's re-rates too;
    # nightly for a site whose re-rates run in-process.
    "predictions-nightly": {"task": "ratings.tasks.task_predictions_compare", "schedule": crontab(hour=3, minute=30)},
    "worker-heartbeat": {"task": "federation.worker_heartbeat", "schedule": 30.0, "options": {"expires": 30.0}},
}
# A worker waits this long after the last edit of a burst before it re-rates, so one run serves them all.
RERATE_QUIET_SECONDS = env_int("RERATE_QUIET_SECONDS", 1)


# --- The read-only JSON API (ratings/api/, docs/api.md) ---------------------------------------------------------
# Throttling counts requests in a cache: with Redis, one count shared by every web process; without it, each
# process counts its own (a development site has one).
CACHES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # A Redis that is down or unreachable must cost a request little: the throttle then counts in the process.
    "api-throttle": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "api-throttle"},
    # The key of a stored page holds the data version, so a change of the data is shown at once, never stale.
    "pages": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    if not PAGE_CACHE
    # KEY_PREFIX: its keys are told apart from anything else in that database (federation/cache.py).
    else {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": PAGE_CACHE_URL, "KEY_PREFIX": "pages"}
    if PAGE_CACHE_URL
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "pages",
        "OPTIONS": {"MAX_ENTRIES": 300},
    },
}
CACHES["pages"]["TIMEOUT"] = PAGE_CACHE_SECONDS
for _rate_name, _rate in (("API_ANON_RATE", API_ANON_RATE), ("API_SUBMIT_RATE", API_SUBMIT_RATE)):
    if not re.fullmatch(r"[1-9][0-9]*/(second|minute|hour|day)", _rate):
        raise ImproperlyConfigured(f"{_rate_name}={_rate!r}: expected a count and a period, e.g. 120/minute")
if not 1 <= ACCESS_TOKEN_MAX_DAYS <= 3660:
    raise ImproperlyConfigured(f"ACCESS_TOKEN_MAX_DAYS={ACCESS_TOKEN_MAX_DAYS}: expected 1 to 3660 days")
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [],
    "DEFAULT_AUTHENTICATION_CLASSES": [],  # public data only: no session, so no CSRF and no login through it
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": ["ratings.api.throttling.ApiAnonThrottle"],
    "DEFAULT_THROTTLE_RATES": {"api-anon": API_ANON_RATE, "api-submit": API_SUBMIT_RATE},
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "ratings.api.pagination.ApiPagination",
    "EXCEPTION_HANDLER": "ratings.api.errors.exception_handler",  # one error shape (docs/api.md)
    "UNAUTHENTICATED_USER": None,
}
OTP_TOTP_ISSUER = "FESA ratings"  # the name the authenticator app shows beside the code

# Other sites' pages (a club's web app) may read the read-only data: the API, the feeds, the downloads and the
# files, from any origin, without cookies (django-cors-headers). Everything else keeps the same-origin rule.
CORS_ALLOW_ALL_ORIGINS = True
CORS_URLS_REGEX = (
    r"^/(api/v1/|feeds/|downloads/|files/|export\.(csv|json|xlsx|excel\.csv)$"
    r"|lists/official/[^/]+/(all\.txt|list\.csv|list\.json)$)"
)
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_EXPOSE_HEADERS = ("ETag", "Last-Modified", "Retry-After", "Content-Disposition")


def _rate_words(rate: str) -> str:
    """A throttle rate as the API's description says it: "120/minute" as "120 requests a minute"."""
    count, _slash, period = rate.partition("/")
    return f"{count} requests {'an' if period.startswith('h') else 'a'} {period}"


SPECTACULAR_SETTINGS = {
    "TITLE": "FESA ratings API",
    "DESCRIPTION": "Read-only data of the federation's rating site: players, rating lists, tournaments, tables "
    f"and promotions. Anonymous clients may make {_rate_words(API_ANON_RATE)}; past that the answer "
    f"is 429 with a Retry-After header. The data are published under {DATA_LICENCE_NAME} ({DATA_LICENCE_URL}). "
    "A tournament director sends his tables (preview, then submit) with a personal access token created in the "
    f"admin, {_rate_words(API_SUBMIT_RATE)} per director.",
    "LICENSE": {"name": DATA_LICENCE_NAME, "url": DATA_LICENCE_URL},
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",  # the assets ship in drf-spectacular-sidecar: served from this site
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},  # no badge fetched from elsewhere
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "ratings.api.schema.add_error_responses",
    ],
}


# --- HTTPS, cookies and the proxy (docs/deploy.md) -------------------------------------------------------------
# Production defaults are the safe ones; each can be turned off for a site that terminates TLS elsewhere.
ADMIN_URL = env_str("ADMIN_URL", "admin/").strip("/") + "/"
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
# Behind a reverse proxy that terminates TLS, the proxy says which scheme the client used. Trust the
# header only where such a proxy sets it (and strips a client's own), as in the documented layout.
TRUST_X_FORWARDED_PROTO = env_bool("TRUST_X_FORWARDED_PROTO", not DEBUG)
# The addresses (or networks) of the reverse proxies whose X-Forwarded-For the site believes (federation/proxy.py):
# the documented proxy runs on the same machine. One rule for every use of the client's address: the API's and the
# subscription form's limits, the access log and the login throttling (django-axes, through its callable).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", ["127.0.0.1", "::1"])
AXES_CLIENT_IP_CALLABLE = "federation.proxy.client_address"
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("LOGIN_COOLOFF_MINUTES", 30) / 60  # hours, as django-axes counts them
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOG_FORMAT = env_str("LOG_FORMAT", "text" if DEBUG else "json")
SENTRY_DSN = env_str("SENTRY_DSN", "")
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r}: expected json or text")

for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_proxy!r} is not an address or a network") from None
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_HTTPONLY = True
if TRUST_X_FORWARDED_PROTO:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Load balancers and monitors probe over plain HTTP inside the network: answer them instead of redirecting.
SECURE_REDIRECT_EXEMPT = [r"^health/"]
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Every page is served from this site alone, with no inline script or style (tests/test_security.py loads
# the pages in a browser and fails on any violation).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# The site uses none of these browser features; deny them to anything it might embed.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}

# --- Login throttling (django-axes) ---------------------------------------------------------------------------
# A username tried from one address is locked out after LOGIN_FAILURE_LIMIT failures for LOGIN_COOLOFF_MINUTES;
# a good login clears the count. The lockout answers 429 and is logged.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# --- Logs and error reports -----------------------------------------------------------------------------------
# Everything goes to stderr, one JSON object a line in production (LOG_FORMAT=json), each with the request's id
# (the X-Request-ID header when a proxy sends one, else a new one; it is also sent back in the response).
# An incoming id that is not a UUID is replaced, so a client cannot write into the logs through the header; the
# Celery integration carries the id into the re-rate task the request queued.
DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-ID",
    "RETURN_HEADER": True,
    "INTEGRATIONS": [CeleryIntegration(use_django_logging=True, log_parent=True)],
}
LOGGING = log_config(log_format=LOG_FORMAT, level=LOG_LEVEL)
LOGGING["loggers"].update(
    {
        "django": {"level": LOG_LEVEL, "propagate": True},
        "django.db.backends": {"level": "INFO", "propagate": True},  # never the SQL of every query
        # Their start-up and per-request INFO lines say nothing a site's operator needs.
        "axes": {"level": "WARNING", "propagate": True},
        "django_guid": {"level": "WARNING", "propagate": True},
    }
)

if SENTRY_DSN:
    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        send_default_pii=False,  # players' and officers' data stay on the site
    )
