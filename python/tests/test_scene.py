"""Building scenes, stepping them and reading their state."""

import math

import numpy as np
import pytest
import xpbd
from conftest import scene_dict, scene_path


def test_exception_hierarchy():
    for cls in (xpbd.SceneError, xpbd.StepError, xpbd.CheckpointError, xpbd.XpbdIOError):
        assert issubclass(cls, xpbd.XpbdError)
    assert issubclass(xpbd.XpbdError, Exception)
    assert xpbd.Scene.__doc__ and xpbd.Scene.step.__doc__


def test_positions_shape_dtype_and_copy(chain):
    x = chain.positions()
    v = chain.velocities()
    assert x.shape == (21, 3) and v.shape == (21, 3) and len(chain) == 21
    assert x.dtype == np.float64 and v.dtype == np.float64
    assert x.flags["C_CONTIGUOUS"] and x.flags["WRITEABLE"]
    before = x.copy()
    x[:] = 0.0  # a copy: writing it does not move the particles
    np.testing.assert_array_equal(chain.positions(), before)
    chain.step()
    # ... and stepping does not change an earlier copy
    assert not np.array_equal(chain.positions(), before)
    np.testing.assert_array_equal(x, 0.0)


def test_free_fall_displacement():
    """A free rope (no pins, no colliders) falls as the integrator says, exactly: after K
    substeps of h every particle moved by -g h² K(K+1)/2 (symplectic Euler) and has v = -g K h;
    over t = K h that is -g t²/2 to within g t h/2."""
    d = {
        "name": "drop",
        "time": {"dt": 0.01, "frames": 10},
        "solver": {"substeps": 4, "gravity": [0.0, 0.0, -9.81]},
        "materials": {"steel": {"density": 7850.0, "youngs": 2.0e11}},
        "rope": [{"material": "steel", "links": 4, "start": [0, 0, 1], "end": [1, 0, 1],
                  "radius": 0.001}],
    }
    s = xpbd.Scene.from_dict(d)
    x0 = s.positions()
    assert s.step(5) == 5
    g, h, k = 9.81, 0.01 / 4, 20
    t = k * h
    dz = s.positions()[:, 2] - x0[:, 2]
    np.testing.assert_allclose(dz, -g * h * h * k * (k + 1) / 2, rtol=1e-9)
    np.testing.assert_allclose(s.velocities()[:, 2], -g * t, rtol=1e-9)
    np.testing.assert_allclose(s.positions()[:, :2], x0[:, :2], atol=1e-12)
    assert abs(dz.mean() + 0.5 * g * t * t) <= 0.5 * g * t * h + 1e-12
    assert s.time == pytest.approx(t, rel=1e-12)


def test_cloth_lowest_point_moves_down():
    s = xpbd.Scene.from_file(scene_path("cloth_two_pins"))
    z0 = s.positions()[:, 2].min()
    s.advance_frame(10)
    assert s.frame == 10
    assert s.positions()[:, 2].min() < z0 - 0.05
    # the pinned corners stay put
    w = s.fields()["inv_mass"]
    assert (w == 0).sum() >= 2


def test_same_scene_three_ways_bit_identical():
    """from_file, from_toml and from_dict of one scene give the same bits after 100 steps of
    an adaptive XPBI sand scene."""
    path = scene_path("sand_block")
    scenes = [
        xpbd.Scene.from_file(path),
        xpbd.Scene.from_file(str(path)),
        xpbd.Scene.from_toml(path.read_text()),
        xpbd.Scene.from_dict(scene_dict("sand_block")),
    ]
    scenes.append(xpbd.Scene.from_dict(scenes[0].to_dict()))
    for s in scenes:
        s.advance_frame()
    ref = scenes[0]
    for s in scenes[1:]:
        assert s.positions().tobytes() == ref.positions().tobytes()
        assert s.velocities().tobytes() == ref.velocities().tobytes()
        assert s.time == ref.time
    assert scenes[0].path == path and scenes[2].path.name == "<string>"


