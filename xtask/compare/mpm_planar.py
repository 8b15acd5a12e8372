# The planar granular column collapse of `cargo xtask collapse --planar` in MLS-MPM (Hu et al.
# 2018), on Taichi's CPU backend (`pip install taichi`), as the reference a grid method gives
# for the same continuum: plane strain (2D), APIC transfers, quadratic B-splines, 4 particles
# per cell (2 per axis), Hencky strain with the Drucker-Prager return mapping of Klar et al.
# 2016 in 2D on the library's cone (alpha_DP = sqrt(2) tan(phi) / 2 and the same 2D trace as
# `xpbi_continuum::plasticity`), the
# same sand (rho = 1600 kg/m^3, E = 3.5e5 Pa, nu = 0.3, phi = 32 deg unless given), a
# frictionless end wall at x = 0 (free slip) and a Coulomb floor (mu = 0.6) on the grid nodes.
# The column is d_i long (5 cm) and a d_i high, n particles across d_i (grid spacing 2 d_i / n);
# the step is the elastic CFL bound dt = 0.3 dx / c_p. It runs 6 sqrt(h_i/g), as ours does.
#
#   python3 xtask/compare/mpm_planar.py ASPECT [N [PHI]]
#
# prints one JSON line with the same deposit observables as `cargo xtask collapse --planar`
# (`xpbi_validation::planar_collapse`): the toe (the deposit's surface between 20 % and 60 % of
# its height fitted by a line and extended to the floor), the front where the deposit thins
# below 5 % of d_i, the connected front and the final height, over d_i.
import json, math, sys, time
import numpy as np
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=1, default_fp=ti.f64, random_seed=0,
        log_level=ti.WARN)

aspect = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
n_across = int(sys.argv[2]) if len(sys.argv) > 2 else 20
phi = float(sys.argv[3]) if len(sys.argv) > 3 else 32.0
length = 0.05
height = aspect * length
spacing = length / n_across
dx = 2.0 * spacing
inv_dx = 1.0 / dx
rho, E, nu, mu_floor, g = 1600.0, 3.5e5, 0.3, 0.6, 9.81
mu0 = E / (2 * (1 + nu))
la0 = E * nu / ((1 + nu) * (1 - 2 * nu))
# The library's Drucker-Prager cone (`FrictionCone::ShearFlow`): tan(phi) is the friction of a
# steadily shearing layer, alpha = sqrt(2) tan(phi) / d.
alpha_dp = math.sqrt(2.0) * math.tan(math.radians(phi)) / 2.0
c_p = math.sqrt((la0 + 2 * mu0) / rho)
dt = 0.3 * dx / c_p
p_vol = spacing ** 2
p_mass = rho * p_vol
timescale = math.sqrt(height / g)
seconds = 6.0 * timescale

# Domain: x in [0, L], z in [0, Z] with 3 cells of padding; the wall x = 0 and the floor z = 0
# are node layer `pad`.
pad = 3
runout_guess = 1.0 + 2.5 * max(1.2 * aspect, 1.9 * aspect ** (2.0 / 3.0))
nx = int(math.ceil(runout_guess * length / dx)) + 2 * pad
nz = int(math.ceil(1.05 * height / dx)) + 2 * pad
origin = np.array([-pad * dx, -pad * dx])

cols = np.arange(n_across) * spacing + 0.5 * spacing
layers = np.arange(int(round(height / spacing))) * spacing + 0.5 * spacing
X, Z = np.meshgrid(cols, layers, indexing='ij')
pos0 = np.stack([X.ravel(), Z.ravel()], axis=1)
n = pos0.shape[0]

x = ti.Vector.field(2, ti.f64, n)
v = ti.Vector.field(2, ti.f64, n)
C = ti.Matrix.field(2, 2, ti.f64, n)
F = ti.Matrix.field(2, 2, ti.f64, n)
grid_v = ti.Vector.field(2, ti.f64, (nx, nz))
grid_m = ti.field(ti.f64, (nx, nz))
org = ti.Vector(origin.tolist())


@ti.func
def return_map(sig):
    # Klar et al. 2016 (Hencky strain, no cohesion) in 2D: project the log strain onto the
    # Drucker-Prager cone; a dilating state goes to the tip (sigma = 1).
    eps = ti.Vector([ti.log(ti.max(sig[i, i], 1e-4)) for i in ti.static(range(2))])
    tr = eps.sum()
    dev = eps - tr / 2.0
    dev_norm = dev.norm() + 1e-30
    out = ti.Matrix.identity(ti.f64, 2)
    if tr < 0.0:
        dgamma = dev_norm + (2.0 * la0 + 2.0 * mu0) / (2.0 * mu0) * tr * alpha_dp
        h = eps
        if dgamma > 0.0:
            h = eps - dgamma / dev_norm * dev
        for i in ti.static(range(2)):
            out[i, i] = ti.exp(h[i])
    return out


