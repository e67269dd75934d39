//! A sweep's results as CSV for spreadsheets: one row per point and
//! compared variant, plain numbers (milliseconds and counts), an empty cell
//! where a metric is undefined.

use std::fmt::Write as _;

use super::SweepResult;

impl SweepResult {
    /// The CSV text: a header, then one row per point and variant (long
    /// format, ready for a pivot table). The first column is the swept
    /// value, named after the parameter; `cut` names the budget a run hit.
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        let mut header = vec![self.spec.parameter.name(), "variant".to_string()];
        header.extend(self.metrics.iter().map(|m| m.csv_column().to_string()));
        header.push("cut".to_string());
        push_row(&mut out, &header);
        for point in &self.points {
            for run in &point.runs {
                let mut row = vec![point.value.to_string(), run.label.clone()];
                row.extend(
                    run.metrics
                        .iter()
                        .map(|v| v.map(|v| v.to_string()).unwrap_or_default()),
                );
                row.push(
                    run.cut
                        .map(|c| {
                            serde_json::to_value(c.reason)
                                .ok()
                                .and_then(|v| v.as_str().map(str::to_string))
                                .unwrap_or_default()
                        })
                        .unwrap_or_default(),
                );
                push_row(&mut out, &row);
            }
        }
        out
    }
}

/// One CSV line (RFC 4180: a field with a comma, quote or line break is
/// quoted, quotes doubled).
fn push_row(out: &mut String, fields: &[String]) {
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if f.contains([',', '"', '\n', '\r']) {
            let _ = write!(out, "\"{}\"", f.replace('"', "\"\""));
        } else {
            out.push_str(f);
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_commas_and_quotes_are_quoted() {
        let mut out = String::new();
        push_row(
            &mut out,
            &["a".into(), "eager, dynamic".into(), "say \"hi\"".into()],
        );
        assert_eq!(out, "a,\"eager, dynamic\",\"say \"\"hi\"\"\"\n");
    }
}
