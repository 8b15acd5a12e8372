# The benchmark sand column of `cargo xtask bench xpbi` in MLS-MPM (Hu et al. 2018, "A moving
# least squares material point method with displacement discontinuity and two-way rigid body
# coupling"), written on Taichi's CPU backend (`pip install taichi`): f32, APIC transfers,
# quadratic B-splines, 8 particles per cell (2 per axis), Hencky strain with the Drucker-Prager
# return mapping of Klar et al. 2016 (no cohesion) on the library's cone (alpha = sqrt(2) tan(phi)/3,
# `xpbi_continuum::plasticity::FrictionCone::ShearFlow`), Coulomb friction on the ground nodes.
# The column is ours: 0.2 x 0.2 x 0.4 m (z up), rho = 1600 kg/m^3, E = 3.5e5 Pa, nu = 0.3,
# friction angle 30 deg, ground friction 0.5, released at rest; particle spacing 0.01 m gives
# 20 x 20 x 40 = 16 000 particles. The step is the elastic CFL bound, dt = 0.3 dx / c_p
# (3.5e-4 s at dx = 0.02 m). The wall time covers the steps only, after a warm-up step that
# compiles the kernels. Run it beside ours, one thread each:
#
#   python3 xtask/compare/mpm_column.py [SECONDS [H]]
#   cargo xtask bench xpbi --particles 16000 --threads 1 --adaptive --dt 1e-3 --seconds 1.0
#
# and compare the `us_per_particle_simulated_second` of the two JSON lines (the deposit
# figures, 99th-percentile height and 95th-percentile runout, are computed as ours are).
import json, math, sys, time
import numpy as np
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=1, default_fp=ti.f32, random_seed=0,
        log_level=ti.WARN)

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
spacing = 0.01
dx = 2.0 * spacing
inv_dx = 1.0 / dx
rho, E, nu, phi, mu_ground, g = 1600.0, 3.5e5, 0.3, 30.0, 0.5, 9.81
mu0 = E / (2 * (1 + nu))
la0 = E * nu / ((1 + nu) * (1 - 2 * nu))
# The library's Drucker-Prager cone (`FrictionCone::ShearFlow`): tan(phi) is the friction of a
# steadily shearing layer, alpha = sqrt(2) tan(phi) / d.
alpha_dp = math.sqrt(2.0) * math.tan(math.radians(phi)) / 3.0
c_p = math.sqrt((la0 + 2 * mu0) / rho)
dt = 0.3 * dx / c_p
p_vol = spacing ** 3
p_mass = rho * p_vol

# Domain: x, y in [-H, H] (H = 0.5 m, or the second argument), z in [0, 0.6], with 3 cells of
# padding on every side; `max_radius_m` in the output shows that the pile stays inside.
pad = 3
half = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
nxy = int(round(2 * half / dx)) + 2 * pad
nz = int(round(0.6 / dx)) + 2 * pad
origin = np.array([-half - pad * dx, -half - pad * dx, -pad * dx], dtype=np.float32)

cols = np.arange(20) * spacing + 0.5 * spacing - 0.1
layers = np.arange(40) * spacing + 0.5 * spacing
X, Y, Z = np.meshgrid(cols, cols, layers, indexing='ij')
pos0 = np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1).astype(np.float32)
n = pos0.shape[0]

x = ti.Vector.field(3, ti.f32, n)
v = ti.Vector.field(3, ti.f32, n)
C = ti.Matrix.field(3, 3, ti.f32, n)
F = ti.Matrix.field(3, 3, ti.f32, n)
grid_v = ti.Vector.field(3, ti.f32, (nxy, nxy, nz))
grid_m = ti.field(ti.f32, (nxy, nxy, nz))
org = ti.Vector(origin.tolist())


@ti.func
def return_map(sig):
    # Klar et al. 2016, eq. 27-28 (Hencky strain, no cohesion): project the log strain onto the
    # Drucker-Prager cone; a dilating state goes to the tip (sigma = 1).
    eps = ti.Vector([ti.log(ti.max(sig[i, i], 1e-4)) for i in ti.static(range(3))])
    tr = eps.sum()
    dev = eps - tr / 3.0
    dev_norm = dev.norm() + 1e-20
    out = ti.Matrix.identity(ti.f32, 3)
    if tr < 0.0:
        dgamma = dev_norm + (3.0 * la0 + 2.0 * mu0) / (2.0 * mu0) * tr * alpha_dp
        h = eps
        if dgamma > 0.0:
            h = eps - dgamma / dev_norm * dev
        for i in ti.static(range(3)):
            out[i, i] = ti.exp(h[i])
    return out


