"""The SSH server's fork server: sessions forked from it find the server's main script
already imported (multiprocessing's own "__main__" preload never works before Python
3.13.8, CPython gh-126631), and it is ready to fork before the server says it is serving.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SERVER_SCRIPT = """
    import os
    import sys
    from pathlib import Path

    RUNS = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ["RUNS_FILE"])
    with RUNS.open("a") as runs:  # one line each time this script is run or imported
        runs.write(f"{__name__} {os.getpid()}\\n")


    def main() -> None:
        os.environ["RUNS_FILE"] = str(RUNS)
        from trash_tui.ssh.child import fork_context, start_fork_server

        start_fork_server()
        context = fork_context()
        for _ in range(3):
            session = context.Process(target=os.getpid)
            session.start()
            session.join()
            assert session.exitcode == 0, session.exitcode


    if __name__ == "__main__":
        main()
"""


def test_forked_sessions_do_not_run_the_servers_main_script_again(tmp_path: Path) -> None:
    """The script runs once as the program and once in the fork server; the fork server's
    readiness check and three sessions forked from it add no run of their own."""
    script = tmp_path / "server_main.py"
    script.write_text(textwrap.dedent(SERVER_SCRIPT))
    runs = tmp_path / "runs.txt"
    subprocess.run([sys.executable, str(script), str(runs)], check=True, timeout=120)
    names = [line.split()[0] for line in runs.read_text().splitlines()]
    assert names == ["__main__", "__mp_main__"]
