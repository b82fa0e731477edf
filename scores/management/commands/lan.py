"""Serve the app to the phones on the same Wi-Fi for a card night at home: ``make lan``.

Production settings on the local network: DEBUG off, a secret key generated once and kept in a git-ignored
local file, the allowed hosts set to this machine's LAN addresses, WhiteNoise's compressed static files,
HTML compressed by the app, gunicorn on every interface, and the task worker when the project has one. Plain HTTP: the HTTPS-only
switches are off (see README, "A card night at home").
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import get_commands
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.utils import get_random_secret_key

from ...engine import qr

WORKER_COMMAND = "db_worker"  # django-tasks-db's worker; started when installed (imports run as tasks).


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other phones can reach, the outgoing route's first."""
    found: list[str] = []
    # A UDP "connection" sends nothing; it only asks the system which address the route would use.
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return list(dict.fromkeys(address for address in found if not address.startswith("127.")))


def secret_key(path: Path) -> str:
    """The key in ``path``, made the first time: sessions survive a restart, and it is never in the repository."""
    if path.exists():
        key = path.read_text().strip()
        if len(key) >= 50:
            return key
    key = get_random_secret_key()
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key


def serving_env(addresses: list[str], key: str) -> dict[str, str]:
    """The settings the app is served with on the LAN, as the environment it reads them from."""
    return {
        "DEBUG": "false",
        "SECRET_KEY": key,
        "ALLOWED_HOSTS": ",".join([*addresses, "localhost", "127.0.0.1"]),
        # Plain HTTP on a home network: no HTTPS redirect, cookies not limited to HTTPS, no HSTS.
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "SECURE_HSTS_SECONDS": "0",
        "COMPRESS_HTML": "true",  # No proxy in front to compress the pages (DEPLOY.md).
    }


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1024 <= port <= 65535:
        raise CommandError(f"--port {text!r}: give a number from 1024 to 65535")
    return port


class Command(BaseCommand):
    help = "Serve Pitch League to the phones on this Wi-Fi (production settings, plain HTTP) and print its address as a QR code."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", default="8000", help="the port to serve on (default 8000)")
        parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (default 2)")
        parser.add_argument("--secret-file", default=str(Path(settings.BASE_DIR) / ".lan-secret-key"), help="where the secret key is kept")
        parser.add_argument("--check", action="store_true", help="print the address, QR code and settings, start nothing")

    def handle(self, *args, port: str, workers: int, secret_file: str, check: bool, **options) -> None:
        number = port_number(port)
        addresses = lan_addresses()
        if not addresses:
            raise CommandError("No network address found: is this machine on the Wi-Fi?")
        env = {**os.environ, **serving_env(addresses, secret_key(Path(secret_file)))}
        url = f"http://{addresses[0]}:{number}/"
        self.stdout.write(f"Pitch League for the phones on this Wi-Fi: {url}")
        for other in addresses[1:]:
            self.stdout.write(f"  also http://{other}:{number}/")
        self.stdout.write(qr.terminal(url))
        self.stdout.write(f"Allowed hosts: {env['ALLOWED_HOSTS']}. Secret key kept in {secret_file}. Ctrl-C stops it.")
        has_worker = WORKER_COMMAND in get_commands()
        self.stdout.write(f"Task worker: {'manage.py ' + WORKER_COMMAND if has_worker else 'none in this project'}.")
        if check:
            return
        manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
        subprocess.run([*manage, "migrate", "--noinput"], env=env, check=True)
        subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True)  # WhiteNoise, compressed.
        worker = subprocess.Popen([*manage, WORKER_COMMAND], env=env) if has_worker else None
        server = [sys.executable, "-m", "gunicorn", "pitchleague.wsgi", "--bind", f"0.0.0.0:{number}", "--workers", str(workers)]
        try:
            subprocess.run(server, env=env, check=False, cwd=settings.BASE_DIR)
        except KeyboardInterrupt:
            pass
        finally:
            if worker is not None:
                worker.terminate()
                worker.wait()