@ti.kernel
def substep():
    for I in ti.grouped(grid_m):
        grid_v[I] = ti.Vector.zero(ti.f32, 3)
        grid_m[I] = 0.0
    for p in x:
        xp = (x[p] - org) * inv_dx
        base = ti.cast(xp - 0.5, ti.i32)
        fx = xp - base
        w = [0.5 * (1.5 - fx) ** 2, 0.75 - (fx - 1.0) ** 2, 0.5 * (fx - 0.5) ** 2]
        Fp = (ti.Matrix.identity(ti.f32, 3) + dt * C[p]) @ F[p]
        U, sig, V = ti.svd(Fp)
        sig = return_map(sig)
        Fp = U @ sig @ V.transpose()
        F[p] = Fp
        eps = ti.Matrix.zero(ti.f32, 3, 3)
        tr = 0.0
        for i in ti.static(range(3)):
            eps[i, i] = ti.log(sig[i, i])
            tr += eps[i, i]
        tau = U @ (2.0 * mu0 * eps + la0 * tr * ti.Matrix.identity(ti.f32, 3)) @ U.transpose()
        stress = (-dt * p_vol * 4.0 * inv_dx * inv_dx) * tau
        affine = stress + p_mass * C[p]
        for i, j, k in ti.static(ti.ndrange(3, 3, 3)):
            offset = ti.Vector([i, j, k])
            dpos = (offset - fx) * dx
            weight = w[i][0] * w[j][1] * w[k][2]
            grid_v[base + offset] += weight * (p_mass * v[p] + affine @ dpos)
            grid_m[base + offset] += weight * p_mass
    for I in ti.grouped(grid_m):
        if grid_m[I] > 0.0:
            vg = grid_v[I] / grid_m[I]
            vg[2] -= dt * g
            # The ground plane z = 0 is node layer `pad`: Coulomb friction on the nodes at or
            # below it (tangential speed reduced by mu |v_n|, the normal part removed).
            if I[2] <= pad and vg[2] < 0.0:
                vn = vg[2]
                vt = ti.Vector([vg[0], vg[1], 0.0])
                vt_norm = vt.norm()
                scale = 0.0
                if vt_norm > 1e-12:
                    scale = ti.max(0.0, 1.0 + mu_ground * vn / vt_norm)
                vg = vt * scale
            for d in ti.static(range(2)):
                if (I[d] < pad and vg[d] < 0.0) or (I[d] > nxy - pad and vg[d] > 0.0):
                    vg[d] = 0.0
            if I[2] > nz - pad and vg[2] > 0.0:
                vg[2] = 0.0
            grid_v[I] = vg
    for p in x:
        xp = (x[p] - org) * inv_dx
        base = ti.cast(xp - 0.5, ti.i32)
        fx = xp - base
        w = [0.5 * (1.5 - fx) ** 2, 0.75 - (fx - 1.0) ** 2, 0.5 * (fx - 0.5) ** 2]
        new_v = ti.Vector.zero(ti.f32, 3)
        new_C = ti.Matrix.zero(ti.f32, 3, 3)
        for i, j, k in ti.static(ti.ndrange(3, 3, 3)):
            offset = ti.Vector([i, j, k])
            dpos = offset - fx
            weight = w[i][0] * w[j][1] * w[k][2]
            gv = grid_v[base + offset]
            new_v += weight * gv
            new_C += 4.0 * inv_dx * weight * gv.outer_product(dpos)
        v[p] = new_v
        C[p] = new_C
        x[p] += dt * new_v


x.from_numpy(pos0)
v.fill(0)
C.fill(0)
F.from_numpy(np.broadcast_to(np.eye(3, dtype=np.float32), (n, 3, 3)).copy())
steps = int(math.ceil(seconds / dt))
substep()  # compiles the kernels; part of the simulation, not of the timing
ti.sync()
t0 = time.perf_counter()
for _ in range(steps - 1):
    substep()
ti.sync()
wall = time.perf_counter() - t0
pos = x.to_numpy()
finite = bool(np.isfinite(pos).all())
height = float(np.percentile(pos[:, 2], 99))
r = np.hypot(pos[:, 0], pos[:, 1])
runout = float(np.percentile(r, 95))
us_step = wall * 1e6 / (n * (steps - 1))
print(json.dumps({
    "lib": "MLS-MPM on Taichi " + ".".join(map(str, ti.__version__)) + " (CPU, f32, 1 thread)",
    "particles": n, "grid_dx_m": round(dx, 6), "dt_s": float(f"{dt:.4e}"), "steps": steps,
    "simulated_s": float(f"{steps * dt:.4f}"), "wall_seconds": round(wall, 3),
    "us_per_particle_step": round(us_step, 4),
    "us_per_particle_simulated_second": round(us_step / dt, 1),
    "pile_height_m": round(height, 5), "runout_radius_m": round(runout, 5),
    "max_radius_m": round(float(r.max()), 4), "finite": finite,
}))
