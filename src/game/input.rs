//! Keys → actions, as plain functions of the key and the UI mode, so the bindings are
//! tested without a window. Number keys pick a hotbar slot outside the preset menu and a
//! preset inside it; A/D/arrows and Space walk and jump in play and pan in the free camera.

use macroquad::input::KeyCode;

/// What the player asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Reseed,
    OpenSeedBox,
    CopySeed,
    ToggleOverlay,
    FitWorld,
    Home,
    TogglePresetMenu,
    /// Esc: closes the open menu or box.
    Close,
    /// Menu entry by number (0-based).
    ChoosePreset(usize),
    MenuUp,
    MenuDown,
    /// Enter: submits the seed box or picks the highlighted menu entry.
    Confirm,
    Backspace,
    Paste,
    /// Hotbar slot by number (0-based).
    Slot(usize),
    ToggleMinimap,
    /// Between following the player and the free viewer camera.
    ToggleCamera,
    Save,
    /// F9: the newest save of the world being played.
    Load,
    /// L: the list of every save, to pick one.
    OpenLoadList,
    /// Load-list entry by number (0-based).
    ChooseSave(usize),
    /// An answer to the question about unsaved edits.
    Answer(super::guard::Answer),
    /// F2: opens or closes the world lab's panel.
    ToggleLab,
}

/// Which UI has the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    World,
    PresetMenu,
    SeedBox,
    LoadList,
    /// The question about unsaved edits: save and continue, discard or cancel.
    Confirm,
    /// The world lab's panel has the keyboard (its keys are `lab::key`'s).
    Lab,
}

impl Mode {
    /// Does the world stand still behind this UI (no movement, no flowing water)?
    pub fn pauses(self) -> bool {
        matches!(self, Mode::Confirm)
    }
}

/// The action for a key press in `mode`; `ctrl` is whether Control is held.
pub fn action(key: KeyCode, mode: Mode, ctrl: bool) -> Option<Action> {
    use Action::*;
    use KeyCode as K;
    match mode {
        Mode::Confirm => {
            use super::guard::Answer as A;
            match key {
                K::S | K::Y | K::Enter | K::KpEnter => Some(Answer(A::Save)),
                K::D | K::N => Some(Answer(A::Discard)),
                K::Escape | K::C => Some(Answer(A::Cancel)),
                _ => None,
            }
        }
        Mode::SeedBox => match key {
            K::Escape => Some(Close),
            K::Enter | K::KpEnter => Some(Confirm),
            K::Backspace => Some(Backspace),
            K::V if ctrl => Some(Paste),
            _ => None,
        },
        Mode::PresetMenu => match key {
            K::Escape | K::P | K::Tab => Some(Close),
            K::Up | K::W => Some(MenuUp),
            K::Down | K::S => Some(MenuDown),
            K::Enter | K::KpEnter => Some(Confirm),
            _ => digit(key).map(|d| ChoosePreset(d - 1)),
        },
        Mode::LoadList => match key {
            K::Escape | K::L | K::F9 => Some(Close),
            K::Up | K::W => Some(MenuUp),
            K::Down | K::S => Some(MenuDown),
            K::Enter | K::KpEnter => Some(Confirm),
            _ => digit(key).map(|d| ChooseSave(d - 1)),
        },
        Mode::Lab => (key == K::F2).then_some(ToggleLab),
        Mode::World => match key {
            K::F2 => Some(ToggleLab),
            K::R => Some(Reseed),
            K::T => Some(OpenSeedBox),
            K::C => Some(CopySeed),
            K::F3 => Some(ToggleOverlay),
            K::F => Some(FitWorld),
            K::H => Some(Home),
            K::P | K::Tab => Some(TogglePresetMenu),
            K::M => Some(ToggleMinimap),
            K::V | K::F1 => Some(ToggleCamera),
            K::F5 => Some(Save),
            K::F9 => Some(Load),
            K::L => Some(OpenLoadList),
            _ => digit(key).map(|d| Slot(d - 1)),
        },
    }
}

