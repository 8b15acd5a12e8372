//! Sparse symmetric solves with faer: supernodal/simplicial Cholesky `LLᵀ` (AMD ordering, the
//! symbolic analysis reused across Newton iterations), with sparse LU (partial pivoting) as the
//! fallback when the matrix is not numerically positive definite.
//!
//! All factorisations run with `Par::Seq`, so results do not depend on the thread count.

use crate::error::FemError;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::LltRegularization;
use faer::sparse::linalg::cholesky::{SymbolicCholesky, factorize_symbolic_cholesky};
use faer::sparse::linalg::lu::{NumericLu, SymbolicLu, factorize_symbolic_lu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Conj, MatMut, Par, Side};

/// Compressed-sparse-column pattern of a square matrix (both triangles stored).
#[derive(Debug, Clone)]
pub struct CscPattern {
    /// Dimension.
    pub n: usize,
    /// Column pointers (`n + 1`).
    pub col_ptr: Vec<usize>,
    /// Sorted row indices per column.
    pub row_idx: Vec<usize>,
}

impl CscPattern {
    fn symbolic(&self) -> SymbolicSparseColMatRef<'_, usize> {
        SymbolicSparseColMatRef::new_checked(self.n, self.n, &self.col_ptr, None, &self.row_idx)
    }

    /// Structural checks faer would otherwise assert.
    pub fn check(&self) -> Result<(), FemError> {
        let bad = |m: String| {
            Err(FemError::LinearSolver {
                message: format!("invalid CSC pattern: {m}"),
            })
        };
        if self.col_ptr.len() != self.n + 1
            || self.col_ptr.first() != Some(&0)
            || self.col_ptr.last() != Some(&self.row_idx.len())
        {
            return bad(format!(
                "{} column pointers for n = {} and {} entries",
                self.col_ptr.len(),
                self.n,
                self.row_idx.len()
            ));
        }
        for c in 0..self.n {
            if self.col_ptr[c] > self.col_ptr[c + 1] {
                return bad(format!("column pointer decreases at column {c}"));
            }
            let rows = &self.row_idx[self.col_ptr[c]..self.col_ptr[c + 1]];
            if rows.windows(2).any(|w| w[0] >= w[1]) || rows.iter().any(|&r| r >= self.n) {
                return bad(format!(
                    "rows of column {c} unsorted, repeated or out of range"
                ));
            }
        }
        Ok(())
    }

    /// `y = A x` for values laid out on this pattern.
    pub fn mul_vec(&self, values: &[f64], x: &[f64]) -> Vec<f64> {
        let mut y = vec![0.0; self.n];
        for c in 0..self.n {
            for p in self.col_ptr[c]..self.col_ptr[c + 1] {
                y[self.row_idx[p]] += values[p] * x[c];
            }
        }
        y
    }
}

/// A reusable sparse solver for matrices sharing one pattern.
#[derive(Debug)]
pub struct SparseSolver {
    pattern: CscPattern,
    llt: SymbolicCholesky<usize>,
    lu: Option<SymbolicLu<usize>>,
}

fn faer_err(what: &str, e: impl std::fmt::Debug) -> FemError {
    FemError::LinearSolver {
        message: format!("{what}: {e:?}"),
    }
}

impl SparseSolver {
    /// Symbolic Cholesky analysis (AMD ordering) of `pattern`.
    /// Fails with [`FemError::LinearSolver`] if the pattern is malformed (column pointers not
    /// non-decreasing, row indices unsorted or out of range) instead of panicking inside faer.
    pub fn new(pattern: CscPattern) -> Result<Self, FemError> {
        pattern.check()?;
        let llt = factorize_symbolic_cholesky(
            pattern.symbolic(),
            Side::Lower,
            Default::default(),
            Default::default(),
        )
        .map_err(|e| faer_err("symbolic Cholesky", e))?;
        Ok(Self {
            pattern,
            llt,
            lu: None,
        })
    }

    /// The pattern the solver was built for.
    pub fn pattern(&self) -> &CscPattern {
        &self.pattern
    }

    /// Solves `A x = b` by Cholesky; `None` if `A` is not numerically SPD.
    pub fn solve_cholesky(&self, values: &[f64], b: &[f64]) -> Result<Option<Vec<f64>>, FemError> {
        let a = SparseColMatRef::new(self.pattern.symbolic(), values);
        let mut l_values = vec![0.0; self.llt.len_val()];
        let par = Par::Seq;
        let mut buf = MemBuffer::try_new(
            self.llt
                .factorize_numeric_llt_scratch::<f64>(par, Default::default())
                .or(self.llt.solve_in_place_scratch::<f64>(1, par)),
        )
        .map_err(|e| faer_err("workspace", e))?;
        let stack = MemStack::new(&mut buf);
        let llt = match self.llt.factorize_numeric_llt(
            &mut l_values,
            a,
            Side::Lower,
            LltRegularization::default(),
            par,
            stack,
            Default::default(),
        ) {
            Ok(f) => f,
            Err(_) => return Ok(None),
        };
        let mut x = b.to_vec();
        llt.solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(&mut x, self.pattern.n, 1),
            par,
            MemStack::new(&mut buf),
        );
        Ok(x.iter().all(|v| v.is_finite()).then_some(x))
    }

    /// Solves `A x = b` by sparse LU with partial pivoting. Fails with
    /// [`FemError::SingularSystem`] when the matrix is (numerically) singular.
    pub fn solve_lu(&mut self, values: &[f64], b: &[f64]) -> Result<Vec<f64>, FemError> {
        if self.lu.is_none() {
            self.lu = Some(
                factorize_symbolic_lu(self.pattern.symbolic(), Default::default())
                    .map_err(|e| faer_err("symbolic LU", e))?,
            );
        }
        let symbolic = self
            .lu
            .as_ref()
            .ok_or_else(|| faer_err("symbolic LU", "missing"))?;
        let a = SparseColMatRef::new(self.pattern.symbolic(), values);
        let par = Par::Seq;
        let mut numeric = NumericLu::<usize, f64>::new();
        let mut buf = MemBuffer::try_new(
            symbolic
                .factorize_numeric_lu_scratch::<f64>(par, Default::default())
                .or(symbolic.solve_in_place_scratch::<f64>(1, par)),
        )
        .map_err(|e| faer_err("workspace", e))?;
        let lu = symbolic
            .factorize_numeric_lu(
                &mut numeric,
                a,
                par,
                MemStack::new(&mut buf),
                Default::default(),
            )
            .map_err(|e| FemError::SingularSystem {
                message: format!("sparse LU: {e:?}"),
            })?;
        let mut x = b.to_vec();
        lu.solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(&mut x, self.pattern.n, 1),
            par,
            MemStack::new(&mut buf),
        );
        // A zero pivot shows up as a non-finite solution or a large residual.
        let r = self.pattern.mul_vec(values, &x);
        let res: f64 = r
            .iter()
            .zip(b)
            .map(|(p, q)| (p - q) * (p - q))
            .sum::<f64>()
            .sqrt();
        let bn: f64 = b.iter().map(|v| v * v).sum::<f64>().sqrt();
        if !x.iter().all(|v| v.is_finite()) || res > 1e-6 * bn.max(f64::MIN_POSITIVE) {
            return Err(FemError::SingularSystem {
                message: format!("sparse LU residual {res:e} for right-hand side norm {bn:e}"),
            });
        }
        Ok(x)
    }
}
