"""Shared fixtures: the workspace's scenes/ folder and small scenes built from it."""

import copy
import pathlib

import pytest

SCENES = pathlib.Path(__file__).resolve().parents[2] / "scenes"

try:  # Python >= 3.11
    import tomllib
except ImportError:  # pragma: no cover - 3.9 / 3.10
    tomllib = None


def scene_path(name: str) -> pathlib.Path:
    """The path of scenes/NAME.toml."""
    return SCENES / f"{name}.toml"


def scene_dict(name: str) -> dict:
    """scenes/NAME.toml as a dict (tomllib, or the library's own to_dict before 3.11)."""
    if tomllib is not None:
        return tomllib.loads(scene_path(name).read_text())
    import xpbd

    return copy.deepcopy(xpbd.Scene.from_file(scene_path(name)).to_dict())


@pytest.fixture
def chain():
    """The 20-link steel chain (21 particles, fixed steps of 1/60 s): fast."""
    import xpbd

    return xpbd.Scene.from_file(scene_path("hanging_chain"))
