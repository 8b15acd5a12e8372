"""Position-based physics (XPBD cloth, ropes and soft bodies; XPBI sand, snow and clay;
position-based fluids) driven from Python: the extension module ``xpbd._xpbd``, whose names
the package ``xpbd`` re-exports (``xpbd.Scene``, the exceptions).

Start with ``Scene.from_file("scenes/cloth_on_sphere.toml")``; the scene format is the TOML
format of the Rust crate ``xpbd-scene`` (see its crate documentation and ``scenes/``).
Arrays returned are NumPy copies (float64 positions and velocities of shape (n, 3)).
"""

import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

import numpy as np
import numpy.typing as npt

__version__: str

StrPath = Union[str, "os.PathLike[str]"]

class XpbdError(Exception):
    """Base class of every error raised by the xpbd library."""

class SceneError(XpbdError):
    """A scene that cannot be read, parsed, validated or built. The message names the file, the
    line and the field, and the bad value where there is one (the attributes ``file``,
    ``line``, ``field`` and ``value`` hold them; absent ones are None)."""

    file: Optional[str]
    line: Optional[int]
    field: Optional[str]
    value: Optional[str]

class StepError(XpbdError):
    """A step that failed (rolled back: the scene keeps the state of its last completed step),
    or was refused before it ran (a time step over a block's CFL bound)."""

class CheckpointError(XpbdError):
    """A checkpoint that cannot be written, read or restored (wrong format version, a changed
    byte, another scene, a changed mesh file)."""

class XpbdIOError(XpbdError):
    """A frame, a run manifest or an output folder that cannot be written, or an output folder
    in use by another run."""

