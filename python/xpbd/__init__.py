"""Position-based physics (XPBD cloth, ropes and soft bodies; XPBI sand, snow and clay;
position-based fluids) driven from Python.

Start with ``Scene.from_file("scenes/cloth_on_sphere.toml")``; the scene format is the TOML
format of the Rust crate ``xpbd-scene`` (see its crate documentation and ``scenes/``).
Arrays returned are NumPy copies (float64 positions and velocities of shape (n, 3)).

``xpbd.usd`` writes a run, or frames of a control loop, as a USD stage for Houdini, Blender
and Omniverse (it needs ``pip install usd-core``).
"""

from . import usd
from ._xpbd import (
    CheckpointError,
    Scene,
    SceneError,
    StepError,
    XpbdError,
    XpbdIOError,
    __version__,
)

__all__ = [
    "CheckpointError",
    "Scene",
    "SceneError",
    "StepError",
    "XpbdError",
    "XpbdIOError",
    "__version__",
    "usd",
]
