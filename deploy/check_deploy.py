"""The systemd install of docs/deploy.md, run as written, without systemd; then the checks a volunteer would make.

The commands are not copied here: this reads docs/deploy.md, takes its ``sh deploy:STEP`` blocks and runs them
with bash, so the page and this test cannot drift apart. Only the places change, by the literal replacements of
``REPLACEMENTS`` (a scratch folder for /srv, /etc, /var; this machine's PostgreSQL database and Redis databases;
a free port). ``systemctl`` lines are done by hand from the unit files of deploy/systemd (their
``EnvironmentFile``, ``WorkingDirectory``, ``ExecStartPre`` and ``ExecStart``), so the units are run as well.
The root block (packages, system user, database role) is the machine's business and is not run: this creates
the folders and an empty database itself.

Then it checks: French visitors get French pages; the health endpoints answer by address, with no ERROR logged;
every log line of every unit is JSON, ``ExecStartPre``'s output included (kept in the unit's log, as journald
keeps it); the worker writes the downloads after a re-rate; /metrics adds up the web workers' counters (the unit's
``RuntimeDirectory`` and ``Environment``, made and removed as systemd does); a subscription's confirmation goes
through an SMTP server started here (aiosmtpd) with a link on ``SITE_URL``; nginx in front (deploy/nginx, when
nginx is installed) passes HTTPS, X-Forwarded-For and compression; a backup and a restore (after a change made
since the dump) leave ``rerate --check`` clean and the downloads true to the restored data; a restore onto a new
machine (an empty database, no env file, no downloads: only the saved env file and the dump) brings the site and
the mailed link back; a new secret key keeps the mailed link working; the update block, run twice on one day,
keeps a dump of each run; compose.yaml's client-address rule reads the client behind its gateway.

    python deploy/check_deploy.py        # CI: .ci/run, with a time limit

Environment: DEPLOY_CHECK_DATABASE_URL (a database it may drop and create; default
postgres://postgres@127.0.0.1:5432/fesa_deploy_check), DEPLOY_CHECK_REDIS (default redis://127.0.0.1:6379, whose
databases 12 and 13 it empties), DEPLOY_CHECK_VENV (an existing virtual environment to link instead of making
one, so no network is needed; default: this checkout's .venv when there is one).
"""

from __future__ import annotations

