"""Runs written as USD (xpbd.usd), read back with Pixar's pxr.Usd; Scene.triangles.

Without usd-core the tests that read stages are skipped, unless XPBD_REQUIRE_USD=1 (set by
python/test.sh, which installs usd-core), when they fail instead."""

import os
import sys

import numpy as np
import pytest
import xpbd
from conftest import scene_dict, scene_path


@pytest.fixture
def pxr():
    if os.environ.get("XPBD_REQUIRE_USD") == "1":
        import pxr  # noqa: F401  (fails loudly: CI installs usd-core)
    else:
        pytest.importorskip("pxr", reason="usd-core is not installed")
    from pxr import Usd, UsdGeom

    return Usd, UsdGeom


def heap_scene(frames: int) -> dict:
    """cloth_on_sand_heap (a sand heap `heap` and a cloth `sheet`), cut to `frames` frames."""
    d = scene_dict("cloth_on_sand_heap")
    d["time"]["frames"] = frames
    return d


def test_triangles_of_a_body():
    s = xpbd.Scene.from_file(scene_path("cloth_two_pins"))
    (b,) = s.bodies()
    t = s.triangles(b["name"])
    assert t.dtype == np.int64 and t.shape[1] == 3 and len(t) == 2 * 31 * 31
    np.testing.assert_array_equal(t + b["first"], s.cells()["triangles"])
    with pytest.raises(KeyError):
        s.triangles("nope")
    sand = xpbd.Scene.from_file(scene_path("sand_block"))
    assert sand.triangles("continuum[0]").shape == (0, 3)
    beam = xpbd.Scene.from_file(scene_path("soft_tet_beam"))
    (b,) = beam.bodies()
    t = beam.triangles(b["name"])
    # a soft body's boundary faces: every face index is one of its particles, and a closed
    # surface has every edge in exactly two faces
    assert len(t) > 0 and t.min() >= 0 and t.max() < b["count"]
    edges = np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1)
    _, counts = np.unique(edges, axis=0, return_counts=True)
    assert np.all(counts == 2)


def test_run_as_usd(tmp_path, pxr):
    """A 4-frame run of cloth_on_sand_heap ([output] every = 2) as .usda: frames 0, 2, 4
    are the time samples, and each sample's points and primvars are the scene's state at that
    frame (captured from a second, identical scene stepped frame by frame)."""
    Usd, UsdGeom = pxr
    d = heap_scene(4)
    ref = xpbd.Scene.from_dict(d)
    want = {}
    for f in range(5):
        if f % 2 == 0:
            want[f] = {b: (ref.positions(b), ref.fields(b)) for b in ref.body_names()}
        if f < 4:
            ref.advance_frame()

    s = xpbd.Scene.from_dict(d)
    path = tmp_path / "out" / "heap.usda"
    r = xpbd.usd.write_run(s, path)
    assert r["written"] == [0, 2, 4] and r["frames"] == 4 and s.frame == 4
    assert r["path"] == path and path.is_file()

    stage = Usd.Stage.Open(str(path))
    assert UsdGeom.GetStageUpAxis(stage) == UsdGeom.Tokens.z
    assert UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    fps = 1.0 / (s.dt * s.steps_per_frame)  # 50
    assert stage.GetTimeCodesPerSecond() == pytest.approx(fps) == 50.0
    assert (stage.GetStartTimeCode(), stage.GetEndTimeCode()) == (0.0, 4.0)
    assert stage.GetDefaultPrim().GetPath() == "/World"

    bodies = {b["name"]: b for b in s.bodies()}
    assert set(bodies) == {"heap", "sheet"}
    heap = UsdGeom.Points(stage.GetPrimAtPath("/World/heap"))
    sheet = UsdGeom.Mesh(stage.GetPrimAtPath("/World/sheet"))
    assert heap and sheet, [p.GetPath() for p in stage.Traverse()]
    assert heap.GetPrim().GetAttribute("xpbd:body").Get() == "heap"

    for name, geom in (("heap", heap), ("sheet", sheet)):
        n = bodies[name]["count"]
        assert geom.GetPointsAttr().GetTimeSamples() == [0.0, 2.0, 4.0]
        pvs = {pv.GetPrimvarName(): pv for pv in UsdGeom.PrimvarsAPI(geom).GetPrimvars()}
        assert set(pvs) >= set(want[0][name][1]), name
        assert {"det_F", "hardening", "lambda", "material_id"} <= set(pvs)
        for f, state in want.items():
            x, fields = state[name]
            got = np.array(geom.GetPointsAttr().Get(f), dtype=np.float64)
            assert got.shape == (n, 3)
            np.testing.assert_allclose(got, x, rtol=1e-6, atol=1e-7)
            lo, hi = np.array(geom.GetExtentAttr().Get(f))
            assert np.all(lo <= got.min(axis=0)) and np.all(hi >= got.max(axis=0))
            for field, values in fields.items():
                v = np.array(pvs[field].Get(f))
                assert len(v) == n, (name, field)
                assert pvs[field].GetInterpolation() == UsdGeom.Tokens.vertex
                np.testing.assert_allclose(v, values, rtol=1e-6, atol=1e-6 * np.abs(values).max())
        if name == "heap":
            assert not np.all(np.array(pvs["det_F"].Get(4)) == 1.0)  # the heap deformed

    # the last sample is the written scene's own final state
    np.testing.assert_allclose(np.array(heap.GetPointsAttr().Get(4)), s.positions("heap"),
                               rtol=1e-6, atol=1e-7)
    # the points move between samples
    assert not np.allclose(np.array(heap.GetPointsAttr().Get(0)),
                           np.array(heap.GetPointsAttr().Get(4)))
    # widths: twice the heap's contact radius, one per point
    w = np.array(heap.GetWidthsAttr().Get(2))
    assert len(w) == bodies["heap"]["count"] and np.all(w > 0)
    np.testing.assert_allclose(w, 2 * bodies["heap"]["radius"], rtol=1e-6)
    # the mesh: the cloth's triangles, constant topology
    tris = s.triangles("sheet")
    assert len(tris) == 2 * 19 * 19  # resolution = [20, 20] vertices
    assert list(sheet.GetFaceVertexCountsAttr().Get()) == [3] * len(tris)
    np.testing.assert_array_equal(np.array(sheet.GetFaceVertexIndicesAttr().Get()),
                                  tris.reshape(-1))
    np.testing.assert_array_equal(
        tris + bodies["sheet"]["first"],
        s.cells()["triangles"])
    assert sheet.GetFaceVertexIndicesAttr().GetNumTimeSamples() == 0
    names = stage.GetPrimAtPath("/World").GetAttribute("xpbd:material_names").Get()
    assert list(names) == s.material_names() == ["cotton", "sand"]


