//! Log–log order plots: `|q_N − q_ref(1)|∞` against h for the members of a family, one line
//! per stage count, with the declared slope drawn dashed through each line's first point.

use super::error::CliError;
use super::plot::register_font;
use super::verify::Study;
use plotters::prelude::*;
use std::path::Path;

/// Plots the sweeps of `members` (one family) to the PNG `path`.
pub fn order_plot(path: &Path, family: &str, members: &[&Study]) -> Result<(), CliError> {
    register_font();
    draw(path, family, members).map_err(|reason| CliError::Write {
        path: path.to_owned(),
        reason,
    })
}

fn draw(path: &Path, family: &str, members: &[&Study]) -> Result<(), String> {
    let lines: Vec<(&Study, Vec<(f64, f64)>)> = members
        .iter()
        .map(|m| {
            let points =
                m.h.iter()
                    .zip(&m.errors)
                    .filter(|(_, e)| **e > 0.0)
                    .map(|(h, e)| (*h, *e))
                    .collect();
            (*m, points)
        })
        .collect();
    let all = || lines.iter().flat_map(|(_, p)| p.iter());
    let fold = |f: fn(f64, f64) -> f64, init: f64, pick: fn(&(f64, f64)) -> f64| {
        all().map(pick).fold(init, f)
    };
    let (h_lo, h_hi) = (
        fold(f64::min, f64::INFINITY, |p| p.0),
        fold(f64::max, 0.0, |p| p.0),
    );
    let (e_lo, e_hi) = (
        fold(f64::min, f64::INFINITY, |p| p.1),
        fold(f64::max, 0.0, |p| p.1),
    );
    // Two and a half decades of headroom above the data for the legend.
    let (h_lo, h_hi, e_lo, e_hi) = if h_lo < h_hi && e_lo < e_hi {
        (h_lo / 1.3, h_hi * 1.3, e_lo / 3.0, e_hi * 300.0)
    } else {
        (1e-3, 1.0, 1e-16, 1.0)
    };
    let root = BitMapBackend::new(path, (900, 700)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{family}: error at T = 1 against h (dashed: declared order)"),
            ("sans-serif", 22),
        )
        .margin(15)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d((h_lo..h_hi).log_scale(), (e_lo..e_hi).log_scale())
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("step size h")
        .x_labels(6)
        .y_desc("|q_N − q_ref(1)|∞")
        .axis_desc_style(("sans-serif", 18))
        .label_style(("sans-serif", 15))
        .x_label_formatter(&|v| format!("{v:.0e}"))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, (m, points)) in lines.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let label = match m.measured_order {
            Some(p) => format!(
                "s = {}: measured {p:.2}, declared {}",
                m.stages, m.declared_order
            ),
            None => format!("s = {}: no order, declared {}", m.stages, m.declared_order),
        };
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(points.iter().map(|p| Circle::new(*p, 4, colour.filled())))
            .map_err(|e| e.to_string())?;
        if let (Some(first), Some(last)) = (points.first(), points.last()) {
            let slope = m.declared_order as f64;
            let guide = [*first, (last.0, first.1 * (last.0 / first.0).powf(slope))];
            chart
                .draw_series(DashedLineSeries::new(guide, 6, 4, colour.stroke_width(1)))
                .map_err(|e| e.to_string())?;
        }
    }
    super::plot::legend(&mut chart)?;
    root.present().map_err(|e| e.to_string())
}
