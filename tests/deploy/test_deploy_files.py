"""docs/deploy.md, the files of deploy/ and compose.yaml agree with each other and with the site.

The deploy check (deploy/check_deploy.py, run by CI) runs the page's commands; these fast tests catch what
would make it stop applying to the page: a replacement that no longer matches any line, a unit or a command the
page names that does not exist, a writable folder the worker needs that a unit does not give it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
import yaml
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = (ROOT / "docs" / "deploy.md").read_text()
UNITS = ROOT / "deploy" / "systemd"


def load_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_deploy", ROOT / "deploy" / "check_deploy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("check_deploy", module)
    spec.loader.exec_module(module)
    return module


CHECK = load_check()
BLOCKS = CHECK.doc_blocks(DOC)


def test_the_page_has_every_block_the_check_runs() -> None:
    assert {"root", "install", "env", "first-start", "backup", "restore", "update"} <= set(BLOCKS)


def test_every_replacement_of_the_check_still_matches_the_page_or_a_unit(tmp_path: Path) -> None:
    """A replacement that matches nothing would let the check run somewhere other than it means to."""
    places = CHECK.Places(work=tmp_path, database_url="postgres://x@h/db", redis="redis://h", port=1, venv=tmp_path)
    texts = [DOC, *(unit.read_text() for unit in UNITS.iterdir())]
    for old, _ in CHECK.replacements(places):
        assert any(old in text for text in texts), f"{old!r} is in neither docs/deploy.md nor a unit"


def test_every_command_the_page_runs_through_fesa_manage_exists() -> None:
    named = set(re.findall(r"fesa-manage (\w+)", DOC))
    assert {"compile_translations", "migrate", "rewrite_derived_files", "rerate", "createsuperuser"} <= named
    assert named <= set(get_commands())


def test_every_unit_the_page_starts_exists() -> None:
    named = {
        word.removesuffix(".service")
        for lines in BLOCKS.values()
        for line in lines
        if line.startswith("systemctl ")
        for word in line.split()
        if word.startswith("fesa-")
    }
    assert named == {"fesa-web", "fesa-worker", "fesa-beat", "fesa-backup", "fesa-backup.timer"}
    for name in named:
        assert (UNITS / (name if "." in name else f"{name}.service")).exists(), name


def unit(name: str) -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    for line in (UNITS / name).read_text().splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.startswith("#"):
            values.setdefault(key, []).append(value)
    return values


def test_the_worker_can_write_the_downloads_under_protect_system_strict() -> None:
    """ProtectSystem=strict makes everything read-only but the unit's StateDirectory (/var/lib/NAME)."""
    worker = unit("fesa-worker.service")
    assert worker["ProtectSystem"] == ["strict"]
    state = "/var/lib/" + worker["StateDirectory"][0]
    downloads = re.search(r"^# DOWNLOADS_DIR=(\S+)$", (ROOT / "deploy" / "env.example").read_text(), re.MULTILINE)
    assert downloads is not None and downloads.group(1).startswith(state + "/")
    assert "DOWNLOADS_DIR` | where the worker writes" in DOC and downloads.group(1) in DOC


def test_worker_and_beat_start_after_the_web_units_migrations() -> None:
    web = unit("fesa-web.service")
    assert any("manage.py migrate" in pre for pre in web["ExecStartPre"])
    for name in ("fesa-worker.service", "fesa-beat.service"):
        assert "fesa-web.service" in unit(name)["After"][0].split(), name


