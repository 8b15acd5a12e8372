"""Parameter sweep: the friction angle of a sand column against how far it runs out.

A column of dry sand (scenes/sand_column_2d.toml: XPBI Drucker-Prager, plane strain) collapses
under gravity. For each friction angle φ we edit the scene as a dict (the TOML scene format),
build it, advance it by a fixed time and measure the runout: how far the sand front moved
past the column's initial edge. Lower friction, longer runout.

    python python/examples/sweep_friction.py            # φ = 20, 25, ..., 45 degrees
    python python/examples/sweep_friction.py --quick    # small and short (the test suite)
"""

import argparse
import copy
import os
import pathlib
import time

import xpbd

SCENES = pathlib.Path(__file__).resolve().parents[2] / "scenes"


def column_scene(quick: bool) -> dict:
    """scenes/sand_column_2d.toml as a dict (Scene.to_dict works on every Python >= 3.9;
    tomllib.loads(path.read_text()) is the same on 3.11+)."""
    d = xpbd.Scene.from_file(SCENES / "sand_column_2d.toml").to_dict()
    if quick:
        # a narrower, lower column: 10 x 20 particles instead of 20 x 40
        d["continuum"][0]["region"]["box"]["min"] = [-0.025, -0.0025, 0.0]
        d["continuum"][0]["region"]["box"]["max"] = [0.025, 0.0025, 0.1]
    return d


def runout(scene: xpbd.Scene, x0_edge: float) -> float:
    """How far (m) the front (the largest x) moved past the initial edge x0_edge."""
    return float(scene.positions()[:, 0].max() - x0_edge)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    default=os.environ.get("XPBD_EXAMPLES_QUICK") == "1",
                    help="a small column, three angles, a short run")
    ap.add_argument("--seconds", type=float, default=None, help="simulated time per run")
    args = ap.parse_args()

    base = column_scene(args.quick)
    angles = [20.0, 30.0, 45.0] if args.quick else [20.0, 25.0, 30.0, 35.0, 40.0, 45.0]
    seconds = args.seconds if args.seconds is not None else (0.15 if args.quick else 0.5)

    print(f"{'phi (deg)':>10} {'runout (m)':>11} {'particles':>10} {'wall (s)':>9}")
    results = []
    for phi in angles:
        d = copy.deepcopy(base)
        # Replace the preset's plasticity (Drucker-Prager 30 deg) by our own angle; the preset
        # still supplies density, Young's modulus and Poisson's ratio.
        d["materials"]["sand"]["plasticity"] = {"drucker_prager": {"friction_angle": phi}}
        scene = xpbd.Scene.from_dict(d)
        edge = float(scene.positions()[:, 0].max())
        start = time.perf_counter()
        # advance() takes a whole number of steps of dt (ValueError otherwise); the scene
        # splits them below the continuum's CFL bound when it is adaptive.
        scene.advance(round(seconds / scene.dt) * scene.dt)
        r = runout(scene, edge)
        results.append((phi, r))
        print(f"{phi:>10.1f} {r:>11.4f} {len(scene):>10d} {time.perf_counter() - start:>9.2f}")

    longest = max(results, key=lambda pr: pr[1])[0]
    print(f"longest runout at phi = {longest:.1f} deg")


if __name__ == "__main__":
    main()
