//! The charts, as inline SVG: horizontal bars (stacked or not) and stacked
//! columns over days. Every label and tooltip is escaped here.

use std::fmt::Write as _;

use super::super::table::thousands;
use super::text::{colour, esc, short, tick_step};

/// One part of a bar: a family and its value.
pub struct Segment<'a> {
    /// The family (its colour).
    pub family: &'a str,
    /// The value.
    pub value: u64,
}

/// One bar: its label, a tooltip line, and its parts.
pub struct Bar<'a> {
    /// The label left of the bar (untrusted text).
    pub label: &'a str,
    /// More for the tooltip (untrusted text).
    pub detail: String,
    /// The parts, stacked left to right.
    pub segments: Vec<Segment<'a>>,
}

const LABEL_W: u32 = 210;
const ROW_H: u32 = 24;
const BAR_H: u32 = 16;
const TOP: u32 = 30;
const AXIS_H: u32 = 44;
const LABEL_CAP: usize = 30;

/// Horizontal bars, one row per bar, with a value axis under them.
pub fn bars(id: &str, title: &str, unit: &str, width: u32, bars: &[Bar<'_>]) -> String {
    let plot_w = width.saturating_sub(LABEL_W + 70).max(50);
    let height = TOP + ROW_H * bars.len().max(1) as u32 + AXIS_H;
    let max = bars.iter().map(total).max().unwrap_or(0);
    let step = tick_step(max);
    let top_value = max.div_ceil(step).max(1).saturating_mul(step);
    let scale = |v: u64| v as f64 * f64::from(plot_w) / top_value as f64;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg id="{id}" class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{t}"><title>{t}</title>"#,
        t = esc(title, 200)
    );
    let _ = write!(
        s,
        r#"<text x="0" y="18" class="ct">{}</text>"#,
        esc(title, 200)
    );
    let bottom = TOP + ROW_H * bars.len().max(1) as u32;
    // Grid and ticks.
    let mut v = 0;
    while v <= top_value {
        let x = f64::from(LABEL_W) + scale(v);
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{bottom}" stroke="#d8d8d8"/><text x="{x:.1}" y="{}" class="tick" text-anchor="middle">{}</text>"##,
            bottom + 14,
            short(v)
        );
        // The axis of a saturated figure ends at the largest one.
        let Some(next) = v.checked_add(step) else {
            break;
        };
        v = next;
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>"#,
        LABEL_W + plot_w / 2,
        bottom + 34,
        esc(unit, 100)
    );
    if bars.is_empty() {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" class="tick">nothing to show</text>"#,
            LABEL_W + 8,
            TOP + 16
        );
    }
    for (i, bar) in bars.iter().enumerate() {
        let y = TOP + ROW_H * i as u32 + (ROW_H - BAR_H) / 2;
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" class="label" text-anchor="end">{}<title>{}</title></text>"#,
            LABEL_W - 8,
            y + BAR_H - 3,
            esc(bar.label, LABEL_CAP),
            esc(bar.label, 1000)
        );
        let mut x = f64::from(LABEL_W);
        for seg in bar.segments.iter().filter(|seg| seg.value > 0) {
            let w = scale(seg.value);
            let _ = write!(
                s,
                r#"<rect x="{x:.1}" y="{y}" width="{w:.1}" height="{BAR_H}" fill="{}" data-family="{}"><title>{}{}: {} {}</title></rect>"#,
                colour(seg.family),
                esc(seg.family, 200),
                if bar.detail.is_empty() {
                    String::new()
                } else {
                    format!("{}\n", esc(&bar.detail, 1000))
                },
                esc(seg.family, 200),
                thousands(seg.value),
                esc(unit, 100)
            );
            x += w;
        }
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{}" class="value">{}</text>"#,
            x + 5.0,
            y + BAR_H - 3,
            thousands(total(bar))
        );
    }
    s.push_str("</svg>");
    s
}

fn total(bar: &Bar<'_>) -> u64 {
    bar.segments
        .iter()
        .map(|seg| seg.value)
        .fold(0u64, u64::saturating_add)
}

