//! Keyboard shortcuts, as listed in [`crate::components::help_overlay::SHORTCUTS`].

use crate::state::playback::PlayAction;

/// What a key press asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A playback action.
    Play(PlayAction),
    /// Toggle the help overlay.
    Help,
    /// Close whatever is open (help, round details).
    Escape,
}

/// The command for a key (`KeyboardEvent.key`) with Shift held or not.
/// Keys typed into form fields never get here (see the App's listener).
pub fn command(key: &str, shift: bool) -> Option<Command> {
    Some(match (key, shift) {
        (" " | "Spacebar", _) => Command::Play(PlayAction::Toggle),
        ("ArrowRight", false) => Command::Play(PlayAction::Step(1)),
        ("ArrowLeft", false) => Command::Play(PlayAction::Step(-1)),
        ("ArrowRight", true) => Command::Play(PlayAction::Nudge(0.01)),
        ("ArrowLeft", true) => Command::Play(PlayAction::Nudge(-0.01)),
        ("Home", _) => Command::Play(PlayAction::Jump(false)),
        ("End", _) => Command::Play(PlayAction::Jump(true)),
        ("?", _) => Command::Help,
        ("Escape", _) => Command::Escape,
        _ => return None,
    })
}

/// Whether `cmd` runs when its key is released rather than pressed: play
/// and pause do, as a button's Space does. While the key is down the page
/// gets ready for playback (the lanes' layer is rastered, see
/// `web/style.css`), and a key held down toggles once, not on every repeat.
pub fn runs_on_release(cmd: &Command) -> bool {
    matches!(cmd, Command::Play(PlayAction::Toggle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_shortcut_has_a_command() {
        assert_eq!(command(" ", false), Some(Command::Play(PlayAction::Toggle)));
        assert_eq!(
            command("ArrowRight", false),
            Some(Command::Play(PlayAction::Step(1)))
        );
        assert_eq!(
            command("ArrowLeft", true),
            Some(Command::Play(PlayAction::Nudge(-0.01)))
        );
        assert_eq!(command("?", true), Some(Command::Help));
        assert_eq!(command("Escape", false), Some(Command::Escape));
        assert_eq!(command("x", false), None);
        assert_eq!(crate::components::help_overlay::SHORTCUTS.len(), 7);
    }

    #[test]
    fn only_play_and_pause_wait_for_the_key_to_be_released() {
        let keys = [" ", "ArrowRight", "ArrowLeft", "Home", "End", "?", "Escape"];
        let on_release: Vec<&str> = keys
            .into_iter()
            .filter(|k| command(k, false).is_some_and(|c| runs_on_release(&c)))
            .collect();
        assert_eq!(on_release, [" "]);
    }
}