/// 1..=9 for the number keys (top row or keypad).
pub fn digit(key: KeyCode) -> Option<usize> {
    use KeyCode as K;
    let d = match key {
        K::Key1 | K::Kp1 => 1,
        K::Key2 | K::Kp2 => 2,
        K::Key3 | K::Kp3 => 3,
        K::Key4 | K::Kp4 => 4,
        K::Key5 | K::Kp5 => 5,
        K::Key6 | K::Kp6 => 6,
        K::Key7 | K::Kp7 => 7,
        K::Key8 | K::Kp8 => 8,
        K::Key9 | K::Kp9 => 9,
        _ => return None,
    };
    Some(d)
}

/// Pan direction from held keys (WASD and arrows), each axis in -1..=1, y down.
pub fn pan_direction(held: impl Fn(KeyCode) -> bool) -> (f32, f32) {
    use KeyCode as K;
    let axis = |neg: [KeyCode; 2], pos: [KeyCode; 2]| {
        (pos.iter().any(|&k| held(k)) as i32 - neg.iter().any(|&k| held(k)) as i32) as f32
    };
    (
        axis([K::A, K::Left], [K::D, K::Right]),
        axis([K::W, K::Up], [K::S, K::Down]),
    )
}

/// Keys that jump (and swim).
pub const JUMP_KEYS: [KeyCode; 3] = [KeyCode::Space, KeyCode::W, KeyCode::Up];

/// The player's controls from held keys: A/Left, D/Right; Space, W or Up jump. `presses`:
/// the jump keys' presses since the last frame ([`JumpPresses`]).
pub fn walk_input(held: impl Fn(KeyCode) -> bool, presses: u8) -> crate::player::Input {
    use KeyCode as K;
    crate::player::Input {
        left: held(K::A) || held(K::Left),
        right: held(K::D) || held(K::Right),
        jump: JUMP_KEYS.into_iter().any(held),
        presses,
    }
}

/// Counts presses of the jump keys as the window's events arrive, so a tap that begins
/// and ends between two frames (a held-key check at frame time misses it) still counts,
/// and two taps in one long frame count twice. Key repeat is not a press.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JumpPresses(pub u8);

impl JumpPresses {
    /// A key went down (`repeat`: the system's key repeat while held).
    pub fn key_down(&mut self, key: KeyCode, repeat: bool) {
        if !repeat && JUMP_KEYS.contains(&key) {
            self.0 = self.0.saturating_add(1);
        }
    }

    /// The presses since the last call.
    pub fn take(&mut self) -> u8 {
        std::mem::take(&mut self.0)
    }
}

impl macroquad::miniquad::EventHandler for JumpPresses {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn key_down_event(&mut self, key: KeyCode, _mods: macroquad::miniquad::KeyMods, repeat: bool) {
        self.key_down(key, repeat);
    }
}

/// Zoom direction from held keys: +1 zooms in (`+`/`=`), -1 out (`-`).
pub fn zoom_direction(held: impl Fn(KeyCode) -> bool) -> i32 {
    use KeyCode as K;
    (held(K::Equal) || held(K::KpAdd)) as i32 - (held(K::Minus) || held(K::KpSubtract)) as i32
}

/// Tiles panned per second at a given zoom: a screen width every ~1.2 s.
pub fn pan_speed(screen_width: f32, zoom: f64) -> f64 {
    screen_width as f64 / zoom / 1.2
}

