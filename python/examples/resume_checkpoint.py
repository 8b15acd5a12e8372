"""Checkpoints: save a run part-way, load it later (another process, another day) and go on.

A sand block drops onto rough ground (scenes/sand_block.toml). We run it to frame K saving a
checkpoint, then load that checkpoint into a fresh Scene and continue to frame N. A checkpoint
holds the scene text and every bit of state (positions, velocities, XPBI's deformation
gradients and hardening, the multipliers), so the resumed run is bit-identical to one that
never stopped -- which this script checks against a straight run.

    python python/examples/resume_checkpoint.py --out out/ckpt
    python python/examples/resume_checkpoint.py --quick --out /tmp/x   # the test suite
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
                    help="few frames")
    ap.add_argument("--out", default="xpbd-checkpoints", help="output folder")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    k, n = (2, 4) if args.quick else (10, 40)

    # 1. The first part of the run: to frame K, then save.
    first = xpbd.Scene.from_file(SCENES / "sand_block.toml")
    first.advance_frame(k)
    ckpt = out / f"sand_block_{k:05d}.ckpt"
    first.save_checkpoint(ckpt)  # atomically; Scene.run(out, checkpoint_every=K) also writes them
    print(f"saved {ckpt} at frame {first.frame} (t = {first.time:.3f} s, "
          f"{ckpt.stat().st_size} bytes)")
    del first

    # 2. Later: load the checkpoint (it checks the format, a checksum and that the scene file
    #    and meshes are unchanged) and continue to frame N.
    resumed = xpbd.Scene.load_checkpoint(ckpt)
    print(f"loaded {resumed.name!r} at frame {resumed.frame}; continuing to frame {n}")
    resumed.advance_frame(n - resumed.frame)
    det_f = resumed.fields()["det_F"]
    print(f"frame {resumed.frame}: det F in [{det_f.min():.4f}, {det_f.max():.4f}], "
          f"lowest particle z = {resumed.positions()[:, 2].min():.4f} m")

    # 3. The check: a run that never stopped ends in the same bits.
    straight = xpbd.Scene.from_file(SCENES / "sand_block.toml")
    straight.advance_frame(n)
    same = (np.array_equal(straight.positions(), resumed.positions())
            and np.array_equal(straight.velocities(), resumed.velocities())
            and straight.time == resumed.time)
    print(f"resumed run matches the straight run bit for bit: {same}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
