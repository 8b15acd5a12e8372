"""Runs and frames as USD stages (``.usda``, ``.usdc``, ``.usd``) for Houdini, Blender and
Omniverse, written with Pixar's USD Python bindings (``pip install usd-core``, or
``pip install 'xpbd[usd]'``), which are imported only when a stage is written.

Two ways in, next to ``Scene.run(out)`` (frame files) and ``Scene.write_frame(out)``:

* ``write_run(scene, "run.usdc")`` runs the scene to its last frame, as ``Scene.run`` does,
  and writes frame 0 and every ``[output] every``-th frame as time samples;
* ``UsdWriter`` adds the scene's current state as a time sample whenever ``write()`` is
  called, for a loop that steps the scene itself::

      with xpbd.usd.UsdWriter("loop.usda", scene) as usd:
          for _ in range(50):
              scene.advance_frame()
              usd.write()        # a time sample at scene.time * fps

The stage: ``/World`` (an Xform, the default prim) with one prim per body, named after the
body (``cloth[0]`` becomes ``cloth_0_``; the attribute ``xpbd:body`` keeps the name).
Bodies with triangles (cloth; soft bodies, by their boundary faces) are ``UsdGeom.Mesh``
prims with constant topology (``Scene.triangles(body)``) and time-sampled ``points``; the
other bodies (continua, fluids, ropes) are ``UsdGeom.Points`` with time-sampled ``points``
and ``widths`` (twice the body's contact radius, ``Scene.bodies()``). Every prim carries the
per-particle fields of ``Scene.fields(body)`` (``det_F``, ``hardening``, ``lambda``,
``pressure``, ``material_id``, ...) as time-sampled vertex primvars of the same names
(float; ``material_id`` int, indexing ``/World.xpbd:material_names``), and a time-sampled
``extent``. Time codes are frames: ``timeCodesPerSecond`` = ``framesPerSecond`` = 1 /
(``dt`` × ``steps_per_frame``), a sample's time code is ``scene.time`` × fps (the frame
number for a scene stepped by frames), and the start and end time codes are the first and
last written. ``upAxis`` follows gravity (``Z`` for gravity along ±z, ``Y`` along ±y);
``metersPerUnit`` = 1.
"""

from __future__ import annotations

import os
import time as _time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Union

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ._xpbd import Scene

__all__ = ["UsdUnavailableError", "UsdWriter", "write_run", "up_axis", "prim_name"]

StrPath = Union[str, "os.PathLike[str]"]

#: Gravity when the scene gives none (``[solver] gravity``'s default).
DEFAULT_GRAVITY = (0.0, 0.0, -9.81)


class UsdUnavailableError(ImportError):
    """Pixar's USD Python bindings (``pxr``) are not installed: ``pip install usd-core``."""


def _pxr():
    """The ``pxr`` modules used here, imported on first use."""
    try:
        from pxr import Gf, Sdf, Usd, UsdGeom, Vt
    except ImportError as e:
        raise UsdUnavailableError(
            "writing USD needs Pixar's USD Python bindings (the `pxr` module), which are not "
            "installed: pip install usd-core  (or pip install 'xpbd[usd]')"
        ) from e
    return Gf, Sdf, Usd, UsdGeom, Vt


def up_axis(gravity) -> str:
    """USD's ``upAxis`` for a gravity vector: ``"Z"`` when its largest component is along z
    (or gravity is zero), ``"Y"`` along y. Gravity along x has no USD up axis: ``"Z"``, with a
    warning."""
    g = np.abs(np.asarray(gravity, dtype=float))
    if not np.any(g > 0):
        return "Z"
    k = int(np.argmax(g))
    if k == 0:
        warnings.warn("gravity is along x, which USD cannot name as up; writing upAxis = Z",
                      stacklevel=3)
        return "Z"
    return "Y" if k == 1 else "Z"


def prim_name(name: str) -> str:
    """A valid USD prim name for a body name: characters other than letters, digits and
    ``_`` become ``_``, and a leading digit gets a ``_`` before it (``"cloth[0]"`` →
    ``"cloth_0_"``)."""
    out = "".join(c if (c.isascii() and (c.isalnum() or c == "_")) else "_" for c in name)
    if not out or out[0].isdigit():
        out = "_" + out
    return out


def _scene_settings(scene: "Scene") -> Dict[str, Any]:
    d = scene.to_dict()
    gravity = d.get("solver", {}).get("gravity", DEFAULT_GRAVITY)
    every = int(d.get("output", {}).get("every", 1))
    return {"gravity": [float(x) for x in gravity], "every": max(every, 1)}