/// Zoom factor for one wheel event (`dy` > 0 scrolls up: zoom in).
pub fn wheel_factor(dy: f32) -> f64 {
    if dy > 0.0 {
        1.2
    } else if dy < 0.0 {
        1.0 / 1.2
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use KeyCode as K;

    #[test]
    fn world_keys() {
        assert_eq!(action(K::R, Mode::World, false), Some(Action::Reseed));
        assert_eq!(
            action(K::F3, Mode::World, false),
            Some(Action::ToggleOverlay)
        );
        assert_eq!(
            action(K::P, Mode::World, false),
            Some(Action::TogglePresetMenu)
        );
        assert_eq!(action(K::T, Mode::World, false), Some(Action::OpenSeedBox));
        assert_eq!(action(K::C, Mode::World, false), Some(Action::CopySeed));
        assert_eq!(
            (
                action(K::F, Mode::World, false),
                action(K::H, Mode::World, false)
            ),
            (Some(Action::FitWorld), Some(Action::Home))
        );
    }

    #[test]
    fn play_keys() {
        assert_eq!(action(K::Key1, Mode::World, false), Some(Action::Slot(0)));
        assert_eq!(action(K::Kp9, Mode::World, false), Some(Action::Slot(8)));
        assert_eq!(
            action(K::M, Mode::World, false),
            Some(Action::ToggleMinimap)
        );
        assert_eq!(action(K::V, Mode::World, false), Some(Action::ToggleCamera));
        assert_eq!(action(K::F5, Mode::World, false), Some(Action::Save));
        assert_eq!(action(K::F9, Mode::World, false), Some(Action::Load));
        assert_eq!(action(K::L, Mode::World, false), Some(Action::OpenLoadList));
        assert_eq!(
            action(K::Key2, Mode::LoadList, false),
            Some(Action::ChooseSave(1))
        );
        assert_eq!(action(K::L, Mode::LoadList, false), Some(Action::Close));
        assert_eq!(action(K::R, Mode::LoadList, false), None);
        // Space and A/D are held keys (walk_input), not actions.
        assert_eq!(action(K::Space, Mode::World, false), None);
        assert_eq!(action(K::Key0, Mode::World, false), None);
        // In the menu the number keys still choose presets, and typing never plays.
        assert_eq!(action(K::M, Mode::SeedBox, false), None);
        assert_eq!(action(K::F5, Mode::PresetMenu, false), None);
    }

    #[test]
    fn walking_keys() {
        let i = walk_input(|k| k == K::A || k == K::Space, 0);
        assert!(i.left && !i.right && i.jump);
        let i = walk_input(|k| k == K::Right, 2);
        assert!(!i.left && i.right && !i.jump && i.presses == 2);
        assert_eq!(walk_input(|_| false, 0), crate::player::Input::default());
    }

    #[test]
    fn jump_presses_count_each_press_but_not_key_repeat() {
        let mut p = JumpPresses::default();
        p.key_down(K::Space, false);
        p.key_down(K::Space, true);
        p.key_down(K::Up, false);
        p.key_down(K::D, false);
        assert_eq!(p.take(), 2);
        assert_eq!(p.take(), 0);
    }

    #[test]
    fn number_keys_choose_presets_only_in_the_menu() {
        assert_eq!(
            action(K::Key1, Mode::PresetMenu, false),
            Some(Action::ChoosePreset(0))
        );
        assert_eq!(
            action(K::Kp9, Mode::PresetMenu, false),
            Some(Action::ChoosePreset(8))
        );
        assert_eq!(
            action(K::Escape, Mode::PresetMenu, false),
            Some(Action::Close)
        );
        assert_eq!(action(K::Key0, Mode::PresetMenu, false), None);
    }

    #[test]
    fn the_question_takes_save_discard_or_cancel_and_nothing_else() {
        use crate::game::guard::Answer as A;
        let ask = |k| action(k, Mode::Confirm, false);
        assert_eq!(ask(K::S), Some(Action::Answer(A::Save)));
        assert_eq!(ask(K::Enter), Some(Action::Answer(A::Save)));
        assert_eq!(ask(K::D), Some(Action::Answer(A::Discard)));
        assert_eq!(ask(K::Escape), Some(Action::Answer(A::Cancel)));
        // A second R, F9 or a number does not slip past the question.
        assert_eq!(ask(K::R), None);
        assert_eq!(ask(K::F9), None);
        assert_eq!(ask(K::Key1), None);
    }

    #[test]
    fn seed_box_swallows_letters() {
        assert_eq!(action(K::R, Mode::SeedBox, false), None);
        assert_eq!(
            action(K::Enter, Mode::SeedBox, false),
            Some(Action::Confirm)
        );
        assert_eq!(action(K::V, Mode::SeedBox, true), Some(Action::Paste));
        assert_eq!(action(K::V, Mode::SeedBox, false), None);
    }

    #[test]
    fn pan_and_zoom_directions() {
        assert_eq!(pan_direction(|k| k == K::A || k == K::Down), (-1.0, 1.0));
        assert_eq!(pan_direction(|k| k == K::Left || k == K::Right), (0.0, 0.0));
        assert_eq!(zoom_direction(|k| k == K::Equal), 1);
        assert_eq!(zoom_direction(|k| k == K::KpSubtract), -1);
        assert!(wheel_factor(1.0) > 1.0 && wheel_factor(-3.0) < 1.0 && wheel_factor(0.0) == 1.0);
        assert!((pan_speed(1200.0, 2.0) - 500.0).abs() < 1e-9);
    }
}
