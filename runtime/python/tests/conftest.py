"""Shared fixtures: the repository's problem files and the `sparkgen` command.

The command is the one `cargo xtask python` builds (its path in SPARKGEN_BIN); the tests that
compare with it are skipped with that reason when it is absent, and `cargo xtask python` always
sets it, so CI runs them.
"""

import json
import os
import pathlib
import subprocess

import pytest

PROBLEMS = pathlib.Path(__file__).resolve().parents[2] / "problems"


def problem_path(name):
    return PROBLEMS / name


@pytest.fixture
def cli():
    """Runs `sparkgen ARGS… --json` and returns its JSON object and exit code."""
    binary = os.environ.get("SPARKGEN_BIN")
    if not binary:
        pytest.skip("SPARKGEN_BIN is not set: `cargo xtask python` builds the command and sets it")

    def run(*args):
        done = subprocess.run(
            [binary, *map(str, args), "--json"], capture_output=True, text=True, check=False
        )
        return json.loads(done.stdout), done.returncode

    return run