import gzip
import html
import itertools
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import yaml
from aiosmtpd.controller import Controller

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "deploy.md"
HOST = "ratings.example.org"
BLOCK = re.compile(r"^```sh deploy:([\w-]+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
SITE_UNITS = ("fesa-web", "fesa-worker", "fesa-beat")
STARTED = time.monotonic()
STEPS = ("root", "install", "env", "first-start", "backup", "restore", "restore-new", "new-key", "update")


def doc_blocks(text: str) -> dict[str, list[str]]:
    """The ``sh deploy:STEP`` blocks of the page, by step, as lists of command lines."""
    blocks: dict[str, list[str]] = {}
    for step, body in BLOCK.findall(text):
        if step in blocks:
            raise SystemExit(f"docs/deploy.md: two blocks named deploy:{step}")
        blocks[step] = [line for line in body.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return blocks


@dataclass
class Places:
    work: Path
    database_url: str
    redis: str
    port: int
    venv: Path | None

    @property
    def site(self) -> Path:
        return self.work / "srv" / "fesa-ratings"

    @property
    def env_file(self) -> Path:
        return self.work / "etc" / "fesa-ratings.env"

    @property
    def origin(self) -> Path:
        """The repository the guide clones and later pulls from: this checkout's HEAD as its branch ``main``."""
        return self.work / "origin.git"

    @property
    def backups(self) -> Path:
        return self.work / "backups"

    @property
    def state(self) -> Path:
        return self.work / "state"


def replacements(places: Places) -> list[tuple[str, str]]:
    """What changes between the page's server and this machine: literal replacements, in this order."""
    dump = "fesa-$(date +%F).dump"
    out = [
        ("https://github.com/your-federation/fesa-ratings.git", str(places.origin)),
        ("/srv/fesa-ratings", str(places.site)),
        ("/etc/fesa-ratings.env", str(places.env_file)),
        ("/var/backups/fesa-ratings", str(places.backups)),
        ("/var/lib/fesa-ratings", str(places.state)),
        ("runuser -u fesa -- ", ""),  # this runs as one user: the site's
        ("runuser -u postgres -- ", ""),
        ("install -m 640 -o root -g fesa ", "install -m 640 "),
        ("install -m 600 -o postgres -g postgres ", "install -m 600 "),
        ("/root/restore", str(places.work / "restore")),
        ("/run/fesa-metrics", str(places.work / "run" / "fesa-metrics")),
        ("--role=fesa ", ""),
        ("--dbname=fesa ", f"--dbname={shlex.quote(places.database_url)} "),
        ("fesa-2026-11-23.dump", dump),
        ("127.0.0.1:8000", f"127.0.0.1:{places.port}"),
    ]
    if places.venv is not None:
        out.append(("python3 -m venv .venv", f"ln -s {shlex.quote(str(places.venv))} .venv"))
    return out


def origin_make(places: Places) -> None:
    """The guide's repository: a bare one holding this checkout's HEAD as ``main``, so that the clone is on a
    branch that ``git pull`` can follow, as a clone of the federation's repository is, however this checkout
    stands (a CI run's checkout may be a detached commit, which a clone would copy)."""
    git = ["git", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "--quiet", "--bare", str(places.origin)], check=True)
    subprocess.run(["git", "-C", str(REPO), "push", "--quiet", str(places.origin), "HEAD:refs/heads/main"], check=True)


def localise(line: str, places: Places) -> str:
    for old, new in replacements(places):
        line = line.replace(old, new)
    return line


# --- The units, run by hand --------------------------------------------------------------------------------------


@dataclass
class Unit:
    name: str
    environment_file: str | None = None
    working_directory: str | None = None
    exec_start_pre: list[str] = field(default_factory=list)
    exec_start: str = ""
    environment: dict[str, str] = field(default_factory=dict)
    runtime_directory: str | None = None


def unit_read(path: Path) -> Unit:
    unit = Unit(name=path.stem)
    for raw in path.read_text().splitlines():
        key, _, value = raw.partition("=")
        if key == "EnvironmentFile":
            unit.environment_file = value
        elif key == "WorkingDirectory":
            unit.working_directory = value
        elif key == "ExecStartPre":
            unit.exec_start_pre.append(value)
        elif key == "ExecStart":
            unit.exec_start = value
        elif key == "Environment":
            name, _, setting = value.partition("=")
            unit.environment[name] = setting
        elif key == "RuntimeDirectory":
            unit.runtime_directory = value
    return unit


def env_file_read(path: Path) -> dict[str, str]:
    """KEY=value lines as systemd's EnvironmentFile reads them (and deploy/fesa-manage does)."""
    out = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith(("#", ";")):
            continue
        key, _, value = line.partition("=")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        out[key.strip()] = value
    return out


class Site:
    """The processes of the units, started and stopped as systemctl would."""

    def __init__(self, places: Places) -> None:
        self.places = places
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        self.logs = places.work / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)

    def unit(self, name: str) -> Unit:
        return unit_read(self.places.site / "deploy" / "systemd" / f"{name.removesuffix('.service')}.service")

    def _env(self, unit: Unit) -> dict[str, str]:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        if unit.environment_file:
            env.update(env_file_read(Path(localise(unit.environment_file, self.places))))
        env.update({key: localise(value, self.places) for key, value in unit.environment.items()})
        return env

    def _runtime_directory(self, unit: Unit) -> Path | None:
        return self.places.work / "run" / unit.runtime_directory if unit.runtime_directory else None

    def _argv(self, command: str) -> list[str]:
        # systemd's "%%" is a "%"; the rest of the line is split as systemd does, which shlex matches here.
        return shlex.split(localise(command, self.places).replace("%%", "%"))

    def start(self, name: str) -> None:
        name = name.removesuffix(".service")
        if name.endswith(".timer") or name in self.running:
            return
        unit = self.unit(name)
        cwd = localise(unit.working_directory or "/", self.places)
        env = self._env(unit)
        runtime = self._runtime_directory(unit)
        if runtime is not None:  # systemd makes it afresh at each start, and removes it at each stop
            shutil.rmtree(runtime, ignore_errors=True)
            runtime.mkdir(parents=True)
        log_path = self.logs / f"{name}.log"
        for pre in unit.exec_start_pre:
            # journald keeps ExecStartPre's output in the unit's log, with the main process's lines.
            with log_path.open("ab") as log:
                step = subprocess.run(self._argv(pre), cwd=cwd, env=env, stdout=log, stderr=log, timeout=600)
            if step.returncode:
                raise SystemExit(f"{name}: ExecStartPre failed:\n{log_path.read_text(errors='replace')[-3000:]}")
        if name == "fesa-backup":  # a oneshot unit: runs to its end
            done = subprocess.run(self._argv(unit.exec_start), cwd=cwd, env=env, capture_output=True, text=True)
            if done.returncode:
                raise SystemExit(f"fesa-backup failed:\n{done.stdout}{done.stderr}")
            return
        log = log_path.open("ab")
        self.running[name] = subprocess.Popen(
            self._argv(unit.exec_start), cwd=cwd, env=env, stdout=log, stderr=log, start_new_session=True
        )

    def stop(self, name: str) -> None:
        name = name.removesuffix(".service")
        process = self.running.pop(name, None)
        if process is None:
            return
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        runtime = self._runtime_directory(self.unit(name))
        if runtime is not None:
            shutil.rmtree(runtime, ignore_errors=True)

    def stop_all(self) -> None:
        for name in list(self.running):
            self.stop(name)

    def systemctl(self, line: str) -> None:
        words = shlex.split(line)[1:]
        action, names = words[0], [w for w in words[1:] if not w.startswith("-")]
        if action in {"daemon-reload", "reload"} or not any(n.startswith("fesa-") for n in names):
            return  # systemd's own business, or the distribution's services (Redis, nginx)
        if action in {"stop", "restart"}:
            for name in names:
                self.stop(name)
        if action in {"start", "restart"} or (action == "enable" and "--now" in words):
            for name in names:
                self.start(name)

    def log_lines(self, name: str) -> list[str]:
        return (self.logs / f"{name}.log").read_text(errors="replace").splitlines()


