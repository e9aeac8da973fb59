//! Plots of a run (plotters): one panel per quantity against time t — the positions `q_i(t)`,
//! the energy error (relative, or absolute where `H₀ = 0`) and the constraint residual — as PNG
//! or SVG by extension, from the points the run kept in memory (a bounded sample). Text
//! is drawn with the bundled DejaVu Sans (no system fonts needed).

use super::error::CliError;
use super::output::extension;
use super::trajectory::Trajectory;
use crate::diagnostics::EnergyError;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::ops::Range;
use std::path::Path;
use std::sync::Once;

/// The extensions [`plot`] understands.
pub const EXTENSIONS: &str = ".png, .svg";

/// At most this many points per line are drawn (evenly strided, last point kept).
const MAX_POINTS: usize = 2000;

const FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Registers the bundled font as `sans-serif` (once).
pub fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        // The bundled font is a valid TrueType file; a failure would only lose the text.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// Whether the image is a PNG (else an SVG), by `path`'s extension.
pub fn is_png(path: &Path) -> Result<bool, CliError> {
    match extension(path).as_deref() {
        Some("png") => Ok(true),
        Some("svg") => Ok(false),
        _ => Err(CliError::UnknownExtension {
            path: path.to_owned(),
            valid: EXTENSIONS,
        }),
    }
}

/// Plots `trajectory` to `path` with `title`.
pub fn plot(path: &Path, trajectory: &Trajectory, title: &str) -> Result<(), CliError> {
    register_font();
    let size = (1000, 1200);
    let drawn = if is_png(path)? {
        draw(
            BitMapBackend::new(path, size).into_drawing_area(),
            trajectory,
            title,
        )
    } else {
        draw(
            SVGBackend::new(path, size).into_drawing_area(),
            trajectory,
            title,
        )
    };
    drawn.map_err(|reason| CliError::Write {
        path: path.to_owned(),
        reason,
    })
}

/// A line of `(t, y)` points.
struct Line {
    label: String,
    points: Vec<(f64, f64)>,
}

/// `(t_n, y_n)`, strided to at most [`MAX_POINTS`], non-finite values dropped.
fn line(label: String, t: &[f64], y: impl Fn(usize) -> f64) -> Line {
    let stride = t.len().div_ceil(MAX_POINTS).max(1);
    let mut indices: Vec<usize> = (0..t.len()).step_by(stride).collect();
    if let Some(last) = t.len().checked_sub(1)
        && indices.last() != Some(&last)
    {
        indices.push(last);
    }
    let points = indices
        .into_iter()
        .map(|n| (t[n], y(n)))
        .filter(|(_, v)| v.is_finite())
        .collect();
    Line { label, points }
}

/// The range of the values, widened when flat.
fn range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !(lo.is_finite() && hi.is_finite()) {
        return 0.0..1.0;
    }
    let pad = if hi > lo {
        0.05 * (hi - lo)
    } else {
        lo.abs().max(1e-300) * 0.1 + 1e-300
    };
    // Non-negative quantities (errors, residuals) keep a non-negative axis.
    let start = if lo >= 0.0 {
        (lo - pad).max(0.0)
    } else {
        lo - pad
    };
    start..(hi + pad)
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    tr: &Trajectory,
    title: &str,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(title, ("sans-serif", 22)).map_err(err)?;
    let panels = root.split_evenly((3, 1));
    let t = &tr.t;
    let positions: Vec<Line> = (0..tr.dimension())
        .map(|i| line(format!("q{}", i + 1), t, |n| tr.q[n][i]))
        .collect();
    let (energy_caption, energy_label) = match tr.energy {
        Some(EnergyError::Absolute) => ("absolute energy error", "|H − H₀|"),
        _ => ("relative energy error", "|H − H₀|/|H₀|"),
    };
    let energy = [line(energy_label.to_owned(), t, |n| tr.energy_error[n])];
    let residual = [line(tr.constraint.to_owned(), t, |n| {
        tr.constraint_residual[n]
    })];
    let specs: [(&str, &str, &[Line]); 3] = [
        ("positions q(t)", "q", &positions),
        (energy_caption, energy_label, &energy),
        ("constraint residual", tr.constraint, &residual),
    ];
    let x_range = range(t.iter().copied());
    for (panel, (caption, y_label, lines)) in panels.iter().zip(specs) {
        let y_range = range(lines.iter().flat_map(|l| l.points.iter().map(|p| p.1)));
        let scientific = y_range.end.abs().max(y_range.start.abs()) < 1e-2;
        let mut chart = ChartBuilder::on(panel)
            .caption(caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(95)
            .build_cartesian_2d(x_range.clone(), y_range)
            .map_err(err)?;
        let y_format = |v: &f64| {
            if *v == 0.0 {
                "0".to_owned()
            } else if scientific {
                format!("{v:.1e}")
            } else {
                format!("{v:.3}")
            }
        };
        chart
            .configure_mesh()
            .x_desc("t")
            .y_desc(y_label)
            .axis_desc_style(("sans-serif", 18))
            .label_style(("sans-serif", 15))
            .y_label_formatter(&y_format)
            .draw()
            .map_err(err)?;
        for (i, l) in lines.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            chart
                // Width 1: plotters' thick polylines spike at segments shorter than a pixel.
                .draw_series(LineSeries::new(l.points.iter().copied(), colour))
                .map_err(err)?
                .label(l.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        legend(&mut chart)?;
    }
    root.present().map_err(err)
}

/// Draws the series labels of `chart` in the upper right corner, on a translucent white box (the
/// legend style of every plot of the command and of the benchmarks' diagrams).
pub fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| e.to_string())
}
