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


APP_CHECK_SCRIPT = """
    import sys


    def imported(names):
        return [name for name in names if name in sys.modules]


    def main() -> None:
        from trash_tui.ssh.child import fork_context, start_fork_server

        start_fork_server()
        wanted = sys.argv[1:]
        with fork_context().Pool(1) as pool:
            print(" ".join(pool.apply(imported, (wanted,))))


    if __name__ == "__main__":
        main()
"""


def test_forked_sessions_find_every_screen_of_the_app_already_imported(tmp_path: Path) -> None:
    """A session forked from the fork server does not import the app again: the entry point,
    the board, the lobby, the shared tables' screens and the widgets are there already (a
    session that imported them itself would spend a third of a second and keep its own
    copy of them), nor what Textual and Rich import late (when an app first runs, when text
    is first measured)."""
    from rich._unicode_data._versions import VERSIONS

    script = tmp_path / "server_main.py"
    script.write_text(textwrap.dedent(APP_CHECK_SCRIPT))
    wanted = ["trash_tui.ssh.session", "trash_tui.app.app", "trash_tui.app.trash.board",
              "trash_tui.app.screens.lobby", "trash_tui.app.screens.remote",
              "trash_tui.app.shared.board", "trash_tui.app.widgets.table",
              "trash_tui.play.controller", "textual.pilot", "textual.drivers.headless_driver",
              "rich._unicode_data.unicode" + VERSIONS[-1].replace(".", "-")]
    result = subprocess.run([sys.executable, str(script), *wanted], check=True, timeout=120,
                            capture_output=True, text=True)
    assert result.stdout.split() == wanted
