//! Python values to TOML values and back: `Scene.from_dict` writes the dict as TOML text and
//! parses it with the scene file's own parser, so a dict is checked exactly as a file is and
//! its errors name the same fields.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// Why a Python value cannot be part of a scene: the dotted path and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unrepresentable {
    /// Dotted path of the value (`cloth[0].size`).
    pub field: String,
    /// What the value is.
    pub message: String,
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The TOML value of a Python value: bool, int, float, str, a dict with str keys, a list or
/// tuple, or anything with a `tolist()` method (NumPy arrays and scalars).
pub fn to_toml(v: &Bound<'_, PyAny>, path: &str) -> Result<toml::Value, Unrepresentable> {
    let bad = |message: String| Unrepresentable {
        field: if path.is_empty() {
            ".".into()
        } else {
            path.into()
        },
        message,
    };
    if v.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(
            v.extract::<bool>().map_err(|e| bad(e.to_string()))?,
        ));
    }
    if v.is_instance_of::<PyInt>() {
        let i = v
            .extract::<i64>()
            .map_err(|_| bad(format!("integer {v} does not fit in 64 bits")))?;
        return Ok(toml::Value::Integer(i));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(
            v.extract::<f64>().map_err(|e| bad(e.to_string()))?,
        ));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(toml::Value::String(s.to_string()));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut table = toml::Table::new();
        for (k, item) in d.iter() {
            let Ok(key) = k.cast::<PyString>() else {
                return Err(bad(format!("key {k:?} is not a str")));
            };
            let key = key.to_string();
            let value = to_toml(&item, &child(path, &key))?;
            table.insert(key, value);
        }
        return Ok(toml::Value::Table(table));
    }
    let items: Option<Vec<Bound<'_, PyAny>>> = if let Ok(l) = v.cast::<PyList>() {
        Some(l.iter().collect())
    } else if let Ok(t) = v.cast::<PyTuple>() {
        Some(t.iter().collect())
    } else {
        None
    };
    if let Some(items) = items {
        let values = items
            .iter()
            .enumerate()
            .map(|(k, item)| to_toml(item, &format!("{path}[{k}]")))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(toml::Value::Array(values));
    }
    if v.hasattr("tolist").unwrap_or(false)
        && let Ok(plain) = v.call_method0("tolist")
        && !plain.is(v)
    {
        return to_toml(&plain, path);
    }
    let type_name = v
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    Err(bad(format!(
        "a value of type `{type_name}` cannot be written in a scene (use bool, int, float, str, dict, list)"
    )))
}

/// The Python value of a TOML value (tables become dicts, arrays lists, datetimes str).
pub fn to_python<'py>(py: Python<'py>, v: &toml::Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        toml::Value::String(s) => PyString::new(py, s).into_any(),
        toml::Value::Integer(i) => i.into_pyobject(py)?.into_any(),
        toml::Value::Float(f) => PyFloat::new(py, *f).into_any(),
        toml::Value::Boolean(b) => PyBool::new(py, *b).to_owned().into_any(),
        toml::Value::Datetime(d) => PyString::new(py, &d.to_string()).into_any(),
        toml::Value::Array(a) => {
            let list = PyList::empty(py);
            for item in a {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        toml::Value::Table(t) => {
            let dict = PyDict::new(py);
            for (k, item) in t {
                dict.set_item(k, to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_paths() {
        assert_eq!(child("", "time"), "time");
        assert_eq!(child("materials", "steel"), "materials.steel");
    }
}
