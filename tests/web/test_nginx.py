"""The nginx configuration docs/web.md recommends works in front of the server (issue 22).

The ``nginx`` block of docs/web.md is run by a real nginx on 127.0.0.1 (its ``listen 443 ssl`` made a
plain loopback port, its upstream the test's server): pages, ``HEAD``, creating a table and a
table's WebSocket (the upgrade headers) go through it, and an over-long request line is refused
there.  Skipped where nginx is not installed (Debian: ``apt-get install nginx-light``).
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

uvicorn = pytest.importorskip("uvicorn")
ws_sync = pytest.importorskip("websockets.sync.client")
httpx = pytest.importorskip("httpx")

from shangrao.web import Settings  # noqa: E402 - after the importorskip above
from shangrao.web.app import create_app  # noqa: E402 - after the importorskip above
from shangrao.web.guard import ConnectionGuard, guarded_protocols  # noqa: E402

from .conftest import SLOW_PEOPLE  # noqa: E402 - after the importorskip above
from .serving import free_port, served  # noqa: E402
from .waiting import wait_until  # noqa: E402

NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
)
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed")
DOC = Path(__file__).resolve().parents[2] / "docs" / "web.md"


def documented_config() -> str:
    """The ``nginx`` code block of docs/web.md."""
    blocks = re.findall(r"```nginx\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "docs/web.md should hold one nginx block"
    return blocks[0]


@pytest.fixture
def behind_nginx(tmp_path):
    """The app on uvicorn (with serve's protocols) behind nginx running the documented block; yields
    nginx's port."""
    app = create_app(f"sqlite:///{tmp_path / 'nginx.sqlite3'}", Settings(**SLOW_PEOPLE))
    front = free_port()
    guard = ConnectionGuard(per_address=1000, total=1000, header_timeout=10)
    with served(app, ws_ping_interval=None, proxy_headers=False, **guarded_protocols(guard)) as (backend, _srv):
        conf = documented_config()
        assert "listen 443 ssl;" in conf and "http://127.0.0.1:8000" in conf
        conf = conf.replace("listen 443 ssl;", f"listen 127.0.0.1:{front};")
        conf = conf.replace("http://127.0.0.1:8000", f"http://127.0.0.1:{backend}")
        temp = " ".join(
            f"{kind}_temp_path {tmp_path / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (tmp_path / "nginx.conf").write_text(
            f"daemon off; master_process off; pid {tmp_path / 'nginx.pid'}; error_log {tmp_path / 'error.log'};\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{ access_log off; {temp}\n{conf}\n}}\n",
            encoding="utf-8",
        )
        check = subprocess.run(
            [NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert check.returncode == 0, check.stderr  # the documented block is valid nginx
        proc = subprocess.Popen(
            [NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:

            def nginx_up() -> bool:
                assert proc.poll() is None, "nginx did not start"
                try:
                    socket.create_connection(("127.0.0.1", front), timeout=1).close()
                    return True
                except OSError:
                    return False

            wait_until(nginx_up, 20, "nginx to accept connections")
            yield front
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_the_documented_nginx_configuration_serves_pages_and_websockets(behind_nginx):
    port = behind_nginx
    base = f"http://127.0.0.1:{port}"
    assert httpx.get(base + "/", timeout=5).status_code == 200
    head = httpx.head(base + "/history", timeout=5)
    assert head.status_code == 200 and head.content == b""
    r = httpx.post(base + "/api/tables", json={"hands": 1, "seats": ["greedy"] * 3}, timeout=5)
    assert r.status_code == 200, r.text
    d = r.json()
    with ws_sync.connect(f"ws://127.0.0.1:{port}/ws/{d['id']}/{d['token']}", compression=None, proxy=None) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "state"  # the upgrade went through nginx
        ws.send(json.dumps({"type": "ping"}))
        assert any(json.loads(ws.recv(timeout=5))["type"] == "pong" for _ in range(50))
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:  # an over-long request line
        s.sendall(b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert s.recv(100).startswith(b"HTTP/1.1 414 ")
