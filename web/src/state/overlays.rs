//! Which overlay is open: the keyboard help or the embed snippet.

use std::rc::Rc;

use yew::Reducible;

/// Open overlays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overlays {
    /// The keyboard help.
    pub help: bool,
    /// The embed snippet.
    pub embed: bool,
}

/// Overlay changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverlayAction {
    /// Toggle the help.
    ToggleHelp,
    /// Show the embed snippet.
    ShowEmbed,
    /// Close everything.
    Close,
}

impl Overlays {
    /// True when one is open.
    pub fn any(self) -> bool {
        self.help || self.embed
    }
}

impl Reducible for Overlays {
    type Action = OverlayAction;

    fn reduce(self: Rc<Self>, action: OverlayAction) -> Rc<Self> {
        let next = match action {
            OverlayAction::ToggleHelp => Overlays {
                help: !self.help,
                embed: false,
            },
            OverlayAction::ShowEmbed => Overlays {
                help: false,
                embed: true,
            },
            OverlayAction::Close => Overlays::default(),
        };
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}
