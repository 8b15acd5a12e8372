// Rotation-variant 3×3 SVD in f32 (XPBI building block: kernel-gradient correction and the
// return mappings). A port of xpbd_core::energy::svd::rotation_variant_svd:
// F = U diag(σ) Vᵀ with det U = det V = +1, |σ₀| ≥ |σ₁| ≥ |σ₂|, σ₀, σ₁ ≥ 0 and
// sign(σ₂) = sign(det F) (Irving, Teran & Fedkiw 2004 §5), by one-sided (Hestenes) Jacobi
// rotations on the columns of F (Demmel & Veselić 1992).
//
// A function library without bindings: prepend this file to a module that uses `svd3`.

const SVD_EPS: f32 = 1.1920929e-7;
const SVD_MAX_SWEEPS: u32 = 16u;

struct Svd3 {
    u: mat3x3<f32>,
    sigma: vec3<f32>,
    v: mat3x3<f32>,
}

fn svd_max_abs(c: vec3<f32>) -> f32 {
    return max(max(abs(c.x), abs(c.y)), abs(c.z));
}

fn svd_det(c0: vec3<f32>, c1: vec3<f32>, c2: vec3<f32>) -> f32 {
    return dot(c0, cross(c1, c2));
}

fn svd_basis(e: u32) -> vec3<f32> {
    var w = vec3<f32>(0.0);
    w[e] = 1.0;
    return w;
}

fn svd3(f: mat3x3<f32>) -> Svd3 {
    let identity = mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0));
    let scale = max(max(svd_max_abs(f[0]), svd_max_abs(f[1])), svd_max_abs(f[2]));
    // Zero or non-finite input (exponent bits all ones = inf/NaN): U = V = I, σ = diagonal.
    let bits = bitcast<u32>(scale) & 0x7f800000u;
    if scale == 0.0 || bits == 0x7f800000u {
        return Svd3(identity, vec3<f32>(f[0][0], f[1][1], f[2][2]), identity);
    }
    var a = array<vec3<f32>, 3>(f[0], f[1], f[2]);
    var v = array<vec3<f32>, 3>(identity[0], identity[1], identity[2]);
    for (var sweep = 0u; sweep < SVD_MAX_SWEEPS; sweep++) {
        var rotated = false;
        for (var p = 0u; p < 2u; p++) {
            for (var q = p + 1u; q < 3u; q++) {
                let alpha = dot(a[p], a[p]);
                let beta = dot(a[q], a[q]);
                let gamma = dot(a[p], a[q]);
                if gamma == 0.0 || abs(gamma) <= SVD_EPS * sqrt(alpha * beta) {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let sgn = select(-1.0, 1.0, zeta >= 0.0);
                let t = sgn / (abs(zeta) + sqrt(1.0 + zeta * zeta));
                let c = 1.0 / sqrt(1.0 + t * t);
                let s = c * t;
                let ap = a[p];
                let aq = a[q];
                a[p] = c * ap - s * aq;
                a[q] = s * ap + c * aq;
                let vp = v[p];
                let vq = v[q];
                v[p] = c * vp - s * vq;
                v[q] = s * vp + c * vq;
            }
        }
        if !rotated {
            break;
        }
    }
    // Column norms are the singular values; order them decreasingly (stable on ties).
    var norms = vec3<f32>(length(a[0]), length(a[1]), length(a[2]));
    var order = vec3<u32>(0u, 1u, 2u);
    for (var i = 0u; i < 2u; i++) {
        for (var j = 0u; j < 2u - i; j++) {
            if norms[order[j]] < norms[order[j + 1u]] {
                let tmp = order[j];
                order[j] = order[j + 1u];
                order[j + 1u] = tmp;
            }
        }
    }
    let tiny = scale * SVD_EPS * 4.0;
    var u: array<vec3<f32>, 3>;
    var vs: array<vec3<f32>, 3>;
    var sigma = vec3<f32>(0.0);
    for (var d = 0u; d < 3u; d++) {
        let src = order[d];
        vs[d] = v[src];
        if norms[src] > tiny {
            sigma[d] = norms[src];
            u[d] = a[src] / norms[src];
        } else {
            sigma[d] = 0.0;
            u[d] = vec3<f32>(0.0);
        }
    }
    // Complete the columns of zero singular values to an orthonormal basis (Gram-Schmidt of
    // the canonical vector that keeps the largest norm).
    for (var j = 0u; j < 3u; j++) {
        if abs(sigma[j]) > tiny {
            continue;
        }
        var best = vec3<f32>(0.0);
        var best_norm = -1.0;
        for (var e = 0u; e < 3u; e++) {
            var w = svd_basis(e);
            for (var k = 0u; k < 3u; k++) {
                if k != j && (abs(sigma[k]) > tiny || k < j) {
                    w -= u[k] * dot(u[k], w);
                }
            }
            let n = length(w);
            if n > best_norm {
                best_norm = n;
                best = w / n;
            }
        }
        u[j] = best;
    }
    // Proper rotations; the sign goes on the smallest singular value.
    if svd_det(u[0], u[1], u[2]) < 0.0 {
        u[2] = -u[2];
        sigma.z = -sigma.z;
    }
    if svd_det(vs[0], vs[1], vs[2]) < 0.0 {
        vs[2] = -vs[2];
        sigma.z = -sigma.z;
    }
    return Svd3(mat3x3<f32>(u[0], u[1], u[2]), sigma, mat3x3<f32>(vs[0], vs[1], vs[2]));
}
