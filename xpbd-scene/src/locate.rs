//! Where a field of a scene file is written: the line of a dotted field path such as
//! `cloth[0].pins` or `interaction[1].bodies[0]`, so that errors found after parsing (range
//! checks, unknown names, overlapping bodies) name the line as syntax errors do.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// One step of a field path: a key, then any number of `[index]`.
fn segments(path: &str) -> Vec<(&str, Vec<usize>)> {
    path.split('.')
        .map(|s| {
            let mut parts = s.split('[');
            let key = parts.next().unwrap_or("");
            let idx = parts
                .filter_map(|p| p.trim_end_matches(']').parse().ok())
                .collect();
            (key, idx)
        })
        .collect()
}

/// The line of the deepest part of `field` that `text` writes (its key's line, or an array
/// element's), `None` when the text does not parse or writes none of it (a default value).
///
/// ```
/// let text = "name = 'x'\n[[cloth]]\nmaterial = 'a'\n\n[[cloth]]\nmaterial = 'b'\npins = [[0, 0]]\n";
/// assert_eq!(xpbd_scene::locate::field_line(text, "cloth[1].pins"), Some(7));
/// // `material` names a material: the deepest written part is the `material` key.
/// assert_eq!(xpbd_scene::locate::field_line(text, "cloth[0].material.thickness"), Some(3));
/// assert_eq!(xpbd_scene::locate::field_line(text, "rope[0]"), None);
/// ```
pub fn field_line(text: &str, field: &str) -> Option<usize> {
    let root = DeTable::parse(text).ok()?;
    let mut table: &DeTable<'_> = root.get_ref();
    let mut found: Option<usize> = None;
    for (key, indices) in segments(field) {
        let Some((k, v)) = table.get_key_value(key) else {
            break;
        };
        found = Some(k.span().start);
        let mut value: &Spanned<DeValue<'_>> = v;
        let mut ok = true;
        for i in indices {
            match value.get_ref() {
                DeValue::Array(a) if i < a.len() => {
                    value = &a[i];
                    found = Some(value.span().start);
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        match (ok, value.get_ref()) {
            (true, DeValue::Table(t)) => table = t,
            _ => break,
        }
    }
    found.map(|offset| line_of(text, offset))
}
