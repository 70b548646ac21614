"""The web face's configuration and operation: the ``[web]`` table (located one-line
errors, ``--check``), ``trash serve --web``, a reload's live values, TLS (https, wss and a
Secure cookie) and trusted proxies' ``X-Forwarded-For``."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
import sys
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest
from click.testing import CliRunner
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from serve_process import Serve, write_config
from ssh_helpers import eventually
from web_helpers import browser, web_serving

from trash_tui.cli.main import cli
from trash_tui.ssh.config import ServeError, WebConfig, load_server_config
from trash_tui.web.front import COOKIE

SLEEPER = (sys.executable, "-c", "import time; time.sleep(30)")


def config_with_web(folder: Path, web: str, **server: str) -> Path:
    path = write_config(folder, **server)
    path.write_text(path.read_text() + "\n[web]\n" + web, encoding="utf-8")
    return path


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, and its key (PEM files)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.SubjectAlternativeName([
                       x509.DNSName("localhost"),
                       x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
                   .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def test_the_web_table_is_read_with_its_defaults(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    path = config_with_web(tmp_path, 'port = 8080\nhost = "0.0.0.0"\n'
                           'public_url = "https://games.example.org/"\n'
                           'tls_certificate = "cert.pem"\ntls_key = "key.pem"\n'
                           'trusted_proxies = ["10.0.0.0/8", "::1"]\n')
    web = load_server_config(path).web
    assert web == WebConfig(8080, "0.0.0.0", "https://games.example.org", cert, key,
                            (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("::1")))
    assert web.tls
    assert load_server_config(write_config(tmp_path)).web == WebConfig()  # no web face
    assert load_server_config(write_config(tmp_path), web_port=0).web.port == 0  # --web


@pytest.mark.parametrize(("lines", "wanted"), [
    ("port = 70000\n", ":12: web.port: expected a port number from 0 to 65535"),
    ("port = 8080\ntls_certificate = \"cert.pem\"\n",
     ":13: web.tls_certificate: needs tls_key too (both or neither)"),
    ("port = 8080\ncolour = 1\n", ":13: web.colour: unknown key; known keys are host"),
    ("trusted_proxies = [\"proxy.example.org\"]\n",
     ":12: web.trusted_proxies: expected an address or network such as \"10.0.0.0/8\", got "
     "'proxy.example.org'"),
    ("public_url = \"games.example.org\"\n",
     ":12: web.public_url: expected the page's address such as \"https://games.example.org\""),
    ("public_url = \"https://games.example.org/trash?x=<b>\"\n", ":12: web.public_url: "),
    ("tls_certificate = \"none.pem\"\ntls_key = \"none.pem\"\n",
     ":12: web.tls_certificate: "),
])
def test_a_wrong_web_value_is_one_located_line(tmp_path: Path, lines: str, wanted: str
                                               ) -> None:
    (tmp_path / "cert.pem").write_text("x")
    path = config_with_web(tmp_path, lines)
    with pytest.raises(ServeError) as problem:
        load_server_config(path)
    assert wanted in str(problem.value) and "\n" not in str(problem.value)
    assert str(problem.value).startswith(str(path))
    result = CliRunner().invoke(cli, ["serve", "--config", str(path), "--check"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert any(wanted in line for line in result.output.splitlines()), result.output


def test_check_names_the_web_face_and_its_busy_port(tmp_path: Path) -> None:
    path = config_with_web(tmp_path, 'port = 0\npublic_url = "https://games.example.org"\n')
    result = CliRunner().invoke(cli, ["serve", "--config", str(path), "--check"])
    assert result.exit_code == 0, result.output
    assert "the web face listens on 127.0.0.1:0, its page https://games.example.org/" in \
        result.output
    import socket
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--config", str(path), "--check",
                                          "--web", str(port)])
        assert result.exit_code == 1 and f"127.0.0.1:{port}" in result.output


def test_trash_serve_web_starts_the_page_and_stops_with_the_server(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    serve = Serve(tmp_path, ["--config", str(config), "--web", "0"])
    try:
        output = serve.wait_for("the web face at ")
        line = next(line for line in output.splitlines() if "the web face at" in line)
        port = int(line.split("listening on 127.0.0.1:")[1].split(";")[0].split(")")[0])
        assert f"http://games.example.org:{port}/" in line

        async def health() -> str:
            async with aiohttp.ClientSession() as http, \
                    http.get(f"http://127.0.0.1:{port}/health") as answer:
                return await answer.text()

        assert asyncio.run(health()) == "ok\n"
    finally:
        status = serve.stop()
    assert status == 0 and "Traceback" not in serve.output()


async def test_a_reload_changes_the_live_web_values_and_names_the_others(
        tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER) as (server, front):
        state = server.state
        old = state.config
        state.load_config = lambda: replace(old, web=replace(
            old.web, port=9999, public_url="https://games.example.org",
            trusted_proxies=(ipaddress.ip_network("10.0.0.0/8"),)))
        line = await state.reload()
        assert "web.public_url none → https://games.example.org" in line, line
        assert "web.trusted_proxies none → 10.0.0.0/8" in line, line
        assert "needs a restart (the running value stays): web.port 0 → 9999" in line, line
        assert front.url == "https://games.example.org"
        assert state.config.web.port == 0
        async with browser(front) as visitor:  # the page's origin now: the public URL's
            await visitor.get("/")
            await visitor.open(origin="https://games.example.org")
            await eventually(lambda: server.session_count == 1)


async def test_tls_serves_https_and_wss_and_a_secure_cookie(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    context = ssl.create_default_context(cafile=str(cert))
    async with web_serving(tmp_path, web={"tls_certificate": cert, "tls_key": key},
                           command=SLEEPER) as (server, front):
        assert front.url.startswith("https://")
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            base = f"https://127.0.0.1:{front.port}"
            async with http.get(base + "/", ssl=context) as answer:
                assert answer.status == 200
                text = await answer.text()
                assert f'data-session-websocket-url="wss://127.0.0.1:{front.port}/ws"' in text
                assert f"wss://127.0.0.1:{front.port}" in \
                    answer.headers["Content-Security-Policy"]
                assert "Secure" in answer.headers["Set-Cookie"]
            [cookie] = [c for c in http.cookie_jar if c.key == COOKIE]
            assert cookie["secure"]
            socket = await http.ws_connect(f"wss://127.0.0.1:{front.port}/ws?width=80&"
                                           "height=24", origin=base, ssl=context)
            await eventually(lambda: server.session_count == 1)
            [session] = server.sessions
            assert session.way == "web"
            await socket.close()
        with pytest.raises(aiohttp.ClientError):  # no plain http on the TLS port
            async with aiohttp.ClientSession() as http, \
                    http.get(f"http://127.0.0.1:{front.port}/health") as answer:
                await answer.text()


async def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(
        tmp_path: Path) -> None:
    forwarded = {"X-Forwarded-For": "198.51.100.1, 203.0.113.9"}
    async with web_serving(tmp_path, command=SLEEPER,
                           web={"trusted_proxies": (ipaddress.ip_network("127.0.0.1"),)}) as (
            server, front), browser(front) as visitor:
        status, text, headers = await visitor.get("/", headers={
            **forwarded, "X-Forwarded-Proto": "https"})  # the proxy does TLS
        assert status == 200 and "Secure" in headers["Set-Cookie"]
        assert f'data-session-websocket-url="wss://127.0.0.1:{front.port}/ws"' in text
        visitor.http.cookie_jar.clear()
        await visitor.get("/", headers=forwarded)
        socket = await visitor.http.ws_connect(
            f"ws://127.0.0.1:{front.port}/ws?width=80&height=24", origin=visitor.base,
            headers=forwarded)
        await eventually(lambda: server.session_count == 1)
        [session] = server.sessions
        assert session.address == "203.0.113.9"  # the last hop the proxy saw
        await socket.close()
        await eventually(lambda: server.session_count == 0)
        server.state.config = replace(server.state.config, web=replace(
            server.state.config.web, trusted_proxies=()))
        socket = await visitor.http.ws_connect(
            f"ws://127.0.0.1:{front.port}/ws?width=80&height=24", origin=visitor.base,
            headers=forwarded)
        await eventually(lambda: server.session_count == 1)
        [session] = server.sessions
        assert session.address == "127.0.0.1"  # anyone may write the header
        await socket.close()
        status, text, headers = await visitor.get("/", headers={"X-Forwarded-Proto": "https"})
        assert 'data-session-websocket-url="ws://' in text


def test_a_busy_web_port_is_one_line_and_nothing_is_left_running(tmp_path: Path) -> None:
    import socket
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        serve = Serve(tmp_path, ["--config", str(write_config(tmp_path)), "--web", str(port)])
        status = serve.process.wait(60)
    lines = serve.output().strip().splitlines()
    assert status != 0 and lines == [
        f"trash: error: web: cannot listen on 127.0.0.1:{port}: Address already in use"], lines