def run_block(step: str, lines: list[str], site: Site, cwd: Path) -> Path:
    """Run a block's lines with bash, systemctl lines by hand; returns the folder the block ended in."""
    places = site.places
    env = {
        **os.environ,
        "FESA_SITE_DIR": str(places.site),
        "FESA_ENV_FILE": str(places.env_file),
        "FESA_USER": subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout.strip(),
    }
    for variable in ("DJANGO_SETTINGS_MODULE", "DEBUG", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "VIRTUAL_ENV"):
        env.pop(variable, None)  # only the env file speaks
    pending: list[str] = []

    def flush() -> None:
        nonlocal cwd
        if not pending:
            return
        where = places.work / ".cwd"
        script = "set -euo pipefail\n" + "\n".join(pending) + f'\npwd > "{where}"\n'
        print(f"[{step}] {time.monotonic() - STARTED:.0f} s\n  " + "\n  ".join(pending), flush=True)
        done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode:
            raise SystemExit(f"deploy:{step} failed (status {done.returncode}):\n{done.stdout}\n{done.stderr}")
        cwd = Path(where.read_text().strip())
        pending.clear()

    for raw in lines:
        line = localise(raw, places)
        if line.startswith("systemctl "):
            flush()
            print(f"[{step}] {time.monotonic() - STARTED:.0f} s {line}", flush=True)
            site.systemctl(line)
        elif "/etc/systemd/system" in line:
            continue  # the units are read from the checkout
        else:
            pending.append(line)
    flush()
    return cwd


# --- Checks -------------------------------------------------------------------------------------------------------


def http(
    url: str, *, headers: dict[str, str] | None = None, context: ssl.SSLContext | None = None
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30, context=context) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def wait_for(what: str, probe, seconds: float = 120.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while True:
        try:
            result = probe()
        except (OSError, ValueError):
            result = None
        if result:
            return result
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what}")
        time.sleep(1)


