"""Checkpoints, frames and runs."""

import json

import numpy as np
import pytest
import xpbd
from conftest import scene_dict, scene_path


def test_checkpoint_round_trip_is_bit_exact(tmp_path):
    s = xpbd.Scene.from_file(scene_path("sand_block"))
    s.advance_frame()
    ckpt = tmp_path / "a.ckpt"
    s.save_checkpoint(ckpt)
    s.advance_frame()
    for r in (xpbd.Scene.load_checkpoint(ckpt),
              xpbd.Scene.from_checkpoint_bytes(ckpt.read_bytes())):
        assert r.frame == 1 and r.path == scene_path("sand_block")
        r.advance_frame()
        assert r.frame == s.frame and r.time == s.time
        assert r.positions().tobytes() == s.positions().tobytes()
        assert r.velocities().tobytes() == s.velocities().tobytes()
        for name, a in s.fields().items():
            assert r.fields()[name].tobytes() == a.tobytes(), name


def test_checkpoint_of_a_dict_scene(tmp_path):
    s = xpbd.Scene.from_dict(scene_dict("hanging_chain"))
    s.step(7)
    data = s.checkpoint_bytes()
    s.step(3)
    r = xpbd.Scene.from_checkpoint_bytes(data)
    r.step(3)
    assert r.positions().tobytes() == s.positions().tobytes()


def test_corrupt_checkpoint(tmp_path, chain):
    ckpt = tmp_path / "c.ckpt"
    chain.save_checkpoint(ckpt)
    data = bytearray(ckpt.read_bytes())
    data[40] ^= 1
    ckpt.write_bytes(bytes(data))
    with pytest.raises(xpbd.CheckpointError, match="checksum mismatch"):
        xpbd.Scene.load_checkpoint(ckpt)
    with pytest.raises(xpbd.CheckpointError, match="not a checkpoint"):
        xpbd.Scene.from_checkpoint_bytes(b"hello")
    with pytest.raises(xpbd.CheckpointError, match="missing.ckpt"):
        xpbd.Scene.load_checkpoint(tmp_path / "missing.ckpt")


def test_write_frame(tmp_path, chain):
    chain.advance_frame(3)
    out = tmp_path / "frames" / "deep"
    paths = chain.write_frame(out)
    assert [p.name for p in paths] == ["frame_00003.vtk", "frame_00003.ply"]
    assert all(p.stat().st_size > 0 for p in paths)
    (tmp_path / "file").write_text("x")
    with pytest.raises(xpbd.XpbdIOError, match="not a folder"):
        chain.write_frame(tmp_path / "file")


def test_run_writes_what_xtask_run_writes(tmp_path):
    d = scene_dict("hanging_chain")
    d["time"]["frames"] = 6
    s = xpbd.Scene.from_dict(d)
    out = tmp_path / "run"
    r = s.run(out, checkpoint_every=3)
    assert r["frames"] == 6 and r["checkpoints"] == 2 and r["files"] == 8  # frames 0,2,4,6
    m = json.loads((out / "run.json").read_text())
    assert m["completed"] == 6 and [w["frame"] for w in m["written"]] == [0, 2, 4, 6]
    assert [c["files"] for c in m["checkpoints"]] == [["checkpoint_00003.ckpt"],
                                                     ["checkpoint_00006.ckpt"]]
    for w in m["written"]:
        assert all((out / f).is_file() for f in w["files"])
    assert s.frame == 6
    # resuming from the frame-3 checkpoint reproduces frame 6
    r3 = xpbd.Scene.load_checkpoint(out / "checkpoint_00003.ckpt")
    r3.advance_frame(3)
    np.testing.assert_array_equal(r3.positions(), s.positions())
    with pytest.raises(ValueError):
        s.run(out, checkpoint_every=0)
