"""The container (issue 37 item 9), as far as it can be tried without Docker: players are
never told ``ssh … CODE@<container id>`` without a word to the operator; a start with
``--read-only`` and no tmpfs for /tmp is one line saying what to add, not a traceback
(imitated with a mount namespace: /tmp, /var/tmp and the working folder read-only, only
the data folder writable); the base image and the dependencies are pinned."""

from __future__ import annotations

import os
import re
import socket
import sys
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from serve_process import Serve, namespace_problem, write_config

ROOT = Path(__file__).resolve().parent.parent
CONTAINER_ID = "3f2a9c1b7d4e"


def test_a_container_hostname_is_named_at_start_when_public_host_is_unset(
        tmp_path: Path) -> None:
    if why := namespace_problem("-u"):
        pytest.skip(why)
    config = write_config(tmp_path, host='"0.0.0.0"', public_host="")
    machine = socket.gethostname()
    # (in a host name namespace of its own: this machine's name is left alone)
    serve = Serve(tmp_path, ["--config", str(config)],
                  shell=f"exec unshare -u sh -c 'hostname {CONTAINER_ID} && exec \"$@\"' "
                        'sh "$@"')
    try:
        serve.wait_for("listening on")
        lines = [line for line in serve.output().splitlines() if "public_host" in line]
    finally:
        assert serve.stop() == 0
    assert socket.gethostname() == machine
    assert len(lines) == 1, serve.output()
    assert CONTAINER_ID in lines[0] and "set public_host" in lines[0]
    assert "Traceback" not in serve.output()


def test_read_only_without_a_tmpfs_for_tmp_is_one_line_saying_what_to_add(
        tmp_path: Path) -> None:
    if why := namespace_problem("-m"):
        pytest.skip(why)
    data = tmp_path / "data"
    data.mkdir()
    config = write_config(tmp_path)
    shell = ("mount --bind /tmp /tmp && mount -o remount,bind,ro /tmp && "
             "mount -t tmpfs -o ro tmpfs /var/tmp && "
             f"mount --bind {data} {data} && mount -o remount,bind,rw {data} && "
             'cd /tmp && exec "$@"')
    serve = Serve(tmp_path, ["--config", str(config)],
                  shell=f"exec unshare -m --propagation private sh -c '{shell}' sh \"$@\"",
                  env={key: value for key, value in os.environ.items()
                       if key not in ("TMPDIR", "TEMP", "TMP")})
    status = serve.process.wait(60)
    output = serve.output()
    assert status == 2, output  # (as every start-up problem)
    assert "Traceback" not in output
    [line] = output.strip().splitlines()
    assert "--tmpfs /tmp" in line and line.startswith("trash: error:"), line


def test_the_base_image_and_the_dependencies_are_pinned() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    [base] = re.findall(r"^FROM (\S+)", dockerfile, re.MULTILINE)
    assert re.fullmatch(r"python:\d+\.\d+\.\d+-slim-[a-z]+(@sha256:[0-9a-f]{64})?", base), base
    assert "COPY constraints.txt" in dockerfile
    assert re.search(r"PIP_CONSTRAINT=/opt/trash-tui/constraints\.txt pip install "
                     r"--constraint constraints\.txt \.", dockerfile)
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.lower().replace("_", "-")] = version.strip()
    # every package the server needs to run, and each at the version the tests ran with
    needed, todo = set(), [Requirement(r) for r in metadata.requires("trash-tui") or []
                           if "extra ==" not in r]
    while todo:
        requirement = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = requirement.name.lower().replace("_", "-")
        if name in needed:
            continue
        needed.add(name)
        todo.extend(Requirement(r) for r in metadata.requires(name) or []
                    if "extra ==" not in r)
    assert needed | {"setuptools"} <= set(pins), needed - set(pins)  # (and the build backend)
    for name in needed:
        assert pins[name] == metadata.version(name), (name, pins[name])
    assert sys.version_info[:2] == tuple(map(int, base.split(":")[1].split(".")[:2]))


def test_the_readme_and_the_dockerfile_say_to_set_public_host_and_mount_a_tmpfs() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    readme = (ROOT / "README.md").read_text()
    container = readme[readme.index("Or in a container"):readme.index("**The operator's console")]
    for text in (dockerfile, container):
        assert "--read-only --tmpfs /tmp" in text
        assert "TRASH_PUBLIC_HOST=" in text and "public_host" in text


def test_the_container_serves_the_web_face_with_web_on_its_exposed_port(
        tmp_path: Path) -> None:
    """The image's config listens for browsers on every interface of the container once
    ``--web 8080`` is given (after the image's name: the arguments of ``trash serve``);
    8080 is exposed; the README's container part says how."""
    from trash_tui.ssh.config import load_server_config

    dockerfile = (ROOT / "Dockerfile").read_text()
    [config_lines] = re.findall(r"RUN printf '%s\\n' \\\n((?:\s+'[^']*' \\\n)+)", dockerfile)
    config = tmp_path / "ssh-server.toml"
    config.write_text("".join(line + "\n" for line in re.findall(r"'([^']*)'", config_lines)))
    assert load_server_config(config).web.port is None  # (no web face unless asked)
    web = load_server_config(config, web_port=8080).web
    assert (web.host, web.port) == ("0.0.0.0", 8080)
    [exposed] = re.findall(r"^EXPOSE (.+)$", dockerfile, re.MULTILINE)
    assert exposed.split() == ["2222", "8080"]
    assert re.search(r'^ENTRYPOINT \["trash", "serve", "--config", '
                     r'"/etc/trash/ssh-server.toml"\]$', dockerfile, re.MULTILINE)
    readme = (ROOT / "README.md").read_text()
    container = readme[readme.index("Or in a container"):readme.index("**The operator's console")]
    for text in (dockerfile, container):
        assert re.search(r"-p 8080:8080 .*trash-tui --web 8080", text.replace("\\\n", " "))
