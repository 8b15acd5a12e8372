# The benchmark cloth of `cargo xtask bench cloth --n N` in Bender's PositionBasedDynamics
# (the C++ library through its Python wheel, `pip install pypbd`): N x N particles, 1 kg,
# structural + both shear diagonals as distance constraints (PBD stiffness 1, or XPBD
# compliance 0 with the argument `xpbd`), two corners pinned, 10 substeps x 1 iteration, 120
# frames of 1/60 s; the wall time covers the steps only. Run it beside ours, one thread each:
#
#   OMP_NUM_THREADS=1 python3 xtask/compare/pbd_cloth.py 64 [xpbd]
#   cargo xtask bench cloth --n 64 --solver colored --threads 1
#
# and compare the `us_per_particle_per_substep` of the two JSON lines.
import sys, time
import numpy as np
import pypbd as pbd
n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
xpbd = len(sys.argv) > 2 and sys.argv[2] == 'xpbd'
sim = pbd.Simulation.getCurrent()
sim.initDefault()
model = sim.getModel()
tm = model.addRegularTriangleModel(n, n, np.array([0.0, 0.0, 0.0]), np.eye(3), np.array([1.0, 1.0]))
pd = model.getParticles()
N = pd.getNumberOfParticles()
for i in range(N):
    pd.setMass(i, 1.0 / N)
pd.setMass(0, 0.0)
pd.setMass(n - 1, 0.0)
add = model.addDistanceConstraint_XPBD if xpbd else model.addDistanceConstraint
stiff = 0.0 if xpbd else 1.0
idx = lambda i, j: j * n + i
count = 0
for j in range(n):
    for i in range(n):
        if i + 1 < n: add(idx(i, j), idx(i + 1, j), stiff); count += 1
        if j + 1 < n: add(idx(i, j), idx(i, j + 1), stiff); count += 1
        if i + 1 < n and j + 1 < n:
            add(idx(i, j), idx(i + 1, j + 1), stiff); count += 1
            add(idx(i + 1, j), idx(i, j + 1), stiff); count += 1
model.initConstraintGroups()
ts = sim.getTimeStep()
ts.setValueUInt(pbd.TimeStepController.NUM_SUB_STEPS, 10)
ts.setValueUInt(pbd.TimeStepController.MAX_ITERATIONS, 1)
pbd.TimeManager.getCurrent().setTimeStepSize(1.0 / 60.0)
frames = 120
t0 = time.perf_counter()
for _ in range(frames):
    ts.step(model)
wall = time.perf_counter() - t0
low = min(pd.getPosition(i)[1] for i in range(N))
print(f'{{"lib":"PositionBasedDynamics {pbd.__name__}","n":{n},"particles":{N},"constraints":{count},'
      f'"wall_seconds":{wall:.4f},"us_per_particle_per_substep":{wall * 1e6 / (N * frames * 10):.4f},"lowest_y":{low:.4f}}}')