@ti.kernel
def substep():
    for I in ti.grouped(grid_m):
        grid_v[I] = ti.Vector.zero(ti.f64, 2)
        grid_m[I] = 0.0
    for p in x:
        xp = (x[p] - org) * inv_dx
        base = ti.cast(xp - 0.5, ti.i32)
        fx = xp - base
        w = [0.5 * (1.5 - fx) ** 2, 0.75 - (fx - 1.0) ** 2, 0.5 * (fx - 0.5) ** 2]
        Fp = (ti.Matrix.identity(ti.f64, 2) + dt * C[p]) @ F[p]
        U, sig, V = ti.svd(Fp)
        sig = return_map(sig)
        Fp = U @ sig @ V.transpose()
        F[p] = Fp
        eps = ti.Matrix.zero(ti.f64, 2, 2)
        tr = 0.0
        for i in ti.static(range(2)):
            eps[i, i] = ti.log(sig[i, i])
            tr += eps[i, i]
        tau = U @ (2.0 * mu0 * eps + la0 * tr * ti.Matrix.identity(ti.f64, 2)) @ U.transpose()
        stress = (-dt * p_vol * 4.0 * inv_dx * inv_dx) * tau
        affine = stress + p_mass * C[p]
        for i, j in ti.static(ti.ndrange(3, 3)):
            offset = ti.Vector([i, j])
            dpos = (offset - fx) * dx
            weight = w[i][0] * w[j][1]
            grid_v[base + offset] += weight * (p_mass * v[p] + affine @ dpos)
            grid_m[base + offset] += weight * p_mass
    for I in ti.grouped(grid_m):
        if grid_m[I] > 0.0:
            vg = grid_v[I] / grid_m[I]
            vg[1] -= dt * g
            # Floor: Coulomb friction on the nodes at or below z = 0 (tangential speed reduced
            # by mu |v_n|, the normal part removed).
            if I[1] <= pad and vg[1] < 0.0:
                vn = vg[1]
                vt = vg[0]
                scale = 0.0
                if ti.abs(vt) > 1e-12:
                    scale = ti.max(0.0, 1.0 + mu_floor * vn / ti.abs(vt))
                vg = ti.Vector([vt * scale, 0.0])
            # End wall x = 0: free slip.
            if I[0] <= pad and vg[0] < 0.0:
                vg[0] = 0.0
            if I[0] > nx - pad and vg[0] > 0.0:
                vg[0] = 0.0
            if I[1] > nz - pad and vg[1] > 0.0:
                vg[1] = 0.0
            grid_v[I] = vg
    for p in x:
        xp = (x[p] - org) * inv_dx
        base = ti.cast(xp - 0.5, ti.i32)
        fx = xp - base
        w = [0.5 * (1.5 - fx) ** 2, 0.75 - (fx - 1.0) ** 2, 0.5 * (fx - 0.5) ** 2]
        new_v = ti.Vector.zero(ti.f64, 2)
        new_C = ti.Matrix.zero(ti.f64, 2, 2)
        for i, j in ti.static(ti.ndrange(3, 3)):
            offset = ti.Vector([i, j])
            dpos = offset - fx
            weight = w[i][0] * w[j][1]
            gv = grid_v[base + offset]
            new_v += weight * gv
            new_C += 4.0 * inv_dx * weight * gv.outer_product(dpos)
        v[p] = new_v
        C[p] = new_C
        x[p] += dt * new_v


def deposit(pos, dx_p, d):
    """The observables of `xpbi_validation::planar_collapse::Deposit`, over d."""
    xs, zs = pos[:, 0], pos[:, 1]
    # Surface profile: the top edge of the highest particle in columns of width 2 dx_p.
    w = 2.0 * dx_p
    nb = int(math.ceil((xs.max() + dx_p) / w)) + 1
    top = np.zeros(nb)
    np.maximum.at(top, np.clip((xs / w).astype(int), 0, nb - 1), zs + 0.5 * dx_p)
    centres = (np.arange(nb) + 0.5) * w
    h = top.max()
    peak = int(np.argmax(top))
    sel = (top >= 0.2 * h) & (top <= 0.6 * h) & (np.arange(nb) > peak)
    if sel.sum() >= 2:
        slope, intercept = np.polyfit(centres[sel], top[sel], 1)
        toe = -intercept / slope
    else:
        slope, toe = float("nan"), float("nan")
    thick = np.nonzero(top >= 0.05 * d)[0]
    front5 = (thick.max() + 1) * w
    order = np.sort(xs)
    front = order[0]
    for xv in order[1:]:
        if xv - front > 1.5 * dx_p:
            break
        front = xv
    return {
        "runout_toe": (toe - d) / d,
        "runout_thickness5": (front5 - d) / d,
        "runout_front": (front + 0.5 * dx_p - d) / d,
        "height": h / d,
        "slope_degrees": math.degrees(math.atan(-slope)),
    }


x.from_numpy(pos0)
v.fill(0)
C.fill(0)
F.from_numpy(np.broadcast_to(np.eye(2), (n, 2, 2)).copy())
steps = int(math.ceil(seconds / dt))
substep()  # compiles the kernels; part of the simulation, not of the timing
ti.sync()
t0 = time.perf_counter()
for _ in range(steps - 1):
    substep()
ti.sync()
wall = time.perf_counter() - t0
pos = x.to_numpy()
line = {
    "lib": "MLS-MPM on Taichi " + ".".join(map(str, ti.__version__)) + " (CPU, f64, 1 thread)",
    "aspect": aspect, "particles_across": n_across, "friction_angle": phi, "particles": n,
    "grid_dx_m": dx, "dt_s": float(f"{dt:.4e}"), "steps": steps,
    "simulated_s": float(f"{steps * dt:.4f}"), "wall_seconds": round(wall, 3),
    "finite": bool(np.isfinite(pos).all()),
}
line.update({k: round(float(val), 4) if math.isfinite(val) else None
             for k, val in deposit(pos, spacing, length).items()})
print(json.dumps(line))
if len(sys.argv) > 4:
    np.savetxt(sys.argv[4], pos)
