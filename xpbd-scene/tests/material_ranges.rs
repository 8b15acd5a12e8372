//! Settings that switch a continuum's material off are refused with the reason: a kernel
//! support of 0.1 or 100 spacings and a pseudo-inverse threshold of 1e30 used to give an inert
//! lattice (the same positions to 1e-18 under load).

use std::path::Path;

use xpbd_scene::{SceneDesc, SceneError};

fn parse(xpbi: &str) -> Result<SceneDesc, SceneError> {
    let text = format!(
        "name = 'r'\n[time]\ndt = 0.001\nframes = 1\n[materials.sand]\npreset = 'sand'\n\
         [[continuum]]\nmaterial = 'sand'\nspacing = 0.05\n\
         region = {{ ball = {{ center = [0.0, 0.0, 1.0], radius = 0.2 }} }}\nxpbi = {{ {xpbi} }}\n"
    );
    SceneDesc::parse(&text, Path::new("r.toml"))
}

#[test]
fn a_support_or_threshold_that_makes_the_material_inert_is_refused_with_the_reason() {
    for (xpbi, field, reason) in [
        (
            "support_over_spacing = 0.1",
            "support_over_spacing",
            "[1.5, 4]",
        ),
        (
            "support_over_spacing = 1.2",
            "support_over_spacing",
            "[1.5, 4]",
        ),
        (
            "support_over_spacing = 100.0",
            "support_over_spacing",
            "[1.5, 4]",
        ),
        (
            "support_over_spacing = nan",
            "support_over_spacing",
            "[1.5, 4]",
        ),
        ("pinv_threshold = 1e30", "pinv_threshold", "(0, 0.25]"),
        ("pinv_threshold = 0.5", "pinv_threshold", "(0, 0.25]"),
        ("pinv_threshold = 0.0", "pinv_threshold", "(0, 0.25]"),
    ] {
        let e = parse(xpbi).unwrap_err();
        let text = e.to_string();
        assert!(
            matches!(&e, SceneError::InvalidValue { field: f, .. }
                if *f == format!("continuum[0].xpbi.{field}")),
            "{xpbi}: {text}"
        );
        assert!(text.contains(reason) && text.contains("r.toml"), "{text}");
    }
    for xpbi in [
        "support_over_spacing = 1.5",
        "support_over_spacing = 4.0",
        "pinv_threshold = 0.25",
        "pinv_threshold = 1e-6",
    ] {
        parse(xpbi).unwrap_or_else(|e| panic!("{xpbi}: {e}"));
    }
}

/// The library's own settings check says the same (a continuum built from Rust).
#[test]
fn the_continuum_settings_refuse_the_same_ranges() {
    use xpbi_continuum::XpbiError;
    use xpbi_continuum::correction::check_pinv_threshold;
    use xpbi_continuum::kernel::check_support_over_spacing;
    assert!(matches!(
        check_support_over_spacing(100.0),
        Err(XpbiError::OutOfRange {
            name: "support_over_spacing",
            ..
        })
    ));
    assert!(check_support_over_spacing(2.0).is_ok());
    assert!(matches!(
        check_pinv_threshold(1e30),
        Err(XpbiError::OutOfRange {
            name: "pinv_threshold",
            ..
        })
    ));
}
