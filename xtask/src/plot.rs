//! SVG plots of the report (plotters, SVG backend).

use std::path::Path;

use anyhow::{Result, anyhow};
use plotters::prelude::*;

/// One curve.
#[derive(Debug, Clone)]
pub struct Curve {
    /// Legend text.
    pub label: String,
    /// Points (non-finite or non-positive points are dropped on log axes).
    pub points: Vec<(f64, f64)>,
    /// Dashed style (oracles).
    pub dashed: bool,
}

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

fn bounds(curves: &[Curve], log: bool) -> Option<((f64, f64), (f64, f64))> {
    let pts: Vec<(f64, f64)> = curves
        .iter()
        .flat_map(|c| c.points.iter().copied())
        .filter(|(x, y)| x.is_finite() && y.is_finite() && (!log || (*x > 0.0 && *y > 0.0)))
        .collect();
    if pts.is_empty() {
        return None;
    }
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for (x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if log {
        Some(((x0 / 1.5, x1 * 1.5), (y0 / 2.0, y1 * 2.0)))
    } else {
        let dx = (x1 - x0).max(1e-12) * 0.05;
        let dy = (y1 - y0).max(1e-12) * 0.08;
        Some(((x0 - dx, x1 + dx), (y0 - dy, y1 + dy)))
    }
}

/// Writes a plot with both axes logarithmic (`log = true`) or linear.
pub fn plot(
    path: &Path,
    title: &str,
    xlabel: &str,
    ylabel: &str,
    curves: &[Curve],
    log: bool,
) -> Result<()> {
    let root = SVGBackend::new(path, (760, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let Some(((x0, x1), (y0, y1))) = bounds(curves, log) else {
        root.titled(&format!("{title} (no data)"), ("sans-serif", 18))
            .map_err(|e| anyhow!("{e}"))?;
        root.present().map_err(|e| anyhow!("{e}"))?;
        return Ok(());
    };
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70);
    macro_rules! draw {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(xlabel)
                .y_desc(ylabel)
                .y_label_formatter(&|v| format!("{v:.1e}"))
                .draw()
                .map_err(|e| anyhow!("{e}"))?;
            for (k, c) in curves.iter().enumerate() {
                let colour = COLOURS[k % COLOURS.len()];
                let pts: Vec<(f64, f64)> = c
                    .points
                    .iter()
                    .copied()
                    .filter(|(x, y)| {
                        x.is_finite() && y.is_finite() && (!log || (*x > 0.0 && *y > 0.0))
                    })
                    .collect();
                let style = ShapeStyle::from(&colour).stroke_width(2);
                let series = if c.dashed {
                    chart.draw_series(DashedLineSeries::new(pts.clone(), 6, 4, style))
                } else {
                    chart.draw_series(LineSeries::new(pts.clone(), style))
                }
                .map_err(|e| anyhow!("{e}"))?;
                series.label(c.label.clone()).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
                });
                if pts.len() < 80 {
                    chart
                        .draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                        .map_err(|e| anyhow!("{e}"))?;
                }
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .position(SeriesLabelPosition::UpperRight)
                .label_font(("sans-serif", 12))
                .draw()
                .map_err(|e| anyhow!("{e}"))?;
        }};
    }
    if log {
        draw!(
            builder
                .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
                .map_err(|e| anyhow!("{e}"))?
        );
    } else {
        draw!(
            builder
                .build_cartesian_2d(x0..x1, y0..y1)
                .map_err(|e| anyhow!("{e}"))?
        );
    }
    root.present().map_err(|e| anyhow!("{e}"))?;
    Ok(())
}
