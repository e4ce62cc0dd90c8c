//! `csp queens N --orbits`: the solutions grouped by the eight symmetries
//! of the square, each class with its representative, its eight images and
//! its size, as text, JSON lines or one SVG picture.

use std::io::Write;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use csp_queens::render::{self, Format};
use csp_queens::symmetry::{self, Orbit};

use super::queens::{enumerate, print_stats, Job};
use super::{CliError, Status};

/// Lists the classes of the solutions of `job.n` queens, one
/// representative each found by `job.solver`, in `format`.
pub(super) fn orbits(job: &Job, format: Option<Format>) -> Result<ExitCode, CliError> {
    let format = match format {
        None => Format::Columns,
        Some(f @ (Format::Columns | Format::A1 | Format::Json | Format::Svg)) => f,
        Some(f) => {
            return Err(format!(
                "--orbits prints columns, a1, json or svg, not --format {f}"
            ))
        }
    };
    let t = Instant::now();
    let mut classes: Vec<Orbit> = Vec::new();
    let mut bad = None;
    let (note, line) = enumerate(job, true, |c| match symmetry::orbit(c) {
        Ok(o) => {
            classes.push(o);
            ControlFlow::Continue(())
        }
        Err(e) => {
            bad = Some(e);
            ControlFlow::Break(())
        }
    })?;
    if let Some(e) = bad {
        return Err(format!(
            "internal error: a solution is not a permutation: {e}"
        ));
    }
    classes.sort_by(|a, b| a.representative.cmp(&b.representative));
    let summary = summary(&classes, note.is_some());
    let text = match format {
        Format::Json => classes.iter().map(json).collect(),
        Format::Svg => {
            let title = format!("{}-queens: {summary}", job.n);
            let boards: Vec<(Vec<u32>, String)> = classes
                .iter()
                .enumerate()
                .flat_map(|(k, o)| {
                    (0..o.images.len()).map(move |i| {
                        let caption = match i {
                            0 => format!("class {}, size {}", k + 1, o.size),
                            _ => caption(o, i),
                        };
                        (o.images[i].1.clone(), caption)
                    })
                })
                .collect();
            render::svg_grid(&title, &boards, 8)
        }
        _ => {
            let mut s = String::new();
            for (k, o) in classes.iter().enumerate() {
                let rep = placement(&o.representative, format);
                s.push_str(&format!("class {}, size {}: {rep}\n", k + 1, o.size));
                for i in 0..o.images.len() {
                    let (sym, image) = &o.images[i];
                    let same = earlier_equal(o, i)
                        .map(|j| format!("  (= {})", o.images[j].0.short_name()))
                        .unwrap_or_default();
                    let cols = placement(image, format);
                    s.push_str(&format!("  {:<11}{cols}{same}\n", sym.short_name()));
                }
            }
            s.push_str(&summary);
            s.push('\n');
            s
        }
    };
    let mut out = super::output::stdout();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| e.to_string())?;
    if let Some(why) = &note {
        errln!("warning: incomplete list of classes: {why}");
    }
    let stats = if line.is_empty() {
        summary
    } else {
        format!("{summary}, {line}")
    };
    print_stats(
        job,
        job.solver.name(),
        &format!("{stats} (wall {:.3} s)", t.elapsed().as_secs_f64()),
    );
    Ok(Status::stopped_if(note.is_some()).code())
}

/// The first image before `i` equal to image `i`, if any.
fn earlier_equal(o: &Orbit, i: usize) -> Option<usize> {
    (0..i).find(|&j| o.images[j].1 == o.images[i].1)
}

/// The caption of image `i` in the picture: its symmetry, and which
/// earlier image it repeats.
fn caption(o: &Orbit, i: usize) -> String {
    let name = o.images[i].0.short_name();
    match earlier_equal(o, i) {
        Some(j) => format!("{name} = {}", o.images[j].0.short_name()),
        None => name.to_string(),
    }
}

/// A placement on one line, in `columns` or `a1`.
fn placement(cols: &[u32], format: Format) -> String {
    render::render(cols, format).trim_end().to_string()
}

/// One class as a JSON line, columns 1-based.
fn json(o: &Orbit) -> String {
    let list = |c: &[u32]| {
        let v: Vec<String> = c.iter().map(|x| (x + 1).to_string()).collect();
        format!("[{}]", v.join(","))
    };
    let images: Vec<String> = o.images.iter().map(|(_, c)| list(c)).collect();
    format!(
        "{{\"representative\":{},\"size\":{},\"images\":[{}]}}\n",
        list(&o.representative),
        o.size,
        images.join(",")
    )
}

/// `12 classes, 92 solutions: 11 × 8 + 1 × 4` (with `at least` when a
/// limit cut the list short).
fn summary(classes: &[Orbit], partial: bool) -> String {
    let total: u64 = classes.iter().map(|o| u64::from(o.size)).sum();
    let mut by_size: Vec<(u32, usize)> = Vec::new();
    for size in [8, 4, 2, 1] {
        let k = classes.iter().filter(|o| o.size == size).count();
        if k > 0 {
            by_size.push((size, k));
        }
    }
    let terms: Vec<String> = by_size
        .iter()
        .map(|(size, k)| format!("{k} × {size}"))
        .collect();
    let plural = |k: usize, one: &str, many: &str| {
        if k == 1 {
            format!("{k} {one}")
        } else {
            format!("{k} {many}")
        }
    };
    format!(
        "{}{}, {}{}",
        if partial { "at least " } else { "" },
        plural(classes.len(), "class", "classes"),
        plural(total as usize, "solution", "solutions"),
        if terms.is_empty() {
            String::new()
        } else {
            format!(": {}", terms.join(" + "))
        }
    )
}
