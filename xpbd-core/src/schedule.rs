//! Schedules for coloured (parallel) Gauss-Seidel.
//!
//! A [`Schedule`] orders constraints into colours; each colour is split into tasks, and two
//! tasks of one colour never touch the same particle. Inside a task constraints run in a fixed
//! order. So a colour's tasks may run on any number of threads, in any order, with bit-identical
//! results: the determinism contract of the coloured solver.
//!
//! Mesh constraints get a greedy graph colouring computed once per topology
//! ([`Schedule::greedy`]); particle continua (XPBI) build a spatial cell colouring each step with
//! the same type (one task per grid cell).

use std::ops::Range;

/// Colours → tasks → constraints, see the module docs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Schedule {
    /// Constraint indices in processing order.
    pub order: Vec<u32>,
    /// For each colour, its tasks as ranges into [`Schedule::order`].
    pub colours: Vec<Vec<Range<u32>>>,
}

impl Schedule {
    /// Greedy colouring of the constraint–particle incidence graph, visiting constraints in
    /// index order and giving each the smallest colour not used by any of its particles.
    /// Inside a colour, constraints are ordered by their lowest particle index (stable), so
    /// that a sweep walks the particles in memory order and a contiguous slice of a colour's
    /// tasks covers one region of the mesh (a thread keeps its particles in its own cache).
    /// All constraints of a colour are independent, so this order changes no result.
    /// Each colour is then cut into tasks of at most `task_size` constraints.
    ///
    /// `stencil(c)` lists the particles of constraint `c`, all `< n_particles`.
    pub fn greedy<'a>(
        n_constraints: usize,
        n_particles: usize,
        stencil: impl Fn(usize) -> &'a [u32],
        task_size: usize,
    ) -> Self {
        // Upper bound on colours: a constraint conflicts with at most Σ_k (deg(p_k) − 1) others.
        let mut degree = vec![0u32; n_particles];
        let mut max_arity = 0;
        for c in 0..n_constraints {
            let s = stencil(c);
            max_arity = max_arity.max(s.len());
            for &p in s {
                degree[p as usize] += 1;
            }
        }
        let max_degree = degree.iter().copied().max().unwrap_or(0) as usize;
        let bound = max_arity * max_degree.saturating_sub(1) + 1;
        let words = bound.div_ceil(64).max(1);
        let mut used = vec![0u64; n_particles * words];
        let mut colour_of = vec![0u32; n_constraints];
        let mut n_colours = 0usize;
        let mut mask = vec![0u64; words];
        for c in 0..n_constraints {
            mask.iter_mut().for_each(|m| *m = 0);
            for &p in stencil(c) {
                let row = &used[p as usize * words..(p as usize + 1) * words];
                for (m, u) in mask.iter_mut().zip(row) {
                    *m |= *u;
                }
            }
            let colour = mask
                .iter()
                .enumerate()
                .find(|(_, m)| **m != u64::MAX)
                .map(|(w, m)| w * 64 + m.trailing_ones() as usize)
                .expect("colour bound is an upper bound");
            colour_of[c] = colour as u32;
            n_colours = n_colours.max(colour + 1);
            for &p in stencil(c) {
                used[p as usize * words + colour / 64] |= 1 << (colour % 64);
            }
        }
        let mut schedule = Self::from_colours(&colour_of, n_colours, task_size);
        let lowest = |c: &u32| stencil(*c as usize).iter().copied().min().unwrap_or(0);
        for colour in &schedule.colours {
            let (Some(first), Some(last)) = (colour.first(), colour.last()) else {
                continue;
            };
            schedule.order[first.start as usize..last.end as usize].sort_by_key(lowest);
        }
        schedule
    }

    /// Builds a schedule from a colour per constraint, keeping index order inside a colour and
    /// cutting colours into tasks of at most `task_size` constraints (all independent).
    pub fn from_colours(colour_of: &[u32], n_colours: usize, task_size: usize) -> Self {
        let task_size = task_size.max(1) as u32;
        let mut counts = vec![0u32; n_colours + 1];
        for &c in colour_of {
            counts[c as usize + 1] += 1;
        }
        for k in 0..n_colours {
            counts[k + 1] += counts[k];
        }
        let starts = counts.clone();
        let mut fill = counts;
        let mut order = vec![0u32; colour_of.len()];
        for (c, &col) in colour_of.iter().enumerate() {
            order[fill[col as usize] as usize] = c as u32;
            fill[col as usize] += 1;
        }
        let colours = (0..n_colours)
            .map(|k| {
                let (s, e) = (starts[k], starts[k + 1]);
                (s..e)
                    .step_by(task_size as usize)
                    .map(|t| t..(t + task_size).min(e))
                    .collect()
            })
            .collect();
        Self { order, colours }
    }

    /// Number of colours.
    pub fn num_colours(&self) -> usize {
        self.colours.len()
    }

    /// Checks the determinism contract: every constraint appears once, and no particle is
    /// touched by two different tasks of one colour. Returns the first violation.
    pub fn verify<'a>(
        &self,
        n_particles: usize,
        stencil: impl Fn(usize) -> &'a [u32],
    ) -> Result<(), String> {
        let mut seen = vec![false; self.order.len()];
        for &c in &self.order {
            if std::mem::replace(&mut seen[c as usize], true) {
                return Err(format!("constraint {c} scheduled twice"));
            }
        }
        let mut owner = vec![u64::MAX; n_particles];
        for (k, colour) in self.colours.iter().enumerate() {
            for (t, task) in colour.iter().enumerate() {
                let tag = ((k as u64) << 32) | t as u64;
                for j in task.clone() {
                    for &p in stencil(self.order[j as usize] as usize) {
                        let o = owner[p as usize];
                        if o != u64::MAX && o >> 32 == k as u64 && o != tag {
                            return Err(format!("particle {p} shared by two tasks of colour {k}"));
                        }
                        owner[p as usize] = tag;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_colouring_of_a_chain_uses_two_colours_and_is_conflict_free() {
        let stencils: Vec<[u32; 2]> = (0..99).map(|i| [i, i + 1]).collect();
        let s = Schedule::greedy(stencils.len(), 100, |c| &stencils[c], 7);
        assert_eq!(s.num_colours(), 2);
        s.verify(100, |c| &stencils[c]).unwrap();
    }

    #[test]
    fn greedy_colours_walk_the_particles_in_memory_order() {
        // A chain added back to front: index order is the reverse of particle order.
        let stencils: Vec<[u32; 2]> = (0..99).rev().map(|i| [i + 1, i]).collect();
        let s = Schedule::greedy(stencils.len(), 100, |c| &stencils[c], 7);
        s.verify(100, |c| &stencils[c]).unwrap();
        for colour in &s.colours {
            let range = colour[0].start as usize..colour.last().unwrap().end as usize;
            let lowest: Vec<u32> = s.order[range]
                .iter()
                .map(|&c| stencils[c as usize][1])
                .collect();
            assert!(lowest.windows(2).all(|w| w[0] < w[1]), "{lowest:?}");
        }
    }

    #[test]
    fn verify_rejects_a_conflicting_schedule() {
        let stencils: Vec<[u32; 2]> = vec![[0, 1], [1, 2]];
        let s = Schedule {
            order: vec![0, 1],
            colours: vec![vec![0..1, 1..2]],
        };
        assert!(s.verify(3, |c| &stencils[c]).is_err());
    }
}