def french_words(site_dir: Path, english_page: str) -> dict[str, str]:
    """Texts of the English page that the French catalogue translates: msgid -> msgstr."""
    po = (site_dir / "locale" / "fr" / "LC_MESSAGES" / "django.po").read_text()
    pairs = re.findall(r'^msgid "(.+)"\nmsgstr "(.+)"$', po, re.MULTILINE)
    return {en: fr for en, fr in pairs if en != fr and len(en) >= 6 and "%" not in en and f">{en}<" in english_page}


def manage(site: Site, *args: str) -> str:
    places = site.places
    env = {**os.environ, "FESA_SITE_DIR": str(places.site), "FESA_ENV_FILE": str(places.env_file)}
    env["FESA_USER"] = subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout.strip()
    for variable in ("DJANGO_SETTINGS_MODULE", "DEBUG", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "VIRTUAL_ENV"):
        env.pop(variable, None)
    done = subprocess.run(
        [str(places.site / "deploy" / "fesa-manage"), *args], env=env, capture_output=True, text=True, timeout=600
    )
    if done.returncode:
        raise SystemExit(f"fesa-manage {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


SHOW_HISTORY = """
import gzip, json
from django.core.files.storage import storages
from ratings.selectors.history_dump import history_tables
stored = json.loads(gzip.decompress(storages["derived"].open("rating-history.json.gz").read()))
print(json.dumps({"stored": stored["tables"], "now": list(history_tables())}, default=str))
"""


def downloads_true(site: Site) -> dict[str, object]:
    """The stored history download beside the history the database gives now; they must be the same."""
    found = json.loads(manage(site, "shell", "-c", SHOW_HISTORY).strip().splitlines()[-1])
    now = json.loads(json.dumps(found["now"]))
    if found["stored"] != now:
        raise SystemExit("the history download differs from the database's history")
    return found


ROOT_WARNING = ("SecurityWarning: You're running the worker with superuser privileges", "_warn_or_raise_security_error")
# Celery writes this to the console itself, not through logging, when the worker is stopped.
CELERY_CONSOLE = re.compile(r"^(worker: (Warm|Cold) shutdown \(MainProcess\))?$")


def json_log_lines(site: Site, name: str) -> list[dict[str, object]]:
    lines = site.log_lines(name)
    while os.geteuid() == 0 and any(ROOT_WARNING[0] in line for line in lines):
        # Celery's warning, printed as text, when the check itself runs as root (CI); the units run as fesa.
        start = next(n for n, line in enumerate(lines) if ROOT_WARNING[0] in line)
        end = next(n for n, line in enumerate(lines) if ROOT_WARNING[1] in line)
        lines = lines[:start] + lines[end + 1 :]
    lines = [line for line in lines if not CELERY_CONSOLE.match(line)]
    entries = []
    for line in lines:
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            raise SystemExit(f"{name}: a log line that is not JSON: {line[:200]}") from None
    return entries


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_recreate(url: str) -> None:
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    for sql in (f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'):
        subprocess.run(["psql", admin, "-q", "-c", sql], check=True, capture_output=True, timeout=120)


def nginx_start(places: Places, site: Site) -> tuple[int, subprocess.Popen[bytes]] | None:
    """deploy/nginx/fesa-ratings.conf in front of the site, with a certificate made here; None without nginx."""
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        print("nginx is not installed: the proxy example is not run", flush=True)
        return None
    folder = places.work / "nginx"
    folder.mkdir()
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={HOST}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    http_port, https_port = free_port(), free_port()
    server = (places.site / "deploy" / "nginx" / "fesa-ratings.conf").read_text()
    for old, new in (
        ("127.0.0.1:8000", f"127.0.0.1:{places.port}"),
        (f"/etc/letsencrypt/live/{HOST}/fullchain.pem", str(cert)),
        (f"/etc/letsencrypt/live/{HOST}/privkey.pem", str(key)),
        ("listen 443 ", f"listen 127.0.0.1:{https_port} "),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
    ):
        server = server.replace(old, new)
    server = "\n".join(line for line in server.splitlines() if "listen [::]" not in line)
    (folder / "nginx.conf").write_text(
        f"daemon off;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nevents {{}}\n"
        f"http {{\naccess_log {folder}/access.log;\nclient_body_temp_path {folder};\nproxy_temp_path {folder};\n"
        f"default_type application/octet-stream;\n{server}\n}}\n"
    )
    process = subprocess.Popen([nginx, "-c", str(folder / "nginx.conf")], stderr=subprocess.PIPE)
    return https_port, process


def main() -> None:
    started = STARTED
    default_venv = REPO / ".venv"
    venv_env = os.environ.get("DEPLOY_CHECK_VENV") or (str(default_venv.resolve()) if default_venv.exists() else "")
    places = Places(
        work=Path(tempfile.mkdtemp(prefix="fesa-deploy-check-")),
        database_url=os.environ.get(
            "DEPLOY_CHECK_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/fesa_deploy_check"
        ),
        redis=os.environ.get("DEPLOY_CHECK_REDIS", "redis://127.0.0.1:6379").rstrip("/"),
        port=free_port(),
        venv=Path(venv_env) if venv_env else None,
    )
    print(f"deploy check in {places.work}", flush=True)
    origin_make(places)
    blocks = doc_blocks(DOC.read_text())
    for step in STEPS:
        if step not in blocks:
            raise SystemExit(f"docs/deploy.md has no deploy:{step} block")
    site = Site(places)
    proxy = None
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    try:
        # What the root block does to the machine, here: the folders, an empty database, empty Redis databases.
        places.site.mkdir(parents=True)
        places.env_file.parent.mkdir(parents=True)
        places.backups.mkdir()
        places.state.mkdir()
        database_recreate(places.database_url)
        for db in (12, 13):
            subprocess.run(["redis-cli", "-u", f"{places.redis}/{db}", "FLUSHDB"], check=True, capture_output=True)

        cwd = run_block("install", blocks["install"], site, places.work)
        cwd = run_block("env", blocks["env"], site, cwd)
        env_file_fill(places, smtp_port=smtp.port)
        cwd = run_block("first-start", blocks["first-start"], site, cwd)

        base = f"http://127.0.0.1:{places.port}"
        wait_for("the site", lambda: http(f"{base}/health/live")[0] == 200)
        manage(site, "seed_demo", "--players", "40", "--years", "2", "--seed", "7")
        request_rerate(site)
        downloads = places.state / "downloads" / "rating-history.json.gz"
        wait_for("the worker to write the downloads", downloads.exists, 180)
        wait_for("/health/ready", lambda: http(f"{base}/health/ready")[0] == 200, 120)
        check_health_by_address(base)
        check_french(places, base)
        downloads_true(site)
        check_metrics_add_up(base)
        link = check_mail(site, inbox)
        check_link(base, link, "the confirmation link, as mailed")
        proxy = nginx_start(places, site)
        if proxy is not None:
            check_proxy(proxy[0], site)

        # A backup, a change after it, a restore: the change is gone from the database and from the downloads.
        run_block("backup", blocks["backup"], site, cwd)
        erased = erase_a_player(site)
        wait_for("the downloads without the erased name", lambda: erased not in _history_text(places), 120)
        run_block("restore", blocks["restore"], site, cwd)
        if erased not in _history_text(places):
            raise SystemExit("after the restore the downloads still lack the restored player's name")
        downloads_true(site)
        wait_for("/health/ready after the restore", lambda: http(f"{base}/health/ready")[0] == 200, 120)

        # A new machine: nothing but the code (steps 1 and 2), the saved env file and the dump.
        new_machine(site)
        cwd = run_block("restore-new", blocks["restore-new"], site, cwd)
        wait_for("/health/ready on the new machine", lambda: http(f"{base}/health/ready")[0] == 200, 180)
        if erased not in _history_text(places):
            raise SystemExit("on the new machine the downloads lack the restored player's name")
        downloads_true(site)
        check_link(base, link, "the confirmation link mailed before, on the new machine")

        old_key = env_file_read(places.env_file)["SECRET_KEY"]
        cwd = run_block("new-key", blocks["new-key"], site, cwd)
        keys = env_file_read(places.env_file)
        if keys["SECRET_KEY"] == old_key or keys["SECRET_KEY_FALLBACKS"].split(",")[0] != old_key:
            raise SystemExit("deploy:new-key did not put a new key in place and the old one first among the fallbacks")
        wait_for("/health/ready after the new key", lambda: http(f"{base}/health/ready")[0] == 200, 120)
        check_link(base, link, "the confirmation link signed with the old key, after the new key")

        for _ in range(2):  # twice on one day: each run keeps a dump of its own
            cwd = run_block("update", blocks["update"], site, cwd)
            wait_for("/health/ready after the update", lambda: http(f"{base}/health/ready")[0] == 200, 120)
            time.sleep(1.1)  # the dumps are named to the second
        check_update_dumps(places)
        check_french(places, base)
        check_compose_client_address(site)
        check_logs(site)
    finally:
        site.stop_all()
        smtp.stop()
        if proxy is not None:
            proxy[1].terminate()
            proxy[1].wait(timeout=30)
    shutil.rmtree(places.work, ignore_errors=True)
    print(f"deploy check passed in {time.monotonic() - started:.0f} s", flush=True)


def env_file_fill(places: Places, *, smtp_port: int) -> None:
    """Fill in the copied env.example as step 3 says: the required values, e-mail through the SMTP server started
    here, the systemd lines uncommented."""
    values = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "CSRF_TRUSTED_ORIGINS": f"https://{HOST}",
        "SITE_URL": f"https://{HOST}",
        "DATA_LICENCE_NAME": "CC0 1.0",
        "DATA_LICENCE_URL": "https://creativecommons.org/publicdomain/zero/1.0/",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "EMAIL_USE_TLS": "0",
        "DEFAULT_FROM_EMAIL": f"FESA ratings <ratings@{HOST}>",
        "METRICS_TOKEN": METRICS_TOKEN,
        "DATABASE_URL": places.database_url,
        "REDIS_URL": f"{places.redis}/12",
        "PAGE_CACHE_URL": f"{places.redis}/13",
        "DOWNLOADS_DIR": str(places.state / "downloads"),
    }
    lines, seen = [], set()
    for line in places.env_file.read_text().splitlines():
        key = line.lstrip("# ").partition("=")[0]
        if key in values and "=" in line:
            lines.append(f"{key}={values[key]}")
            seen.add(key)
        else:
            lines.append(line)
    missing = set(values) - seen
    if missing:
        raise SystemExit(f"deploy/env.example has no line for {sorted(missing)}, which docs/deploy.md says to fill in")
    places.env_file.write_text("\n".join(lines) + "\n")


REQUEST_RERATE = """
from django.db import transaction
from ratings.models import Table
from ratings.services.rerate import rerate_request
table = Table.objects.filter(status="rated").order_by("date", "sequence").first()
with transaction.atomic():
    rerate_request(date=table.date, sequence=table.sequence, table_ids=[table.pk])
"""

ERASE = """
from ratings.models import Player
from ratings.services.privacy import player_erase
from django.db import transaction
player = Player.objects.filter(entries__table__status="rated").order_by("pk").first()
name = f"{player.family_name} {player.given_name}"  # as the downloads write it; a family name alone may be shared
with transaction.atomic():
    player_erase(player=player, user=None)
print(name)
"""


def request_rerate(site: Site) -> None:
    """A change that needs a re-rate, as the admin makes one: the worker re-rates and writes the downloads."""
    manage(site, "shell", "-c", REQUEST_RERATE)


def erase_a_player(site: Site) -> str:
    return manage(site, "shell", "-c", ERASE).strip().splitlines()[-1]


def _history_text(places: Places) -> str:
    return gzip.decompress((places.state / "downloads" / "rating-history.csv.gz").read_bytes()).decode()


def check_health_by_address(base: str) -> None:
    for path in ("/health/live", "/health/ready"):
        status, _, body = http(base + path)
        if status != 200:
            raise SystemExit(f"{path} by address answered {status}: {body[:300]!r}")
    print("health endpoints answer by address", flush=True)


def check_french(places: Places, base: str) -> None:
    """The home page in English and in French: the French one holds the catalogue's words for the English."""
    headers = {"Host": HOST, "X-Forwarded-Proto": "https"}
    status, _, english = http(f"{base}/", headers={**headers, "Accept-Language": "en"})
    if status != 200:
        raise SystemExit(f"the home page answered {status}")
    status, _, french = http(f"{base}/", headers={**headers, "Accept-Language": "fr"})
    words = french_words(places.site, html.unescape(english.decode()))
    french_text = html.unescape(french.decode())
    if len(words) < 3:
        raise SystemExit(f"too few translated texts found on the English page to compare: {words}")
    missing = {en: fr for en, fr in words.items() if fr not in french_text}
    if status != 200 or 'lang="fr"' not in french_text or missing:
        raise SystemExit(f"the French page is not French (status {status}); untranslated: {missing}")
    print(f"the French page is French ({len(words)} texts compared)", flush=True)


def check_proxy(https_port: int, site: Site) -> None:
    """Through nginx: HTTPS seen by the site, compressed pages, the client's address passed and a forged one not."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    url = f"https://127.0.0.1:{https_port}/?from-proxy-check=1"
    headers = {"Host": HOST, "Accept-Encoding": "gzip", "X-Forwarded-For": "198.51.100.77"}
    status, response_headers, body = wait_for("nginx", lambda: http(url, headers=headers, context=context))
    if status != 200:
        raise SystemExit(f"through nginx the home page answered {status}")
    if response_headers.get("Content-Encoding") != "gzip" or not gzip.decompress(body):
        raise SystemExit("nginx did not compress the page")
    time.sleep(1)  # the access line is written after the response
    lines = [e for e in json_log_lines(site, "fesa-web") if "from-proxy-check" in str(e.get("message", ""))]
    if not lines or lines[-1].get("forwarded_for") != "127.0.0.1":
        raise SystemExit(
            f"nginx did not pass the client's address as X-Forwarded-For (or passed a forged one): {lines}"
        )
    print("nginx: HTTPS, compression and X-Forwarded-For as the site needs them", flush=True)


METRICS_TOKEN = secrets.token_urlsafe(32)


class Inbox:
    """The mail server's side of the check (aiosmtpd): every message the worker sent."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


SUBSCRIBE = """
from django.db import transaction
from ratings.models import Player
from ratings.services.season.subscriptions import subscription_request
player = Player.objects.filter(entries__table__status="rated").order_by("pk").first()
with transaction.atomic():
    subscription_request(player=player, email="reader@example.net", language="fr", on_tables=True, on_grades=False)
"""


def check_mail(site: Site, inbox: Inbox) -> str:
    """A subscription's confirmation goes from the worker through SMTP, from the federation's address, with a
    link on SITE_URL; returns the link."""
    manage(site, "shell", "-c", SUBSCRIBE)
    wait_for("the confirmation message at the SMTP server", lambda: inbox.messages, 120)
    (message,) = inbox.messages
    if message["To"] != "reader@example.net" or f"@{HOST}>" not in message["From"]:
        raise SystemExit(f"the confirmation went from {message['From']} to {message['To']}")
    part = message.get_payload(decode=True) if not message.is_multipart() else None
    body = part.decode(message.get_content_charset() or "utf-8") if isinstance(part, bytes) else str(message)
    found = re.search(rf"https://{re.escape(HOST)}/\S+", body)
    if found is None:
        raise SystemExit(f"no link on SITE_URL in the confirmation: {body[:500]}")
    subject = str(make_header(decode_header(message["Subject"])))
    print(f"mail: the confirmation went through the SMTP server ({subject})", flush=True)
    return found.group(0)


def check_link(base: str, link: str, what: str) -> None:
    """The page of a mailed link answers 200 (a button to press); 400 means its signature no longer holds."""
    path = urlsplit(link).path
    status, _, body = http(base + path, headers={"Host": HOST, "X-Forwarded-Proto": "https"})
    if status != 200:
        raise SystemExit(f"{what} answered {status}: {body[:300]!r}")
    print(f"{what}: works", flush=True)


def check_metrics_add_up(base: str) -> None:
    """Scraped again and again, the request counter only grows: the 4 workers' counts are added up."""
    headers = {"Host": HOST, "X-Forwarded-Proto": "https", "Authorization": f"Bearer {METRICS_TOKEN}"}
    counts = []
    for _ in range(12):
        status, _, body = http(f"{base}/metrics", headers=headers)
        if status != 200:
            raise SystemExit(f"/metrics answered {status}")
        counts.append(
            sum(
                float(line.rsplit(" ", 1)[1])
                for line in body.decode().splitlines()
                if line.startswith("django_http_requests_before_middlewares_total")
            )
        )
    if any(later <= earlier for earlier, later in itertools.pairwise(counts)):
        raise SystemExit(f"/metrics: the request counter does not grow from scrape to scrape: {counts}")
    print(f"metrics: the workers' counters add up ({counts[0]:.0f} to {counts[-1]:.0f})", flush=True)


def new_machine(site: Site) -> None:
    """What the new machine has before deploy:restore-new: steps 1 and 2 (an empty database, the code), and the
    env file and the dump copied from the backup machine into /root/restore; nothing of the old server."""
    places = site.places
    site.stop_all()
    restore = places.work / "restore"
    restore.mkdir()
    dump = places.backups / f"fesa-{time.strftime('%Y-%m-%d')}.dump"
    shutil.copy(dump, restore / dump.name)
    shutil.copy(places.env_file, restore / "fesa-ratings.env")
    places.env_file.unlink()
    for path in (places.backups, places.state):
        shutil.rmtree(path)
        path.mkdir()
    database_recreate(places.database_url)
    for db in (12, 13):
        subprocess.run(["redis-cli", "-u", f"{places.redis}/{db}", "FLUSHDB"], check=True, capture_output=True)


def check_update_dumps(places: Places) -> None:
    before_update = sorted(places.backups.glob("fesa-before-update-*.dump"))
    if len(before_update) != 2:
        raise SystemExit(f"two updates on one day left {[p.name for p in before_update]}, not two dumps")
    print("two updates on one day: two dumps of their own", flush=True)


CLIENT_ADDRESS = """
import json, os
from axes.helpers import get_client_ip_address
from django.test import RequestFactory
from federation.proxy import client_address
gateway = os.environ["COMPOSE_GATEWAY"]
request = RequestFactory().post("/admin/login/", REMOTE_ADDR=gateway, HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.7")
print(json.dumps([client_address(request), get_client_ip_address(request)]))
"""


def check_compose_client_address(site: Site) -> None:
    """compose.yaml's rule: behind a proxy on the host the site sees its network's gateway, and takes the client's
    address from the proxy's X-Forwarded-For, for the API's limit and the login throttling alike."""
    compose = yaml.safe_load((site.places.site / "compose.yaml").read_text())
    (network,) = compose["networks"]["default"]["ipam"]["config"]
    trusted = compose["services"]["web"]["environment"]["TRUSTED_PROXIES"]
    default = re.fullmatch(r"\$\{TRUSTED_PROXIES:-(.+)\}", trusted)
    if default is None:
        raise SystemExit(f"compose.yaml: TRUSTED_PROXIES {trusted!r} has no default")
    env = {**site._env(site.unit("fesa-web")), "TRUSTED_PROXIES": default.group(1)}
    env["COMPOSE_GATEWAY"] = network["gateway"]
    done = subprocess.run(
        [str(site.places.site / ".venv" / "bin" / "python"), "manage.py", "shell", "-c", CLIENT_ADDRESS],
        cwd=site.places.site, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    if done.returncode or json.loads(done.stdout.strip().splitlines()[-1]) != ["203.0.113.7", "203.0.113.7"]:
        raise SystemExit(
            f"compose: the client's address behind the gateway is not the proxy's: {done.stdout}{done.stderr}"
        )
    print("compose: the client's address is read through the gateway, one rule for the API and the logins", flush=True)


def check_logs(site: Site) -> None:
    """Every line of every process is JSON, with an offset in its time, and none is an ERROR."""
    for name in SITE_UNITS:
        for entry in json_log_lines(site, name):
            if entry.get("level") in {"ERROR", "CRITICAL"}:
                raise SystemExit(f"{name} logged an error: {entry}")
            if not re.search(r"[+-]\d\d:\d\d$", str(entry.get("time", ""))):
                raise SystemExit(f"{name}: a time without its offset: {entry}")
    print("every log line is JSON, none an ERROR", flush=True)


if __name__ == "__main__":
    try:
        main()
    except SystemExit as exc:
        if exc.code not in (None, 0):
            print(f"deploy check FAILED: {exc.code}", file=sys.stderr, flush=True)
            sys.exit(1)
        raise
