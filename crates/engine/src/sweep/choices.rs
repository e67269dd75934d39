//! What a front end offers to sweep in a scenario: every parameter that
//! resolves against it (each numeric Kafka config key for all compared
//! variants and for each one, the family's cluster fields, each event's
//! times and durations), and what one takes, so a form can suggest a range.

use super::config_keys::numeric_config_keys;
use super::event_field::EventField;
use super::parameter::{AllowedRange, SweepParameter, ValueUnit};
use super::ClusterField;
use crate::scenario::{Family, Scenario};

/// A parameter as a form shows it, checked against one scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterInfo {
    /// People's name for it, as the plot's axis says.
    pub label: String,
    /// What its values count.
    pub unit: ValueUnit,
    /// The values it takes.
    pub range: AllowedRange,
    /// Kafka's default, for a config key.
    pub kafka_default: Option<u64>,
    /// The scenario's own value.
    pub scenario_value: u64,
}

impl SweepParameter {
    /// What this parameter takes in `scenario`, or `None` when the scenario
    /// does not have it.
    pub fn info(&self, scenario: &Scenario) -> Option<ParameterInfo> {
        let t = self.resolve(scenario).ok()?;
        Some(ParameterInfo {
            unit: t.unit(),
            range: t.range().clone(),
            label: t.label,
            kafka_default: t.kafka_default,
            scenario_value: t.scenario_value,
        })
    }
}

/// Every parameter `scenario` can sweep, in a form's order: the numeric
/// config keys of every compared variant (then of each variant alone, when
/// there are several), the cluster fields (every entry at once), then the
/// events' fields.
pub fn parameters(scenario: &Scenario) -> Vec<SweepParameter> {
    let keys = numeric_config_keys(scenario.family_kind());
    let labels = scenario.variant_labels();
    let mut out: Vec<SweepParameter> = keys
        .iter()
        .map(|k| SweepParameter::Config {
            key: k.to_string(),
            variant: None,
        })
        .collect();
    if labels.len() > 1 {
        for label in &labels {
            out.extend(keys.iter().map(|k| SweepParameter::Config {
                key: k.to_string(),
                variant: Some(label.to_string()),
            }));
        }
    }
    out.extend(
        ClusterField::ALL
            .iter()
            .map(|&field| SweepParameter::Cluster { field, index: None }),
    );
    let events = match &scenario.family {
        Family::Connect(c) => c.events.len(),
        Family::Streams(s) => s.events.len(),
    };
    for event in 0..events {
        for field in [
            EventField::AtMs,
            EventField::DowntimeMs,
            EventField::DurationMs,
            EventField::IntervalMs,
        ] {
            out.push(SweepParameter::Event { event, field });
        }
    }
    out.retain(|p| p.resolve(scenario).is_ok());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_offered_parameter_resolves_and_sweeps() {
        for preset in crate::presets::all() {
            let scenario = preset.scenario();
            let offered = parameters(&scenario);
            assert!(
                offered.len() > 5,
                "{}: {} parameters",
                preset.id,
                offered.len()
            );
            for p in &offered {
                let info = p.info(&scenario).expect("offered parameters resolve");
                assert!(
                    info.range.min <= info.range.max,
                    "{}: {}",
                    preset.id,
                    p.name()
                );
                // A key round-trips through the spec's wire form.
                let (key, variant, index) = p.key();
                assert_eq!(&SweepParameter::parse_key(&key, variant, index).unwrap(), p);
            }
        }
        let bounce = crate::presets::find("connect/worker-bounce")
            .unwrap()
            .scenario();
        let names: Vec<String> = parameters(&bounce).iter().map(|p| p.name()).collect();
        assert!(names.contains(&"scheduled.rebalance.max.delay.ms".to_string()));
        assert!(names.contains(&"workers".to_string()));
        assert!(names.contains(&"events[0].downtime_ms".to_string()));
        assert!(!names.contains(&"instances".to_string()), "a Streams field");
    }
}
