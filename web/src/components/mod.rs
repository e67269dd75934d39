//! The Yew components. [`app::App`] is the page; the comparison view holds
//! one [`column`] per compared protocol, each with its timeline (detailed
//! or summarised); the [`editor`] edits the scenario; the rest are the
//! overlays, the share tools and the gallery.

pub(crate) mod app;
mod column;
mod compare_view;
mod editor;
mod embed_dialog;
mod engine_text;
mod follow;
mod gallery;
pub(crate) mod help_overlay;
mod legend;
mod markers;
mod metric_cards;
mod outbox;
mod round_details;
mod run_status;
mod running_chart;
mod share_bar;
mod side_panel;
mod story_list;
mod summary_body;
pub(crate) mod sweep_root;
mod sweep_view;
mod target_details;
mod target_epochs;
mod timeline;
mod timeline_body;
mod timeline_pointer;
mod timeline_width;
mod transport;
mod view_bar;
mod warm_up;
