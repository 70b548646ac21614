"""The build's one step beyond pyproject.toml: the wheel carries the example tournaments.

The repository's ``tournaments/*.toml`` is the only copy kept in git; building copies it
into the package as ``trash_tui/tournament/examples/`` (and into the sdist), where
``trash_tui/tournament/examples.py`` finds it. A clone, or an editable install of it,
uses the repository's folder itself.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

EXAMPLES = Path("tournaments")
PACKAGED = Path("trash_tui", "tournament", "examples")


class BuildPyWithExamples(build_py):
    """``build_py`` that also copies ``tournaments/*.toml`` into the built package."""

    def examples(self) -> list[Path]:
        return sorted(EXAMPLES.glob("*.toml"))

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib, PACKAGED)
        self.mkpath(str(target))
        for path in self.examples():
            self.copy_file(str(path), str(target / path.name))

    def get_source_files(self) -> list[str]:  # so that the sdist carries them too
        return [*super().get_source_files(), *(str(path) for path in self.examples())]


setup(cmdclass={"build_py": BuildPyWithExamples})