def gunicorn_config() -> dict[str, object]:
    """The settings gunicorn reads from gunicorn.conf.py (the file is Python, run as gunicorn runs it)."""
    config: dict[str, object] = {}
    exec(compile((ROOT / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), config)
    return config


def test_gunicorn_runs_without_a_control_socket_in_the_hidden_home() -> None:
    """ProtectHome hides the home folder where gunicorn would put its control socket (an error at each start)."""
    config = gunicorn_config()
    assert config["control_socket_disable"] is True
    handlers = config["logconfig_dict"]["loggers"]  # type: ignore[index]
    assert set(handlers) == {"gunicorn.error", "gunicorn.access"}


def test_a_web_worker_is_given_as_long_as_the_proxy_waits() -> None:
    """A merge's preview of a long career took 30 s at 100,000 players, and gunicorn's default timeout of 30 s
    killed the worker in the middle of it (an error page for the officer) while the proxy would have waited."""
    config = gunicorn_config()
    proxy = re.findall(r"proxy_read_timeout (\d+)s;", (ROOT / "deploy" / "nginx" / "fesa-ratings.conf").read_text())
    assert proxy, "no proxy_read_timeout found: the pattern no longer matches the proxy's file"
    assert [config.get("timeout")] == [int(seconds) for seconds in proxy]


def test_compose_backs_up_nightly_and_passes_the_password_unescaped() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert "pg_dump" in "".join(services["backup"]["entrypoint"])
    assert "./backups:/backups" in services["backup"]["volumes"]
    web_env = services["web"]["environment"]
    assert "${" not in web_env["DATABASE_URL"] and "POSTGRES_PASSWORD" in web_env["DATABASE_PASSWORD"]
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert "backups" in ignored and "downloads" in ignored


@pytest.mark.parametrize("path", ["deploy/fesa-manage", "deploy/nginx/fesa-ratings.conf", "gunicorn.conf.py"])
def test_every_file_the_page_names_exists(path: str) -> None:
    assert path in DOC or path.rsplit("/", 1)[-1] in DOC
    assert (ROOT / path).exists()


def test_compose_limits_its_logs_and_keeps_the_dumps_private() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    for name, service in compose["services"].items():
        options = service.get("logging", {}).get("options", {})
        assert options.get("max-size") and options.get("max-file"), f"{name}: json-file logs without a limit"
    assert "umask 077" in "".join(compose["services"]["backup"]["entrypoint"])


def test_the_code_states_its_licence_in_the_file_pyproject_and_readme() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "Apache-2.0" and project["license-files"] == ["LICENSE"]
    assert "Apache License\n                           Version 2.0" in (ROOT / "LICENSE").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "## Licence" in readme and "Apache License 2.0 ([LICENSE](LICENSE))" in readme


def test_every_setting_the_site_reads_from_the_environment_is_documented() -> None:
    """A setting nobody knows of is one nobody chooses (the data's licence was one)."""
    settings_text = (ROOT / "federation" / "settings.py").read_text()
    read = set(re.findall(r'env_(?:str|bool|int|list|url)\(\s*"([A-Z_0-9]+)"', settings_text))
    read |= set(re.findall(r'os\.environ(?:\.get)?[\[(]"([A-Z_0-9]+)"', settings_text))
    documented = set(re.findall(r"`([A-Z][A-Z_0-9]+)`", DOC))
    assert read, "no variable found: the pattern no longer matches settings.py"
    assert sorted(read - documented) == []


def test_the_web_unit_starts_quietly_and_adds_up_its_workers_metrics() -> None:
    """The migrate text of ExecStartPre broke `journalctl -o cat | jq .`; a metrics folder set by a local edit of
    the unit was undone by the update's copy, and the counters jumped between workers."""
    web = unit("fesa-web.service")
    (migrate,) = [pre for pre in web["ExecStartPre"] if "manage.py migrate" in pre]
    assert "--verbosity 0" in migrate
    (runtime,) = web["RuntimeDirectory"]
    assert f"PROMETHEUS_MULTIPROC_DIR=/run/{runtime}" in web["Environment"]
    config = gunicorn_config()
    assert callable(config["child_exit"])


def sh_lines() -> list[str]:
    """Every command line of the page's shell blocks, run by the check or not."""
    blocks = re.findall(r"^```sh[^\n]*\n(.*?)^```", DOC, re.MULTILINE | re.DOTALL)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_every_database_command_of_the_page_runs_as_postgres() -> None:
    """The scratch restore's second command lacked it: as root, pg_restore finds no role named root."""
    for line in sh_lines():
        words = line.split()
        for command in ("pg_restore", "pg_dump", "createdb", "dropdb", "createuser"):
            if command in words:
                assert "runuser -u postgres --" in line, line


def test_the_pre_update_dump_replaces_neither_the_nightly_one_nor_another_update_of_the_day() -> None:
    (dump,) = [line for line in BLOCKS["update"] if "pg_dump" in line]
    assert "before-update-$(date +%F-%H%M%S)" in dump
    assert "fesa-$(date +%%F).dump" in (UNITS / "fesa-backup.service").read_text()
    assert not any("systemctl start fesa-backup" in line for line in BLOCKS["update"])


def test_the_update_copies_the_units_and_says_which_changed_as_the_sites_user() -> None:
    update = BLOCKS["update"]
    assert "runuser -u fesa -- git diff --stat ORIG_HEAD HEAD -- deploy/systemd/" in update
    copy = update.index("cp /srv/fesa-ratings/deploy/systemd/fesa-* /etc/systemd/system/")
    assert update.index("systemctl daemon-reload") > copy
    assert update.index("systemctl start fesa-web fesa-worker fesa-beat") > copy
    assert all(line.startswith("runuser -u fesa -- ") for line in update if " git " in f" {line} ")


def test_the_certificate_comes_before_the_sites_nginx_configuration() -> None:
    """A site linked before its certificate exists fails `nginx -t`."""
    lines = sh_lines()
    certbot = next(n for n, line in enumerate(lines) if line.startswith("certbot certonly"))
    linked = next(n for n, line in enumerate(lines) if line.startswith("ln -s /etc/nginx/sites-available/"))
    checked = next(n for n, line in enumerate(lines) if line.startswith("nginx -t"))
    assert certbot < linked < checked


def test_the_page_names_the_supported_releases_and_the_daily_tasks_zone() -> None:
    assert "Debian 12" in DOC and "Ubuntu 24.04" in DOC and "Python 3.11" in DOC
    assert "`TIME_ZONE`" in DOC and "06:00 in `TIME_ZONE`" in DOC
