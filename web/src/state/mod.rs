//! Pure state, no browser calls, tested natively: the page's reducers
//! ([`playground`] for the scenario and its result, [`playback`] for the
//! playhead, [`overlays`]), the scenario [`edit`]s they apply (and
//! [`error_names`], the engine's errors in the page's words), Connect
//! configuration by Kafka property name ([`config_keys`]), and what the
//! views derive from a result ([`series`], [`summary`], [`story`]), the
//! visible time window ([`viewport`]) and how a pinch moves it ([`gesture`]),
//! how numbers read ([`numbers`]) and the code marked in engine text
//! ([`inline_code`]).

pub(crate) mod config_keys;
pub(crate) mod edit;
pub(crate) mod error_names;
pub(crate) mod gesture;
pub(crate) mod inline_code;
pub(crate) mod newest;
pub(crate) mod numbers;
pub(crate) mod overlays;
pub(crate) mod playback;
pub(crate) mod playground;
pub(crate) mod series;
pub(crate) mod story;
pub(crate) mod summary;
pub(crate) mod sweep;
pub(crate) mod target_view;
pub(crate) mod viewport;