def test_control_loop_writer_usdc(tmp_path, pxr):
    """UsdWriter in a loop that steps with advance(): binary .usdc, time codes scene.time*fps,
    a rope (as Points, its name made a prim name), and the stage written twice to one path
    in one process."""
    Usd, UsdGeom = pxr
    s = xpbd.Scene.from_file(scene_path("hanging_chain"))
    (name,) = s.body_names()
    path = tmp_path / "chain.usdc"
    for _ in range(2):  # the second writer replaces the file
        seen = []
        with xpbd.usd.UsdWriter(path, s, fps=60.0) as w:
            for _ in range(3):
                s.advance(2 * s.dt)
                t = w.write()
                seen.append((t, s.positions(name)))
        assert path.read_bytes()[:8] == b"PXR-USDC"
    stage = Usd.Stage.Open(str(path))
    assert stage.GetTimeCodesPerSecond() == 60.0
    prim = stage.GetPrimAtPath("/World/" + xpbd.usd.prim_name(name))
    pts = UsdGeom.Points(prim)
    assert pts and prim.GetAttribute("xpbd:body").Get() == name
    times = pts.GetPointsAttr().GetTimeSamples()
    assert times == [t for t, _ in seen] == [8.0, 10.0, 12.0]  # steps of 1/60 s, 2 at a time
    for t, x in seen:
        np.testing.assert_allclose(np.array(pts.GetPointsAttr().Get(t)), x, rtol=1e-6,
                                   atol=1e-7)
    assert (stage.GetStartTimeCode(), stage.GetEndTimeCode()) == (8.0, 12.0)


def test_up_axis_follows_gravity(tmp_path, pxr):
    Usd, UsdGeom = pxr
    d = scene_dict("hanging_chain")
    d["solver"]["gravity"] = [0.0, -9.81, 0.0]
    s = xpbd.Scene.from_dict(d)
    path = tmp_path / "y.usda"
    with xpbd.usd.UsdWriter(path, s) as w:
        w.write()
    assert UsdGeom.GetStageUpAxis(Usd.Stage.Open(str(path))) == UsdGeom.Tokens.y
    assert xpbd.usd.up_axis([0, 0, -9.81]) == "Z" and xpbd.usd.up_axis([0, 0, 0]) == "Z"
    with pytest.warns(UserWarning, match="along x"):
        assert xpbd.usd.up_axis([9.81, 0, 0]) == "Z"


def test_soft_body_is_a_mesh(tmp_path, pxr):
    Usd, UsdGeom = pxr
    s = xpbd.Scene.from_file(scene_path("soft_tet_beam"))
    (b,) = s.bodies()
    path = tmp_path / "beam.usda"
    r = xpbd.usd.write_run(s, path, frames=1, every=1)
    assert r["written"] == [0, 1]
    stage = Usd.Stage.Open(str(path))
    mesh = UsdGeom.Mesh(stage.GetPrimAtPath("/World/" + xpbd.usd.prim_name(b["name"])))
    assert mesh
    idx = np.array(mesh.GetFaceVertexIndicesAttr().Get())
    np.testing.assert_array_equal(idx, s.triangles(b["name"]).reshape(-1))
    assert len(mesh.GetPointsAttr().Get(1)) == b["count"]


def test_prim_names():
    assert xpbd.usd.prim_name("cloth[0]") == "cloth_0_"
    assert xpbd.usd.prim_name("2 sheets") == "_2_sheets"
    assert xpbd.usd.prim_name("heap") == "heap"


def test_without_usd_core_the_error_says_what_to_install(monkeypatch, chain, tmp_path):
    monkeypatch.setitem(sys.modules, "pxr", None)  # `import pxr` raises ImportError
    with pytest.raises(ImportError, match=r"pip install usd-core") as e:
        xpbd.usd.write_run(chain, tmp_path / "x.usda", frames=1)
    assert isinstance(e.value, xpbd.usd.UsdUnavailableError)
    assert chain.frame == 0 and not (tmp_path / "x.usda").exists()  # nothing ran