/// One column: a day and its stacked parts.
pub struct Column<'a> {
    /// `YYYY-MM-DD`.
    pub day: String,
    /// The parts, stacked bottom to top.
    pub segments: Vec<Segment<'a>>,
}

/// Stacked columns, one per day, with a value axis on the left.
pub fn columns(id: &str, title: &str, unit: &str, width: u32, cols: &[Column<'_>]) -> String {
    let left = 70u32;
    let plot_w = width.saturating_sub(left + 20).max(50);
    let plot_h = 240u32;
    let top = 34u32;
    let height = top + plot_h + 60;
    let max = cols
        .iter()
        .map(|c| {
            c.segments
                .iter()
                .map(|seg| seg.value)
                .fold(0u64, u64::saturating_add)
        })
        .max()
        .unwrap_or(0);
    let step = tick_step(max);
    let top_value = max.div_ceil(step).max(1).saturating_mul(step);
    let scale = |v: u64| v as f64 * f64::from(plot_h) / top_value as f64;
    let bottom = top + plot_h;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg id="{id}" class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{t}"><title>{t}</title><text x="0" y="18" class="ct">{t}</text>"#,
        t = esc(title, 200)
    );
    let mut v = 0;
    while v <= top_value {
        let y = f64::from(bottom) - scale(v);
        let _ = write!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#d8d8d8"/><text x="{}" y="{:.1}" class="tick" text-anchor="end">{}</text>"##,
            left + plot_w,
            left - 6,
            y + 4.0,
            short(v)
        );
        // The axis of a saturated figure ends at the largest one.
        let Some(next) = v.checked_add(step) else {
            break;
        };
        v = next;
    }
    let _ = write!(
        s,
        r#"<text x="14" y="{}" class="axis" text-anchor="middle" transform="rotate(-90 14 {})">{}</text>"#,
        top + plot_h / 2,
        top + plot_h / 2,
        esc(unit, 100)
    );
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" class="axis" text-anchor="middle">day (UTC)</text>"#,
        left + plot_w / 2,
        bottom + 48
    );
    if cols.is_empty() {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" class="tick">nothing to show</text>"#,
            left + 8,
            top + 20
        );
    }
    let n = cols.len().max(1) as u32;
    let slot = f64::from(plot_w) / f64::from(n);
    let col_w = (slot * 0.75).clamp(1.0, 48.0);
    // Label every k-th day so the labels (about 44px wide) do not overlap.
    let every = ((48.0 / slot).ceil() as usize).max(1);
    for (i, col) in cols.iter().enumerate() {
        let cx = f64::from(left) + slot * (i as f64 + 0.5);
        let x = cx - col_w / 2.0;
        let mut y = f64::from(bottom);
        let mut sum = 0;
        for seg in col.segments.iter().filter(|seg| seg.value > 0) {
            let h = scale(seg.value);
            y -= h;
            sum = u64::saturating_add(sum, seg.value);
            let _ = write!(
                s,
                r#"<rect x="{x:.1}" y="{y:.1}" width="{col_w:.1}" height="{h:.1}" fill="{}" data-family="{}"><title>{} {}: {} {}</title></rect>"#,
                colour(seg.family),
                esc(seg.family, 200),
                esc(&col.day, 20),
                esc(seg.family, 200),
                thousands(seg.value),
                esc(unit, 100)
            );
        }
        if sum > 0 && slot >= 22.0 {
            let _ = write!(
                s,
                r#"<text x="{cx:.1}" y="{:.1}" class="value" text-anchor="middle">{}</text>"#,
                y - 4.0,
                short(sum)
            );
        }
        if i % every == 0 {
            let label = col.day.get(5..).unwrap_or(&col.day);
            let _ = write!(
                s,
                r#"<text x="{cx:.1}" y="{}" class="tick" text-anchor="middle">{}<title>{}</title></text>"#,
                bottom + 16,
                esc(label, 12),
                esc(&col.day, 20)
            );
        }
    }
    let _ = write!(
        s,
        r##"<line x1="{left}" y1="{bottom}" x2="{}" y2="{bottom}" stroke="#555"/></svg>"##,
        left + plot_w
    );
    s
}
