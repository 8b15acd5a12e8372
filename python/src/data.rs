//! The scene's state as NumPy arrays (copies): positions, velocities, the per-particle fields
//! the frame files carry, the bodies and the cells.

use std::ops::Range;

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use xpbd_core::Vector;

use crate::scene::Scene;

/// An (n, 3) float64 array of `v`.
fn vectors<'py>(py: Python<'py>, v: &[Vector<3>]) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let flat: Vec<f64> = v.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
    PyArray1::from_vec(py, flat).reshape([v.len(), 3])
}

/// An (m, K) int64 array of index tuples.
fn cells<'py, const K: usize>(
    py: Python<'py>,
    c: &[[usize; K]],
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let flat: Vec<i64> = c.iter().flatten().map(|&i| i as i64).collect();
    PyArray1::from_vec(py, flat).reshape([c.len(), K])
}

impl Scene {
    /// The particles of the body named `body`, or all of them.
    fn range(&self, body: Option<&str>) -> PyResult<Range<usize>> {
        let Some(name) = body else {
            return Ok(0..self.built.sim.particles().len());
        };
        self.built
            .bodies
            .iter()
            .find(|b| b.name == name)
            .map(|b| b.particles.clone())
            .ok_or_else(|| {
                let known: Vec<&str> = self.built.bodies.iter().map(|b| b.name.as_str()).collect();
                PyKeyError::new_err(format!("no body named {name:?} (the bodies are {known:?})"))
            })
    }
}

#[pymethods]
impl Scene {
    /// The bodies' names, in particle order (``name`` in the scene, else the field, e.g.
    /// ``"cloth[0]"``).
    fn body_names(&self) -> Vec<String> {
        self.built.bodies.iter().map(|b| b.name.clone()).collect()
    }

    /// Every body as a dict: ``name``, ``field`` (``"cloth[0]"``), ``kind`` (``"cloth"``,
    /// ``"rope"``, ``"solid"``, ``"continuum"``, ``"fluid"``), ``first`` and ``count`` (its
    /// particles are ``first:first+count``) and ``radius`` (its contact radius, m).
    fn bodies<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for b in &self.built.bodies {
            let d = PyDict::new(py);
            d.set_item("name", &b.name)?;
            d.set_item("field", &b.field)?;
            d.set_item("kind", b.kind.label())?;
            d.set_item("first", b.particles.start)?;
            d.set_item("count", b.particles.len())?;
            d.set_item("radius", b.radius)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Positions (m) as a new float64 array of shape (n, 3): a copy, which later steps do
    /// not change. ``body``: only that body's particles (``KeyError`` for an unknown name).
    #[pyo3(signature = (body = None))]
    fn positions<'py>(
        &self,
        py: Python<'py>,
        body: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let r = self.range(body)?;
        vectors(py, &self.built.sim.particles().x[r])
    }

    /// Velocities (m/s) as a new float64 array of shape (n, 3) (a copy); ``body`` as in
    /// ``positions``.
    #[pyo3(signature = (body = None))]
    fn velocities<'py>(
        &self,
        py: Python<'py>,
        body: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let r = self.range(body)?;
        vectors(py, &self.built.sim.particles().v[r])
    }

    /// The per-particle fields the frame files carry, as a dict of new 1-D arrays (copies):
    /// ``inv_mass`` (1/kg; 0 = pinned) and ``material_id`` (uint32, an index into
    /// ``material_names()``) always; with a continuum ``det_F``, ``hardening``,
    /// ``volume_correction`` and ``lambda`` (det F = 1 and 0 for particles of other bodies);
    /// with a fluid ``density`` (kg/m³) and ``pressure`` (Pa). ``body`` as in ``positions``.
    #[pyo3(signature = (body = None))]
    fn fields<'py>(&self, py: Python<'py>, body: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
        let r = self.range(body)?;
        let p = self.built.sim.particles();
        let d = PyDict::new(py);
        d.set_item("inv_mass", PyArray1::from_slice(py, &p.inv_mass[r.clone()]))?;
        let material = &self.built.topology.particle_material;
        let ids: Vec<u32> = r
            .clone()
            .map(|i| material.get(i).copied().unwrap_or(0))
            .collect();
        d.set_item("material_id", PyArray1::from_vec(py, ids))?;
        let fields = self.built.particle_fields();
        for (name, values) in fields.named(p.len()) {
            d.set_item(name, PyArray1::from_slice(py, &values[r.clone()]))?;
        }
        Ok(d)
    }

    /// The triangles of the body named ``body`` (a cloth's triangles, or a soft body's
    /// boundary faces; none for ropes, continua and fluids) as an int64 array of shape (m, 3)
    /// of indices into ``positions(body)``. ``KeyError`` for an unknown name.
    fn triangles<'py>(&self, py: Python<'py>, body: &str) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let r = self.range(Some(body))?;
        let b = self.built.bodies.iter().find(|b| b.name == body);
        let local: Vec<[usize; 3]> = b
            .map(|b| b.triangles.iter().map(|t| t.map(|i| i - r.start)).collect())
            .unwrap_or_default();
        cells(py, &local)
    }

    /// The rigid bodies' names (``[[rigid]]`` ``name``, else ``rigid[k]``), in the order of
    /// the rows of ``rigid_states()``; empty without rigid bodies.
    fn rigid_names(&self) -> Vec<String> {
        let n = self.built.rigid().map_or(0, |r| r.bodies().len());
        (0..n)
            .map(|k| {
                (self.built.scene.rigid.get(k).and_then(|r| r.name.clone()))
                    .unwrap_or_else(|| format!("rigid[{k}]"))
            })
            .collect()
    }

    /// The rigid bodies' state as a float64 array of shape (k, 13), one row per body in the
    /// order of ``rigid_names()``: centre of mass x, y, z (m), orientation quaternion qw, qx,
    /// qy, qz (body → world), velocity vx, vy, vz (m/s), angular velocity wx, wy, wz (rad/s,
    /// world axes). A copy; (0, 13) without rigid bodies.
    fn rigid_states<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let bodies = self.built.rigid().map_or(&[][..], |r| r.bodies());
        let flat: Vec<f64> = bodies.iter().flat_map(|b| b.state()).collect();
        PyArray1::from_vec(py, flat).reshape([bodies.len(), xpbd_core::rigid::STATE_LEN])
    }

    /// The material names (sorted, as in ``[materials]``); ``material_id`` indexes them.
    fn material_names(&self) -> Vec<String> {
        self.built.topology.material_names.clone()
    }

    /// The cells written with every frame, as int64 arrays of particle indices: ``segments``
    /// (m, 2), ``triangles`` (m, 3) and ``tets`` (m, 4).
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = &self.built.topology;
        let d = PyDict::new(py);
        d.set_item("segments", cells(py, &t.segments)?)?;
        d.set_item("triangles", cells(py, &t.triangles)?)?;
        d.set_item("tets", cells(py, &t.tets)?)?;
        Ok(d)
    }
}
