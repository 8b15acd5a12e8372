"""A control loop: step a scene frame by frame, read its state, decide, record.

A cotton sheet falls onto a slumping sand heap (scenes/cloth_on_sand_heap.toml). Every frame
we read the sheet's and the heap's positions as NumPy arrays, and stop a few frames after the
sheet first comes within a contact distance of the sand. Each frame is recorded in a USD
stage (xpbd.usd.UsdWriter: Houdini, Blender, Omniverse open it) when usd-core is installed,
or else as the scene's own frame files (Scene.write_frame: VTK).

    python python/examples/control_loop.py --out out/loop       # writes out/loop/loop.usda
    python python/examples/control_loop.py --quick --out /tmp/x  # small (the test suite)
"""

import argparse
import os
import pathlib

import numpy as np
import xpbd

SCENES = pathlib.Path(__file__).resolve().parents[2] / "scenes"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    default=os.environ.get("XPBD_EXAMPLES_QUICK") == "1",
                    help="a coarser sheet and heap")
    ap.add_argument("--out", default="xpbd-control-loop", help="output folder")
    ap.add_argument("--max-frames", type=int, default=40)
    args = ap.parse_args()
    out = pathlib.Path(args.out)

    d = xpbd.Scene.from_file(SCENES / "cloth_on_sand_heap.toml").to_dict()
    if args.quick:
        d["cloth"][0]["resolution"] = [10, 10]
        d["continuum"][0]["spacing"] = 0.016
    scene = xpbd.Scene.from_dict(d)
    # Touching: a sheet particle within two contact radii ([contacts] radius) plus one sand
    # particle spacing of a sand particle (the sheet's particles can lie between the sand's).
    touch = 2 * scene.bodies()[0]["radius"] + d["continuum"][0]["spacing"]

    # Record in USD if we can; the scene's own frame files otherwise.
    try:
        recorder = xpbd.usd.UsdWriter(out / "loop.usda", scene)
    except xpbd.usd.UsdUnavailableError as e:
        print(f"({e}; writing VTK frames instead)")
        recorder = None

    def record() -> None:
        if recorder is not None:
            recorder.write()  # a time sample at the current frame
        else:
            scene.write_frame(out)

    record()
    touched = None
    while scene.frame < args.max_frames:
        scene.advance_frame()  # steps_per_frame steps, without the GIL
        sheet = scene.positions("sheet")  # (n, 3) float64 copies
        heap = scene.positions("heap")
        # the distance from each sheet particle to the nearest sand particle (brute force is
        # fine at these sizes; use scipy.spatial.cKDTree for large ones)
        gap = np.sqrt(((sheet[:, None, :] - heap[None, :, :]) ** 2).sum(-1)).min()
        speed = np.linalg.norm(scene.velocities("sheet"), axis=1).max()
        print(f"frame {scene.frame:3d}  t = {scene.time:.3f} s  sheet z_min = "
              f"{sheet[:, 2].min():.4f} m  gap to sand = {gap:.4f} m  max speed = {speed:.3f} m/s")
        record()
        if touched is None and gap <= touch:
            touched = scene.frame
        if touched is not None and scene.frame >= touched + 3:
            break

    if recorder is not None:
        print(f"wrote {recorder.close()} ({len(recorder.times)} time samples)")
    if touched is None:
        print(f"the sheet did not reach the sand in {scene.frame} frames")
    else:
        print(f"the sheet reached the sand at frame {touched}")


if __name__ == "__main__":
    main()
