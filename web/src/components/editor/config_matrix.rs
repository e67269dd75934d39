//! Protocol configuration under Kafka's property names, for both families:
//! the Connect worker configs (cluster column and one per compared
//! protocol) and the Streams configs (application column and one per
//! compared setting), both in the shared [`ConfigGrid`].

use std::rc::Rc;

use engine::scenario::{limits, ConnectConfig, ConnectVariant, StreamsConfig, StreamsVariant};
use yew::prelude::*;

use super::config_grid::{config_grid, Column, Grid, GridColumn, Switch};
use crate::state::config_keys::{self, Key, WARMUPS_OFF_KEY, WARMUPS_OFF_VALUE};
use crate::state::edit::{
    set_streams_version, streams_version_key, Edit, StreamsConfigs, STREAMS_VERSION_KEY,
};

/// Props of [`ConfigMatrix`]: only the configs the grid shows, so that an
/// edit of anything else leaves them equal and Yew skips the grid's render
/// (its cells get new callbacks on every render: about 2 ms an edit).
#[derive(Properties, PartialEq)]
pub struct ConnectConfigProps {
    /// The cluster's worker configs.
    pub cluster: Rc<ConnectConfig>,
    /// The compared protocols.
    pub variants: Rc<Vec<ConnectVariant>>,
    /// An edit.
    pub on_edit: Callback<Edit>,
    /// Text that is not a value for its key.
    pub on_error: Callback<String>,
}

/// Props of [`StreamsConfigMatrix`]: only what the grid shows, as for
/// [`ConnectConfigProps`], so an edit of the instances, the topology or the
/// events leaves them equal and Yew skips the grid's render.
#[derive(Properties, PartialEq)]
pub struct StreamsConfigProps {
    /// The application's release and configs and the compared columns.
    pub configs: Rc<StreamsConfigs>,
    /// An edit.
    pub on_edit: Callback<Edit>,
    /// Text that is not a value for its key.
    pub on_error: Callback<String>,
}

/// Every key's value in `config`, in `keys`' order.
fn values<T: serde::Serialize>(keys: &[Key], config: &T) -> Vec<Option<String>> {
    keys.iter()
        .map(|k| config_keys::get(config, k.name))
        .collect()
}

/// The Connect matrix.
#[component]
pub fn ConfigMatrix(props: &ConnectConfigProps) -> Html {
    let keys = use_memo((), |_| Rc::new(config_keys::keys()));
    let keys: Rc<Vec<Key>> = (*keys).clone();
    let cluster = (*props.cluster).clone();
    let variants = (*props.variants).clone();
    let columns: Vec<GridColumn> = variants
        .iter()
        .map(|v| GridColumn {
            label: v.label.clone(),
            values: values(&keys, &v.config),
        })
        .collect();

    let on_cell = {
        let (on_edit, on_error, keys) =
            (props.on_edit.clone(), props.on_error.clone(), keys.clone());
        let (cluster, variants) = (cluster.clone(), variants.clone());
        Callback::from(move |(column, k, text): (Column, usize, String)| {
            let Some(key) = keys.get(k) else { return };
            match column {
                None => match config_keys::set(&cluster, key, &text) {
                    Ok(c) => on_edit.emit(Edit::ClusterConfig(c)),
                    Err(e) => on_error.emit(e),
                },
                Some(i) => {
                    let mut next = variants.clone();
                    let Some(v) = next.get_mut(i) else { return };
                    match config_keys::set(&v.config, key, &text) {
                        Ok(c) => {
                            v.config = c;
                            on_edit.emit(Edit::Variants(next));
                        }
                        Err(e) => on_error.emit(e),
                    }
                }
            }
        })
    };
    let on_label = {
        let (on_edit, variants) = (props.on_edit.clone(), variants.clone());
        Callback::from(move |(i, text): (usize, String)| {
            let mut next = variants.clone();
            if let Some(v) = next.get_mut(i) {
                v.label = text;
                on_edit.emit(Edit::Variants(next));
            }
        })
    };
    let on_remove = {
        let (on_edit, variants) = (props.on_edit.clone(), variants.clone());
        Callback::from(move |i: usize| {
            let mut next = variants.clone();
            if i < next.len() && next.len() > 1 {
                next.remove(i);
                on_edit.emit(Edit::Variants(next));
            }
        })
    };
    let on_add = {
        let (on_edit, variants) = (props.on_edit.clone(), variants.clone());
        Callback::from(move |()| {
            let mut next = variants.clone();
            // Inherit every key, the protocol included, until the user sets one.
            next.push(ConnectVariant {
                label: format!("variant {}", next.len() + 1),
                config: ConnectConfig::default(),
            });
            on_edit.emit(Edit::Variants(next));
        })
    };
    config_grid(&Grid {
        legend: "Protocols (Kafka worker configs; empty cells inherit)".into(),
        base_title: "cluster".into(),
        base_id: "cfg-cluster".into(),
        base: Rc::new(values(&keys, &cluster)),
        keys,
        columns: Rc::new(columns),
        switches: &[],
        can_add: variants.len() < limits::MAX_VARIANTS,
        on_cell,
        on_label,
        on_add,
        on_remove,
    })
}

