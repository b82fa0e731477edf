"""`make lan`: the command that serves the app to the phones on the same Wi-Fi."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scores.management.commands import lan


def run(*args: str) -> str:
    out = StringIO()
    call_command("lan", *args, stdout=out)
    return out.getvalue()


def test_it_prints_the_address_and_a_qr_code_and_starts_nothing_when_checking(tmp_path, monkeypatch):
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    output = run("--check", "--port", "8123", "--secret-file", str(tmp_path / "key"))
    assert "http://192.168.1.20:8123/" in output and "also http://10.0.0.5:8123/" in output
    assert "▀" in output or "▄" in output or "█" in output  # The QR code, drawn in the terminal.
    assert "Allowed hosts: 192.168.1.20,10.0.0.5,localhost,127.0.0.1." in output


def test_the_secret_key_is_made_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["192.168.1.20"])
    path = tmp_path / "key"
    run("--check", "--secret-file", str(path))
    first = path.read_text()
    run("--check", "--secret-file", str(path))
    assert path.read_text() == first and len(first.strip()) >= 50
    assert path.stat().st_mode & 0o077 == 0  # Readable by its owner only.


@pytest.mark.parametrize("port", ["abc", "80", "70000"])
def test_a_bad_port_is_refused_with_a_clear_message(tmp_path, port):
    with pytest.raises(CommandError, match=rf"--port '{port}': give a number from 1024 to 65535"):
        run("--check", "--port", port, "--secret-file", str(tmp_path / "key"))
    assert not (tmp_path / "key").exists()  # Nothing was written.


def test_without_a_network_address_it_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(lan, "lan_addresses", lambda: [])
    with pytest.raises(CommandError, match="No network address found"):
        run("--check", "--secret-file", str(tmp_path / "key"))