class UsdWriter:
    """Writes time samples of a scene's state into a USD stage at ``path`` (``.usda`` text,
    ``.usdc`` binary or ``.usd``), saved by ``close()`` (or leaving a ``with`` block).

    ``fps``: the stage's time codes per second (default 1 / (``dt`` × ``steps_per_frame``),
    so that time codes are frame numbers). ``up``: ``"Y"`` or ``"Z"`` (default: from the
    scene's gravity, see ``up_axis``). The stage's layout is described in ``xpbd.usd``.
    Raises ``UsdUnavailableError`` (an ``ImportError``) without ``usd-core``.
    """

    def __init__(self, path: StrPath, scene: "Scene", fps: Optional[float] = None,
                 up: Optional[str] = None) -> None:
        Gf, Sdf, Usd, UsdGeom, Vt = _pxr()
        self.path = Path(path)
        self.scene = scene
        self.fps = float(fps) if fps is not None else 1.0 / (scene.dt * scene.steps_per_frame)
        if not (self.fps > 0 and np.isfinite(self.fps)):
            raise ValueError(f"fps must be finite and > 0, got {fps}")
        settings = _scene_settings(scene)
        self.up = up if up is not None else up_axis(settings["gravity"])
        if self.up not in ("Y", "Z"):
            raise ValueError(f"up must be 'Y' or 'Z', got {up!r}")
        #: The time codes written, in order.
        self.times: List[float] = []
        self._prims: Dict[str, Any] = {}
        self._closed = False
        # An in-memory stage, exported on close: rewriting a path in the same process works
        # (a layer created with CreateNew stays registered under its path).
        self.stage = Usd.Stage.CreateInMemory()
        stage = self.stage
        UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y if self.up == "Y" else UsdGeom.Tokens.z)
        UsdGeom.SetStageMetersPerUnit(stage, 1.0)
        stage.SetTimeCodesPerSecond(self.fps)
        stage.SetFramesPerSecond(self.fps)
        world = UsdGeom.Xform.Define(stage, "/World")
        stage.SetDefaultPrim(world.GetPrim())
        root = stage.GetRootLayer()
        root.documentation = f"xpbd {scene.name!r}: {scene.description}"
        root.customLayerData = {
            "xpbd:scene": scene.name,
            "xpbd:path": str(scene.path),
            "xpbd:dt": float(scene.dt),
            "xpbd:steps_per_frame": int(scene.steps_per_frame),
        }
        names = world.GetPrim().CreateAttribute(
            "xpbd:material_names", Sdf.ValueTypeNames.StringArray, custom=True)
        names.Set(Vt.StringArray(list(scene.material_names())))

    # --- prims ----------------------------------------------------------------------------
    def _define(self, body: Dict[str, Any]):
        """The prim of a body, defined on first use (a Mesh with its triangles, else
        Points)."""
        Gf, Sdf, Usd, UsdGeom, Vt = _pxr()
        name = body["name"]
        if name in self._prims:
            return self._prims[name]
        taken = {p.GetPath().name for p in self._prims.values()}
        base = prim_name(name)
        prim_id, k = base, 1
        while prim_id in taken:
            prim_id, k = f"{base}_{k}", k + 1
        path = f"/World/{prim_id}"
        tris = self.scene.triangles(name)
        if len(tris):
            geom = UsdGeom.Mesh.Define(self.stage, path)
            geom.CreateFaceVertexCountsAttr(Vt.IntArray([3] * len(tris)))
            geom.CreateFaceVertexIndicesAttr(
                Vt.IntArray.FromNumpy(np.ascontiguousarray(tris.reshape(-1), dtype=np.int32)))
            geom.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
            geom.CreateDoubleSidedAttr(body["kind"] == "cloth")
        else:
            geom = UsdGeom.Points.Define(self.stage, path)
        prim = geom.GetPrim()
        for key in ("name", "field", "kind"):
            prim.CreateAttribute(f"xpbd:{'body' if key == 'name' else key}",
                                 Sdf.ValueTypeNames.String, custom=True).Set(str(body[key]))
        prim.CreateAttribute("xpbd:radius", Sdf.ValueTypeNames.Double,
                             custom=True).Set(float(body["radius"]))
        self._prims[name] = geom
        return geom

    # --- samples --------------------------------------------------------------------------
    def write(self, time: Optional[float] = None) -> float:
        """Adds the scene's current state as a time sample at ``time`` (default
        ``scene.time`` × fps, rounded to 1e-6: the frame number for a scene stepped by
        frames) and returns that time code. A second sample at the same time replaces the
        first."""
        if self._closed:
            raise ValueError("this UsdWriter is closed")
        Gf, Sdf, Usd, UsdGeom, Vt = _pxr()
        t = float(time) if time is not None else round(self.scene.time * self.fps, 6)
        code = Usd.TimeCode(t)
        for body in self.scene.bodies():
            name = body["name"]
            geom = self._define(body)
            x = self.scene.positions(name).astype(np.float32)
            geom.CreatePointsAttr().Set(Vt.Vec3fArray.FromNumpy(x), code)
            half = 0.0
            if isinstance(geom, UsdGeom.Points):
                width = np.full(len(x), 2.0 * body["radius"], dtype=np.float32)
                geom.CreateWidthsAttr().Set(Vt.FloatArray.FromNumpy(width), code)
                geom.SetWidthsInterpolation(UsdGeom.Tokens.vertex)
                half = float(body["radius"])
            if len(x):
                lo, hi = x.min(axis=0) - half, x.max(axis=0) + half
                extent = Vt.Vec3fArray([Gf.Vec3f(*map(float, lo)), Gf.Vec3f(*map(float, hi))])
                geom.CreateExtentAttr().Set(extent, code)
            api = UsdGeom.PrimvarsAPI(geom.GetPrim())
            for field, values in self.scene.fields(name).items():
                if np.issubdtype(values.dtype, np.integer):
                    kind, arr = Sdf.ValueTypeNames.IntArray, Vt.IntArray.FromNumpy(
                        np.ascontiguousarray(values, dtype=np.int32))
                else:
                    kind, arr = Sdf.ValueTypeNames.FloatArray, Vt.FloatArray.FromNumpy(
                        np.ascontiguousarray(values, dtype=np.float32))
                pv = api.GetPrimvar(field)
                if not pv:
                    pv = api.CreatePrimvar(field, kind, UsdGeom.Tokens.vertex)
                pv.Set(arr, code)
        if t not in self.times:
            self.times.append(t)
        return t

    def close(self) -> Path:
        """Sets the start and end time codes (the first and last written) and saves the stage
        to ``path`` (its folder created if missing). Returns the path. Closing twice does
        nothing."""
        if not self._closed:
            if self.times:
                self.stage.SetStartTimeCode(min(self.times))
                self.stage.SetEndTimeCode(max(self.times))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not self.stage.GetRootLayer().Export(str(self.path)):
                raise OSError(f"{self.path}: USD could not write the stage")
            self._closed = True
        return self.path

    def __enter__(self) -> "UsdWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def write_run(scene: "Scene", path: StrPath, frames: Optional[int] = None,
              every: Optional[int] = None, fps: Optional[float] = None) -> Dict[str, Any]:
    """Runs ``scene`` from its current frame to frame ``frames`` (default ``scene.frames``,
    what ``Scene.run`` stops at) with ``advance_frame`` and writes it as a USD stage at
    ``path`` (``.usda``, ``.usdc`` or ``.usd``; layout in ``xpbd.usd``): the current frame,
    then every frame that is a multiple of ``every`` (default the scene's ``[output] every``).
    ``fps`` as in ``UsdWriter``.

    Returns a dict: ``path``, ``frames`` (the scene's frame at the end), ``written`` (the
    frames written, which are the stage's time codes) and ``seconds`` (wall time). Errors:
    ``UsdUnavailableError`` without ``usd-core`` (before anything runs), ``StepError`` (a
    frame failed: the frames before it are saved), ``KeyboardInterrupt`` likewise."""
    end = scene.frames if frames is None else int(frames)
    step = _scene_settings(scene)["every"] if every is None else int(every)
    if step < 1:
        raise ValueError(f"every must be at least 1, got {every}")
    start = _time.perf_counter()
    writer = UsdWriter(path, scene, fps=fps)
    written: List[int] = []
    try:
        written.append(scene.frame)
        writer.write(time=scene.frame)
        while scene.frame < end:
            scene.advance_frame()
            if scene.frame % step == 0:
                written.append(scene.frame)
                writer.write(time=scene.frame)
    finally:
        writer.close()
    return {"path": writer.path, "frames": scene.frame, "written": written,
            "seconds": _time.perf_counter() - start}