/// The Streams switches: warmups off.
const STREAMS_SWITCHES: &[Switch] = &[Switch {
    label: "warmups off",
    help: "acceptable.recovery.lag at Long.MAX_VALUE: every client counts as caught up, so HighAvailabilityTaskAssignor moves active tasks at once and assigns no warmup replicas (KIP-441)",
    key: WARMUPS_OFF_KEY,
    on_value: WARMUPS_OFF_VALUE,
    shown_as: "Long.MAX_VALUE",
}];

/// The Streams matrix: the Kafka Streams release and configs, with a
/// switch for warmups.
#[component]
pub fn StreamsConfigMatrix(props: &StreamsConfigProps) -> Html {
    let configs = props.configs.clone();
    // The release first, as Connect's `kafka_version` key is; Kafka's
    // config keys after it (row `k` of the grid is `keys[k]`).
    let mut rows = vec![streams_version_key()];
    rows.extend(config_keys::streams_keys(configs.app_release()));
    let keys = Rc::new(rows);
    let with_version = |version: Option<engine::scenario::KafkaVersion>, config: &StreamsConfig| {
        let mut v = vec![version.map(|v| v.to_string())];
        v.extend(values(&keys[1..], config));
        v
    };
    let columns: Vec<GridColumn> = configs
        .compare
        .iter()
        .map(|v| GridColumn {
            label: v.label.clone(),
            values: with_version(v.kafka_version, &v.config),
        })
        .collect();
    // Every change in the grid is one edit of the grid's part.
    let change = {
        let (on_edit, configs) = (props.on_edit.clone(), configs.clone());
        move |f: &dyn Fn(&mut StreamsConfigs) -> bool| {
            let mut next = (*configs).clone();
            if f(&mut next) {
                on_edit.emit(Edit::StreamsConfigs(Box::new(next)));
            }
        }
    };
    let on_cell = {
        let (change, on_error, keys) = (change.clone(), props.on_error.clone(), keys.clone());
        Callback::from(move |(column, k, text): (Column, usize, String)| {
            let Some(key) = keys.get(k) else { return };
            change(&|s| {
                if key.name == STREAMS_VERSION_KEY {
                    return match set_streams_version(s, column, &text) {
                        Ok(()) => true,
                        Err(e) => {
                            on_error.emit(e);
                            false
                        }
                    };
                }
                let target: &mut StreamsConfig = match column {
                    None => &mut s.app_config,
                    Some(i) => match s.compare.get_mut(i) {
                        Some(v) => &mut v.config,
                        None => return false,
                    },
                };
                match config_keys::set(target, key, &text) {
                    Ok(c) => {
                        *target = c;
                        true
                    }
                    Err(e) => {
                        on_error.emit(e);
                        false
                    }
                }
            })
        })
    };
    let on_label = {
        let change = change.clone();
        Callback::from(move |(i, text): (usize, String)| {
            change(&|s| match s.compare.get_mut(i) {
                Some(v) => {
                    v.label = text.clone();
                    true
                }
                None => false,
            })
        })
    };
    let on_remove = {
        let change = change.clone();
        Callback::from(move |i: usize| {
            change(&|s| {
                let ok = i < s.compare.len() && s.compare.len() > 1;
                if ok {
                    s.compare.remove(i);
                }
                ok
            })
        })
    };
    let on_add = Callback::from(move |()| {
        change(&|s| {
            let label = format!("variant {}", s.compare.len() + 1);
            s.compare.push(StreamsVariant {
                label,
                kafka_version: None,
                config: StreamsConfig::default(),
            });
            true
        })
    });
    config_grid(&Grid {
        legend: "Streams configs (Kafka property names; empty cells inherit)".into(),
        base_title: "application".into(),
        base_id: "cfg-app".into(),
        base: Rc::new(with_version(configs.app_version, &configs.app_config)),
        keys,
        columns: Rc::new(columns),
        switches: STREAMS_SWITCHES,
        can_add: configs.compare.len() < limits::MAX_VARIANTS,
        on_cell,
        on_label,
        on_add,
        on_remove,
    })
}
