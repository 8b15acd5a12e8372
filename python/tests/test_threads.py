"""Stepping releases the GIL, and Ctrl-C stops it between steps."""

import _thread
import threading
import time

import numpy as np
import pytest
import xpbd
from conftest import scene_dict, scene_path


def test_step_releases_the_gil():
    """While another thread is inside step(), this thread runs Python code. With the GIL held
    for the whole call, this thread could only run before the call began or after it ended."""
    s = xpbd.Scene.from_file(scene_path("sand_block"))
    s.advance_frame()  # warm up (first-touch allocations)
    window = {}

    def work():
        window["start"] = time.perf_counter()
        s.step(200)  # ~0.5-1 s
        window["end"] = time.perf_counter()

    t = threading.Thread(target=work)
    stamps = []
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter())
        time.sleep(0.001)
    t.join()
    start, end = window["start"], window["end"]
    assert end - start > 0.1, "the call was too short to tell"
    inside = [x for x in stamps if start + 0.02 < x < end - 0.02]
    assert len(inside) >= 5, (len(inside), end - start)


def test_ctrl_c_stops_between_steps():
    s = xpbd.Scene.from_file(scene_path("sand_block"))
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.step(5000)  # ~15 s if it were not interrupted
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 5.0
    k = round(s.time / s.dt)
    assert 0 < k < 5000 and s.time == pytest.approx(k * s.dt, rel=1e-9)
    assert np.all(np.isfinite(s.positions()))
    # the scene goes on from the last completed step
    s.step()
    assert round(s.time / s.dt) == k + 1


def test_ctrl_c_stops_a_run(tmp_path):
    """An interrupted run leaves run.json listing the frames completed and releases the
    folder for the next run."""
    import json

    d = scene_dict("sand_block")
    d["time"]["frames"] = 1000  # ~0.3 s a frame: far longer than the timer
    s = xpbd.Scene.from_dict(d)
    out = tmp_path / "run"
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.run(out)
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 5.0
    m = json.loads((out / "run.json").read_text())
    assert m["completed"] == s.frame < 1000
    assert [w["frame"] for w in m["written"]] == list(range(s.frame + 1))
    assert all((out / f).is_file() for w in m["written"] for f in w["files"])
    assert not (out / ".run.lock").exists()
    chain = scene_dict("hanging_chain")
    chain["time"]["frames"] = 2
    assert xpbd.Scene.from_dict(chain).run(out)["frames"] == 2  # the folder is free again