class Scene:
    """A built scene: its simulation (CPU, f64) and the text it was built from.

    Build one with ``Scene.from_file``, ``Scene.from_toml``, ``Scene.from_dict`` or
    ``Scene.load_checkpoint``. Stepping (``step``, ``advance``, ``advance_frame``, ``run``)
    releases the GIL; while it runs, other threads may run Python code but calls on the same
    scene raise ``RuntimeError`` (it is borrowed). A failed step is rolled back and raises
    ``StepError``; Ctrl-C (``KeyboardInterrupt``) stops between steps. Either way the scene
    keeps the state of its last completed step.
    """

    # --- building -------------------------------------------------------------------------
    @staticmethod
    def from_file(path: StrPath) -> Scene:
        """Loads, validates and builds a scene file (TOML, as ``cargo xtask run`` reads it).

        Raises ``SceneError`` naming the file, line, field and value of what is wrong."""
    @staticmethod
    def from_toml(text: str, path: Optional[StrPath] = None) -> Scene:
        """Builds a scene from TOML text (the scene file format).

        ``path`` names the text in error messages and checkpoints, and mesh paths are relative
        to its folder; default ``"<string>"``."""
    @staticmethod
    def from_dict(d: Dict[str, Any], path: Optional[StrPath] = None) -> Scene:
        """Builds a scene from a dict with the fields of the TOML scene format (nested dicts for
        tables, lists of dicts for ``[[cloth]]`` etc.; values bool, int, float, str, lists,
        NumPy arrays).

        The dict is written as TOML text and parsed as a file is, so errors name the same
        fields; their line numbers are those of that text (``scene.to_toml()`` after a
        successful build). ``path`` as in ``from_toml``; default ``"<dict>"``."""
    @staticmethod
    def load_checkpoint(path: StrPath) -> Scene:
        """Rebuilds a scene from a checkpoint file and restores its state exactly: stepping it
        continues bit for bit as the saved scene would have. Checks the format version, the
        checksum and the fingerprints of the scene text and mesh files first
        (``CheckpointError``, naming the file)."""
    @staticmethod
    def from_checkpoint_bytes(data: bytes) -> Scene:
        """``load_checkpoint`` from bytes (``checkpoint_bytes()``)."""
    def to_toml(self) -> str:
        """The TOML text the scene was built from (for ``from_dict``, the text the dict
        became)."""
    def to_dict(self) -> Dict[str, Any]:
        """The scene description as a dict (the TOML text parsed; ``Scene.from_dict`` of it
        builds the same scene)."""

    # --- description and clock ------------------------------------------------------------
    @property
    def name(self) -> str:
        """The scene's ``name``."""
    @property
    def description(self) -> str:
        """The scene's ``description``."""
    @property
    def path(self) -> Path:
        """The file (or ``"<string>"``, ``"<dict>"``) the scene was built from."""
    @property
    def dt(self) -> float:
        """The time step Δt (s) of ``step()`` (``[time] dt``; an adaptive scene takes it in
        smaller steps below its CFL bounds)."""
    @property
    def steps_per_frame(self) -> int:
        """Steps per frame (``[time] steps_per_frame``)."""
    @property
    def frames(self) -> int:
        """The frame count the scene runs to (``[time] frames``; what ``run`` stops at)."""
    @property
    def frame(self) -> int:
        """Frames completed (``advance_frame``, ``run``, or the checkpoint's). ``step`` and
        ``advance`` do not change it."""
    @property
    def time(self) -> float:
        """Simulated time (s): the simulation clock, advanced by every step."""
    @property
    def adaptive(self) -> bool:
        """Whether steps are adaptive (split below the blocks' CFL bounds)."""
    @property
    def num_particles(self) -> int:
        """The number of particles (every body's, in body order)."""
    def __len__(self) -> int: ...

    # --- stepping -------------------------------------------------------------------------
    def step(self, n: int = 1) -> int:
        """Runs ``n`` steps of ``dt`` (default 1), without the GIL. Returns the steps run.

        Raises ``StepError`` if a step fails (that step is rolled back; the steps before it
        are kept) and ``KeyboardInterrupt`` on Ctrl-C (checked between steps)."""
    def advance(self, seconds: float) -> int:
        """Advances by ``seconds``, a whole number of steps of ``dt`` (``ValueError``
        otherwise), without the GIL. Returns the steps run. Errors as ``step``."""
    def advance_frame(self, count: int = 1) -> int:
        """Runs ``count`` frames (default 1) of ``steps_per_frame`` steps each and counts them
        in ``frame``, without the GIL. Errors as ``step``; an interrupted frame keeps its
        completed steps but is not counted."""

    # --- state (NumPy copies) -------------------------------------------------------------
    def body_names(self) -> List[str]:
        """The bodies' names, in particle order (``name`` in the scene, else the field, e.g.
        ``"cloth[0]"``)."""
    def bodies(self) -> List[Dict[str, Any]]:
        """Every body as a dict: ``name``, ``field`` (``"cloth[0]"``), ``kind`` (``"cloth"``,
        ``"rope"``, ``"solid"``, ``"continuum"``, ``"fluid"``), ``first`` and ``count`` (its
        particles are ``first:first+count``) and ``radius`` (its contact radius, m)."""
    def positions(self, body: Optional[str] = None) -> npt.NDArray[np.float64]:
        """Positions (m) as a new float64 array of shape (n, 3): a copy, which later steps do
        not change. ``body``: only that body's particles (``KeyError`` for an unknown name)."""
    def velocities(self, body: Optional[str] = None) -> npt.NDArray[np.float64]:
        """Velocities (m/s) as a new float64 array of shape (n, 3) (a copy); ``body`` as in
        ``positions``."""
    def fields(self, body: Optional[str] = None) -> Dict[str, npt.NDArray[Any]]:
        """The per-particle fields the frame files carry, as a dict of new 1-D arrays (copies):
        ``inv_mass`` (1/kg; 0 = pinned) and ``material_id`` (uint32, an index into
        ``material_names()``) always; with a continuum ``det_F``, ``hardening``,
        ``volume_correction`` and ``lambda`` (det F = 1 and 0 for particles of other bodies);
        with a fluid ``density`` (kg/m³) and ``pressure`` (Pa). ``body`` as in
        ``positions``."""
    def triangles(self, body: str) -> npt.NDArray[np.int64]:
        """The triangles of the body named ``body`` (a cloth's triangles, or a soft body's
        boundary faces; none for ropes, continua and fluids) as an int64 array of shape
        (m, 3) of indices into ``positions(body)``. ``KeyError`` for an unknown name."""
    def rigid_names(self) -> List[str]:
        """The rigid bodies' names (``[[rigid]]`` ``name``, else ``rigid[k]``), in the order of
        the rows of ``rigid_states()``; empty without rigid bodies."""
    def rigid_states(self) -> npt.NDArray[np.float64]:
        """The rigid bodies' state as a float64 array of shape (k, 13), one row per body in the
        order of ``rigid_names()``: centre of mass x, y, z (m), orientation quaternion qw, qx,
        qy, qz (body → world), velocity vx, vy, vz (m/s), angular velocity wx, wy, wz (rad/s,
        world axes). A copy; (0, 13) without rigid bodies."""
    def material_names(self) -> List[str]:
        """The material names (sorted, as in ``[materials]``); ``material_id`` indexes
        them."""
    def cells(self) -> Dict[str, npt.NDArray[np.int64]]:
        """The cells written with every frame, as int64 arrays of particle indices:
        ``segments`` (m, 2), ``triangles`` (m, 3) and ``tets`` (m, 4)."""

    # --- files ----------------------------------------------------------------------------
    def save_checkpoint(self, path: StrPath) -> None:
        """Writes a bit-exact checkpoint to ``path`` (atomically): the scene text, every
        particle field, the multipliers and each block's state (XPBI's F and hardening), with
        SHA-256 fingerprints of the text and of the mesh files. ``CheckpointError`` on
        failure."""
    def checkpoint_bytes(self) -> bytes:
        """The checkpoint ``save_checkpoint`` writes, as bytes."""
    def write_frame(self, out: StrPath) -> List[Path]:
        """Writes the current frame into the folder ``out`` (created if missing) in every format
        of the scene's ``[output] formats``, as ``cargo xtask run`` names them
        (``frame_NNNNN.vtk``, ``.ply``, ``.obj``, NNNNN = ``frame``). Returns the paths
        written. No ``run.json`` is written (``run`` writes one). ``XpbdIOError`` on
        failure."""
    def run(self, out: StrPath, checkpoint_every: Optional[int] = None) -> Dict[str, Any]:
        """Runs the scene from its current frame to ``frames`` and writes what ``cargo xtask
        run SCENE --out OUT`` writes: frame 0 (when starting there) and every
        ``[output] every``-th frame, ``run.json`` after each frame, and with
        ``checkpoint_every`` a checkpoint ``checkpoint_NNNNN.ckpt`` every that many frames. The
        folder is locked for the run. Without the GIL; Ctrl-C stops it between steps
        (``KeyboardInterrupt``; the files and ``run.json`` written so far are those of the
        completed frames).

        Returns a dict: ``frames`` (completed), ``files`` and ``checkpoints`` (written by this
        call), ``seconds`` (wall time). Errors: ``StepError`` (a frame failed),
        ``XpbdIOError`` (a file, or the folder in use), ``CheckpointError``."""