def test_advance_whole_steps(chain):
    assert chain.advance(0.05) == 3
    assert chain.time == pytest.approx(0.05, rel=1e-12)
    assert chain.frame == 0  # advance does not count frames
    with pytest.raises(ValueError, match="whole number of steps"):
        chain.advance(0.01)
    with pytest.raises(ValueError):
        chain.advance(-1.0)
    assert chain.advance(0.0) == 0


def test_bodies_and_fields():
    s = xpbd.Scene.from_file(scene_path("sand_block"))
    assert s.body_names() == ["continuum[0]"]
    (b,) = s.bodies()
    assert b["kind"] == "continuum" and b["first"] == 0 and b["count"] == len(s)
    np.testing.assert_array_equal(s.positions("continuum[0]"), s.positions())
    with pytest.raises(KeyError, match="continuum\\[0\\]"):
        s.positions("sand")
    f = s.fields()
    assert set(f) >= {"inv_mass", "material_id", "det_F", "hardening", "lambda"}
    for name, a in f.items():
        assert a.shape == (len(s),), name
    np.testing.assert_array_equal(f["det_F"], 1.0)
    assert s.material_names() == ["sand"] and f["material_id"].dtype == np.uint32
    s.advance_frame()
    assert not np.all(s.fields()["det_F"] == 1.0)
    assert np.all(np.isfinite(s.fields()["det_F"]))


def test_fluid_fields():
    s = xpbd.Scene.from_file(scene_path("dam_break"))
    s.step()
    f = s.fields("water")
    assert {"density", "pressure"} <= set(f)
    assert np.all(f["density"] > 0)


def test_cells():
    s = xpbd.Scene.from_file(scene_path("cloth_two_pins"))
    c = s.cells()
    assert c["triangles"].shape[1] == 3 and c["triangles"].dtype == np.int64
    assert c["triangles"].max() < len(s) and len(c["triangles"]) > 0
    assert c["tets"].shape == (0, 4)


def test_step_error_keeps_last_completed_step():
    """A fixed-step sand block that gravity speeds past its CFL bound: the refused step raises
    StepError and the scene keeps the state of the last completed step, bit for bit."""
    d = scene_dict("sand_block")
    d["time"].update(dt=2.0e-3, adaptive=False)
    d["continuum"][0]["velocity"] = [0.0, 0.0, -0.9]
    s = xpbd.Scene.from_dict(d)
    with pytest.raises(xpbd.StepError, match="exceeds the bound"):
        s.step(100)
    k = round(s.time / s.dt)
    assert 1 <= k < 100 and math.isclose(s.time, k * s.dt, rel_tol=1e-12)
    replay = xpbd.Scene.from_dict(d)
    replay.step(k)
    assert replay.positions().tobytes() == s.positions().tobytes()
    assert replay.velocities().tobytes() == s.velocities().tobytes()


def test_rigid_states_follow_the_scene():
    """A rigid stone thrown into sand: its row starts at the scene file's centre and velocity,
    unit quaternion, and falls under gravity (free fall before it reaches the sand)."""
    s = xpbd.Scene.from_file(scene_path("stone_into_sand"))
    assert s.rigid_names() == ["stone"]
    st = s.rigid_states()
    assert st.shape == (1, 13) and st.dtype == np.float64
    np.testing.assert_array_equal(st[0, 0:3], [0.0, 0.0, 0.14])
    np.testing.assert_array_equal(st[0, 7:10], [0.5, 0.0, -3.0])
    assert abs(np.linalg.norm(st[0, 3:7]) - 1.0) < 1e-12
    s.step()
    after = s.rigid_states()[0]
    dt = 0.004
    # Free fall before it reaches the sand: v_z = v0_z − g dt.
    assert abs(after[9] - (-3.0 - 9.81 * dt)) < 1e-9
    assert after[2] < 0.14
    # A scene without rigid bodies has none.
    chain = xpbd.Scene.from_file(scene_path("hanging_chain"))
    assert chain.rigid_names() == [] and chain.rigid_states().shape == (0, 13)
