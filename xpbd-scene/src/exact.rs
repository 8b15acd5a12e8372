//! Fixed-size arrays of a scene file read with their length checked.
//!
//! serde's own `Deserialize` for `[T; N]` takes the first `N` elements of a sequence and asks
//! for no more, and the `toml` deserializer does not check for trailing elements, so
//! `gravity = [0, 0, -9.81, 5]` read as `[0, 0, -9.81]` and `bodies = ["a", "b", "c"]` as
//! `["a", "b"]`: extra elements were dropped silently. These `deserialize_with` functions read
//! the whole sequence and refuse any length other than `N` with serde's `invalid_length`
//! ("invalid length 4, expected exactly 3 elements"), which [`crate::SceneDesc::parse`]
//! reports with the file, line and field path like every other type error.
//!
//! Every field of a fixed-size array type in the scene description takes one, e.g.
//! `#[serde(default, deserialize_with = "crate::exact::array")]`; serialization is unchanged.

use std::fmt;

use serde::de::{Deserialize, Deserializer, Error, Expected};

/// "exactly N elements" (or "exactly 1 element").
struct Exactly(usize);

impl Expected for Exactly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.0 == 1 { "" } else { "s" };
        write!(f, "exactly {} element{s}", self.0)
    }
}

/// A `[T; N]` of exactly `N` elements: an error naming the length found and `N` otherwise.
pub(crate) fn array<'de, D, T, const N: usize>(d: D) -> Result<[T; N], D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let v = Vec::<T>::deserialize(d)?;
    let len = v.len();
    <[T; N]>::try_from(v).map_err(|_| D::Error::invalid_length(len, &Exactly(N)))
}

/// One `[T; N]` read through [`array`], for the elements of [`vec_of_arrays`].
struct Exact<T, const N: usize>([T; N]);

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for Exact<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        array(d).map(Exact)
    }
}

/// A `Vec<[T; N]>` (e.g. a cloth's `pins`) whose every element has exactly `N` elements.
pub(crate) fn vec_of_arrays<'de, D, T, const N: usize>(d: D) -> Result<Vec<[T; N]>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let v = Vec::<Exact<T, N>>::deserialize(d)?;
    Ok(v.into_iter().map(|e| e.0).collect())
}
