//! Keys → actions, as plain functions of the key, the UI mode and the player's key
//! bindings ([`Bindings`], from the settings file), so they are tested without a window.
//! Number keys pick a hotbar slot outside the menus and an entry inside them; the left,
//! right and jump keys walk and jump in play and pan in the free camera. Esc opens the
//! pause menu and closes every other one; F11 and Alt+Enter switch fullscreen (F11 is a
//! binding, Alt+Enter fixed). Key presses and typed characters are read from the window's
//! events in the order they came ([`Events`]), so taps that fall within one frame are each
//! a press.

use super::settings::{Bindings, Command, digit};
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
    /// Sound on / off (the settings' `muted`).
    ToggleMute,
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
    Answer(super::worlds::guard::Answer),
    /// F2: opens or closes the world lab's panel.
    ToggleLab,
    /// Esc in play: the pause menu.
    OpenPause,
    /// Pause or settings menu entry by number (0-based).
    ChooseEntry(usize),
    /// Left/right on a settings entry: -1 or +1.
    Adjust(i32),
    ToggleFullscreen,
    OpenHelp,
    /// I: the inventory screen with the crafting panel, open or closed.
    ToggleInventory,
    /// X: says whether the room under the mouse is a house, or what it lacks.
    QueryHousing,
    /// G: throws out the selected stack, or the one on the cursor.
    Throw,
    /// E: fires the grappling hook toward the mouse.
    Hook,
    /// Takes everything out of the open chest that fits.
    LootAll,
    /// Puts everything but the hotbar into the open chest.
    DepositAll,
    /// Enter: opens the chat line.
    OpenChat,
    /// Moves the chat line's cursor or deletes under it.
    Edit(Edit),
    /// F7: reads the content again (built-in files, rules, mods) and makes the world
    /// again with it, as a preset file's reload does.
    ReloadContent,
}

/// An edit of the chat line beside typing, Backspace and pasting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    Left,
    Right,
    Home,
    End,
    Delete,
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
    /// Esc: resume, settings, save, help, quit.
    Pause,
    /// The settings menu (from the pause menu).
    Settings,
    /// The controls as bound (F1, or from the pause menu).
    Help,
    /// The inventory screen and crafting panel.
    Inventory,
    /// The chat line at the bottom (Enter): keys type into it, the world goes on.
    Chat,
    /// The Join form (pause menu): the server's address, a name, a password.
    Join,
    /// The form of Open to the network (pause menu): the port, a name, a password, the
    /// most players.
    Host,
    /// The start screen: a character, then a world (`app::start`).
    Start,
}

impl Mode {
    /// Does the world stand still behind this UI (no movement, no flowing water)? It does
    /// behind the menus and the question, and while the world lab's panel is open (the
    /// player browsing it is not there to fight).
    pub fn pauses(self) -> bool {
        matches!(
            self,
            Mode::Confirm
                | Mode::Start
                | Mode::Pause
                | Mode::Settings
                | Mode::Help
                | Mode::Lab
                | Mode::Join
                | Mode::Host
        )
    }
}

/// Modifier keys held with a key press.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    pub ctrl: bool,
    pub alt: bool,
    pub shift: bool,
}

impl From<macroquad::miniquad::KeyMods> for Mods {
    fn from(m: macroquad::miniquad::KeyMods) -> Mods {
        Mods {
            ctrl: m.ctrl,
            alt: m.alt,
            shift: m.shift,
        }
    }
}

/// A key press or a typed character, with the modifiers held at that moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Press {
    Key(KeyCode, Mods),
    Char(char, Mods),
}

/// What the window's events brought since the last frame: every key press and typed
/// character in order (a tap that begins and ends between two frames is a press, and 27
/// quick taps are 27), the jump keys' presses, and whether the window has the keyboard
/// focus (it starts with it; on X11 the focus leaving the window, elsewhere minimising it,
/// takes it away). Key repeat is not a press; a held key's repeated characters are typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Events {
    pub presses: Vec<Press>,
    pub jumps: JumpPresses,
    pub focused: bool,
}

impl Events {
    /// Reads events for `keys` as bound.
    pub fn new(keys: &Bindings) -> Events {
        Events {
            presses: Vec::new(),
            jumps: JumpPresses::new(keys),
            focused: true,
        }
    }

    /// A key went down (`repeat`: the system's key repeat while held).
    pub fn key_down(&mut self, key: KeyCode, mods: Mods, repeat: bool) {
        self.jumps.key_down(key, repeat);
        if !repeat {
            self.presses.push(Press::Key(key, mods));
        }
    }

    /// The presses since the last call, in order.
    pub fn take(&mut self) -> Vec<Press> {
        std::mem::take(&mut self.presses)
    }
}

impl macroquad::miniquad::EventHandler for Events {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn key_down_event(&mut self, key: KeyCode, mods: macroquad::miniquad::KeyMods, repeat: bool) {
        self.key_down(key, mods.into(), repeat);
    }
    fn char_event(&mut self, c: char, mods: macroquad::miniquad::KeyMods, _repeat: bool) {
        self.presses.push(Press::Char(c, mods.into()));
    }
    fn window_minimized_event(&mut self) {
        self.focused = false;
    }
    fn window_restored_event(&mut self) {
        self.focused = true;
    }
}

/// The action for a key press in `mode`, with `keys` bound as the player chose.
pub fn action(key: KeyCode, mode: Mode, mods: Mods, keys: &Bindings) -> Option<Action> {
    use Action::*;
    use KeyCode as K;
    let enter = matches!(key, K::Enter | K::KpEnter);
    if (enter && mods.alt)
        || (mode != Mode::SeedBox && keys.command(key) == Some(Command::Fullscreen))
    {
        return Some(ToggleFullscreen);
    }
    let bound = |c: Command| keys.command(key) == Some(c);
    let menu_keys = |choose: fn(usize) -> Action| match key {
        K::Up | K::W => Some(MenuUp),
        K::Down | K::S => Some(MenuDown),
        K::Enter | K::KpEnter => Some(Confirm),
        _ => digit(key).map(|d| choose(d - 1)),
    };
    match mode {
        Mode::Confirm => {
            use super::worlds::guard::Answer as A;
            match key {
                K::S | K::Y | K::Enter | K::KpEnter => Some(Answer(A::Save)),
                K::D | K::N => Some(Answer(A::Discard)),
                K::Escape | K::C => Some(Answer(A::Cancel)),
                _ => None,
            }
        }
        Mode::Join | Mode::Host => match key {
            K::Escape => Some(Close),
            K::Enter | K::KpEnter => Some(Confirm),
            K::Backspace => Some(Backspace),
            K::V if mods.ctrl => Some(Paste),
            K::Tab | K::Down => Some(MenuDown),
            K::Up => Some(MenuUp),
            _ => None,
        },
        // Letters are typed into a new character's name; R is for the worlds' rows.
        Mode::Start => match key {
            K::Escape => Some(Close),
            K::Enter | K::KpEnter => Some(Confirm),
            K::Backspace => Some(Backspace),
            K::V if mods.ctrl => Some(Paste),
            K::Up => Some(MenuUp),
            K::Down => Some(MenuDown),
            K::R => Some(Reseed),
            _ => digit(key).map(|d| ChooseEntry(d - 1)),
        },
        Mode::Chat => match key {
            K::Escape => Some(Close),
            K::Enter | K::KpEnter => Some(Confirm),
            K::Backspace => Some(Backspace),
            K::V if mods.ctrl => Some(Paste),
            K::Left => Some(Action::Edit(self::Edit::Left)),
            K::Right => Some(Action::Edit(self::Edit::Right)),
            K::Home => Some(Action::Edit(self::Edit::Home)),
            K::End => Some(Action::Edit(self::Edit::End)),
            K::Delete => Some(Action::Edit(self::Edit::Delete)),
            _ => None,
        },
        Mode::SeedBox => match key {
            K::Escape => Some(Close),
            K::Enter | K::KpEnter => Some(Confirm),
            K::Backspace => Some(Backspace),
            K::V if mods.ctrl => Some(Paste),
            _ => None,
        },
        Mode::PresetMenu if key == K::Escape || bound(Command::Presets) => Some(Close),
        Mode::PresetMenu => menu_keys(ChoosePreset),
        Mode::LoadList if key == K::Escape || bound(Command::Saves) || bound(Command::Load) => {
            Some(Close)
        }
        Mode::LoadList => menu_keys(ChooseSave),
        Mode::Pause => match key {
            K::Escape => Some(Close),
            _ => menu_keys(ChooseEntry),
        },
        Mode::Settings => match key {
            K::Escape => Some(Close),
            K::Left | K::A => Some(Adjust(-1)),
            K::Right | K::D => Some(Adjust(1)),
            _ => menu_keys(ChooseEntry),
        },
        Mode::Inventory if key == K::Escape || bound(Command::Inventory) => Some(Close),
        Mode::Inventory if bound(Command::Throw) => Some(Throw),
        Mode::Inventory if bound(Command::LootAll) => Some(LootAll),
        Mode::Inventory if bound(Command::DepositAll) => Some(DepositAll),
        Mode::Inventory => match key {
            K::Up | K::W => Some(MenuUp),
            K::Down | K::S => Some(MenuDown),
            K::Enter | K::KpEnter => Some(Confirm),
            _ => digit(key).map(|d| Slot(d - 1)),
        },
        Mode::Lab if bound(Command::ReloadContent) => Some(ReloadContent),
        Mode::Lab => bound(Command::Lab).then_some(ToggleLab),
        Mode::Help if key == K::Escape || enter || bound(Command::Help) => Some(Close),
        Mode::Help => None,
        Mode::World if key == K::Escape => Some(OpenPause),
        Mode::World if enter && keys.command(key).is_none() => Some(OpenChat),
        Mode::World => match keys.command(key) {
            Some(Command::Lab) => Some(ToggleLab),
            Some(Command::Reseed) => Some(Reseed),
            Some(Command::SeedBox) => Some(OpenSeedBox),
            Some(Command::CopySeed) => Some(CopySeed),
            Some(Command::Overlay) => Some(ToggleOverlay),
            Some(Command::Fit) => Some(FitWorld),
            Some(Command::Home) => Some(Home),
            Some(Command::Presets) => Some(TogglePresetMenu),
            Some(Command::Minimap) => Some(ToggleMinimap),
            Some(Command::Mute) => Some(ToggleMute),
            Some(Command::Camera) => Some(ToggleCamera),
            Some(Command::Save) => Some(Save),
            Some(Command::Load) => Some(Load),
            Some(Command::Saves) => Some(OpenLoadList),
            Some(Command::Help) => Some(OpenHelp),
            Some(Command::Inventory) => Some(ToggleInventory),
            Some(Command::Housing) => Some(QueryHousing),
            Some(Command::Throw) => Some(Throw),
            Some(Command::Hook) => Some(Hook),
            Some(Command::ReloadContent) => Some(ReloadContent),
            // Held keys (walking, panning, zooming), or fullscreen (above).
            Some(_) => None,
            None => digit(key).map(|d| Slot(d - 1)),
        },
    }
}

/// Why the world stands still this frame, if it does ([`halt`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// Behind the pause or settings menu, the help screen or the question.
    Menu,
    /// The world lab's panel is open.
    Lab,
    /// Another window has the keyboard (or the window is minimised).
    Unfocused,
}

/// Does the world step this frame (the player, creatures, vitals, the day's clock and
/// flowing water)? Not behind a menu (`mode`, [`Mode::pauses`]), not while the world
/// lab's panel is open, and not while the window lacks the keyboard focus when the
/// settings pause it then (`pause_unfocused`, on by default). `None`: it steps.
pub fn halt(mode: Mode, focused: bool, pause_unfocused: bool) -> Option<Halt> {
    match mode {
        Mode::Lab => Some(Halt::Lab),
        m if m.pauses() => Some(Halt::Menu),
        _ if !focused && pause_unfocused => Some(Halt::Unfocused),
        _ => None,
    }
}

/// Pan direction from held keys (the left, right, jump and down keys: WASD and arrows by
/// default), each axis in -1..=1, y down.
pub fn pan_direction(held: impl Fn(KeyCode) -> bool, keys: &Bindings) -> (f32, f32) {
    let axis = |neg: Command, pos: Command| {
        (keys.held(pos, &held) as i32 - keys.held(neg, &held) as i32) as f32
    };
    (
        axis(Command::Left, Command::Right),
        axis(Command::Jump, Command::Down),
    )
}

/// The player's controls from held keys (A/Left, D/Right; Space, W or Up jump by
/// default). `presses`: the jump keys' presses since the last frame ([`JumpPresses`]).
pub fn walk_input(
    held: impl Fn(KeyCode) -> bool,
    presses: u8,
    keys: &Bindings,
) -> crate::sim::player::Input {
    crate::sim::player::Input {
        left: keys.held(Command::Left, &held),
        right: keys.held(Command::Right, &held),
        jump: keys.held(Command::Jump, &held),
        presses,
        down: keys.held(Command::Down, &held),
    }
}

/// Counts presses of the jump keys as the window's events arrive ([`Events`]), so a tap
/// that begins and ends between two frames (a held-key check at frame time misses it)
/// still counts, and two taps in one long frame count twice. Key repeat is not a press.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JumpPresses {
    pub count: u8,
    /// The jump keys as bound.
    pub keys: Vec<KeyCode>,
}

impl JumpPresses {
    /// Counts presses of `keys`' jump keys.
    pub fn new(keys: &Bindings) -> JumpPresses {
        JumpPresses {
            count: 0,
            keys: keys.keys(Command::Jump).iter().map(|k| k.0).collect(),
        }
    }

    /// A key went down (`repeat`: the system's key repeat while held).
    pub fn key_down(&mut self, key: KeyCode, repeat: bool) {
        if !repeat && self.keys.contains(&key) {
            self.count = self.count.saturating_add(1);
        }
    }

    /// The presses since the last call.
    pub fn take(&mut self) -> u8 {
        std::mem::take(&mut self.count)
    }
}

/// Zoom direction from held keys: +1 zooms in (`=` by default), -1 out (`-`).
pub fn zoom_direction(held: impl Fn(KeyCode) -> bool, keys: &Bindings) -> i32 {
    keys.held(Command::ZoomIn, &held) as i32 - keys.held(Command::ZoomOut, &held) as i32
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
    fn the_world_stands_still_behind_menus_in_the_lab_and_without_the_keyboard() {
        for mode in [Mode::World, Mode::Inventory, Mode::LoadList, Mode::SeedBox] {
            assert_eq!(halt(mode, true, true), None, "{mode:?}");
            assert_eq!(halt(mode, false, true), Some(Halt::Unfocused), "{mode:?}");
            assert_eq!(halt(mode, false, false), None, "{mode:?}, the setting off");
        }
        for mode in [Mode::Pause, Mode::Settings, Mode::Help, Mode::Confirm] {
            assert_eq!(halt(mode, true, true), Some(Halt::Menu), "{mode:?}");
            assert_eq!(halt(mode, false, false), Some(Halt::Menu), "{mode:?}");
        }
        assert_eq!(halt(Mode::Lab, true, true), Some(Halt::Lab));
        assert_eq!(halt(Mode::Lab, false, false), Some(Halt::Lab));
    }

    /// The action for `key` in `mode` with the default bindings and no modifier.
    fn act(key: KeyCode, mode: Mode) -> Option<Action> {
        action(key, mode, Mods::default(), &Bindings::default())
    }

    #[test]
    fn world_keys() {
        assert_eq!(act(K::R, Mode::World), Some(Action::Reseed));
        assert_eq!(act(K::F3, Mode::World), Some(Action::ToggleOverlay));
        assert_eq!(act(K::P, Mode::World), Some(Action::TogglePresetMenu));
        assert_eq!(act(K::T, Mode::World), Some(Action::OpenSeedBox));
        assert_eq!(act(K::C, Mode::World), Some(Action::CopySeed));
        assert_eq!(
            (act(K::F, Mode::World), act(K::H, Mode::World)),
            (Some(Action::FitWorld), Some(Action::Home))
        );
        assert_eq!(act(K::Escape, Mode::World), Some(Action::OpenPause));
        assert_eq!(act(K::F1, Mode::World), Some(Action::OpenHelp));
    }

    #[test]
    fn play_keys() {
        assert_eq!(act(K::Key1, Mode::World), Some(Action::Slot(0)));
        assert_eq!(act(K::Kp9, Mode::World), Some(Action::Slot(8)));
        assert_eq!(act(K::M, Mode::World), Some(Action::ToggleMinimap));
        assert_eq!(act(K::F8, Mode::World), Some(Action::ToggleMute));
        assert_eq!(act(K::V, Mode::World), Some(Action::ToggleCamera));
        assert_eq!(act(K::F5, Mode::World), Some(Action::Save));
        assert_eq!(act(K::F9, Mode::World), Some(Action::Load));
        assert_eq!(act(K::L, Mode::World), Some(Action::OpenLoadList));
        assert_eq!(act(K::Key2, Mode::LoadList), Some(Action::ChooseSave(1)));
        assert_eq!(act(K::L, Mode::LoadList), Some(Action::Close));
        assert_eq!(act(K::R, Mode::LoadList), None);
        // Space and A/D are held keys (walk_input), not actions.
        assert_eq!(act(K::Space, Mode::World), None);
        assert_eq!(act(K::Key0, Mode::World), None);
        // In the menu the number keys still choose presets, and typing never plays.
        assert_eq!(act(K::M, Mode::SeedBox), None);
        assert_eq!(act(K::F5, Mode::PresetMenu), None);
    }

    #[test]
    fn rebound_keys_act_and_the_old_ones_stop() {
        let mut keys = Bindings::default();
        keys.bind(Command::Save, K::K).unwrap();
        keys.bind(Command::Jump, K::J).unwrap();
        keys.bind(Command::Presets, K::O).unwrap();
        let m = Mods::default();
        assert_eq!(action(K::K, Mode::World, m, &keys), Some(Action::Save));
        assert_eq!(action(K::F5, Mode::World, m, &keys), Some(Action::Save));
        keys.bind(Command::Reseed, K::F5).unwrap();
        assert_eq!(action(K::F5, Mode::World, m, &keys), Some(Action::Reseed));
        assert_eq!(
            action(K::R, Mode::World, m, &keys),
            Some(Action::Reseed),
            "R stays as the alternate"
        );
        assert_eq!(keys.describe(Command::Save), "K", "F5 left save");
        // The preset menu closes on the preset key as bound.
        assert_eq!(
            action(K::O, Mode::PresetMenu, m, &keys),
            Some(Action::Close)
        );
        let i = walk_input(|k| k == K::J, 0, &keys);
        assert!(i.jump);
        let mut p = JumpPresses::new(&keys);
        p.key_down(K::J, false);
        assert_eq!(p.take(), 1);
    }

    #[test]
    fn fullscreen_from_f11_and_alt_enter_anywhere_but_the_seed_box() {
        let alt = Mods {
            alt: true,
            ..Default::default()
        };
        let keys = Bindings::default();
        for mode in [Mode::World, Mode::Pause, Mode::PresetMenu, Mode::Help] {
            assert_eq!(
                act(K::F11, mode),
                Some(Action::ToggleFullscreen),
                "{mode:?}"
            );
            assert_eq!(
                action(K::Enter, mode, alt, &keys),
                Some(Action::ToggleFullscreen)
            );
        }
        assert_eq!(act(K::F11, Mode::SeedBox), None);
        assert_eq!(act(K::Enter, Mode::PresetMenu), Some(Action::Confirm));
    }

    #[test]
    fn the_pause_settings_and_help_screens_take_their_keys() {
        assert_eq!(act(K::Escape, Mode::Pause), Some(Action::Close));
        assert_eq!(act(K::Key3, Mode::Pause), Some(Action::ChooseEntry(2)));
        assert_eq!(act(K::Down, Mode::Pause), Some(Action::MenuDown));
        assert_eq!(act(K::Enter, Mode::Pause), Some(Action::Confirm));
        assert_eq!(act(K::R, Mode::Pause), None, "no reseeding behind the menu");
        assert_eq!(act(K::Left, Mode::Settings), Some(Action::Adjust(-1)));
        assert_eq!(act(K::D, Mode::Settings), Some(Action::Adjust(1)));
        assert_eq!(act(K::Escape, Mode::Settings), Some(Action::Close));
        assert_eq!(act(K::F1, Mode::Help), Some(Action::Close));
        assert_eq!(act(K::Escape, Mode::Help), Some(Action::Close));
        assert_eq!(act(K::R, Mode::Help), None);
        for mode in [
            Mode::Pause,
            Mode::Settings,
            Mode::Help,
            Mode::Confirm,
            Mode::Lab,
        ] {
            assert!(mode.pauses(), "{mode:?}");
        }
        for mode in [Mode::World, Mode::LoadList, Mode::Inventory, Mode::SeedBox] {
            assert!(!mode.pauses(), "{mode:?}");
        }
    }

    #[test]
    fn inventory_keys() {
        assert_eq!(act(K::I, Mode::World), Some(Action::ToggleInventory));
        for k in [K::I, K::Escape] {
            assert_eq!(act(k, Mode::Inventory), Some(Action::Close));
        }
        assert_eq!(act(K::Enter, Mode::Inventory), Some(Action::Confirm));
        assert_eq!(act(K::Down, Mode::Inventory), Some(Action::MenuDown));
        assert_eq!(act(K::Key3, Mode::Inventory), Some(Action::Slot(2)));
        assert_eq!(act(K::R, Mode::Inventory), None);
        // The inventory's key is a binding like the others: a key bound to it opens and
        // closes the screen, and I given to another command no longer opens it.
        let mut keys = Bindings::default();
        keys.bind(Command::Inventory, K::B).unwrap();
        let m = Mods::default();
        assert_eq!(
            action(K::B, Mode::World, m, &keys),
            Some(Action::ToggleInventory)
        );
        assert_eq!(action(K::B, Mode::Inventory, m, &keys), Some(Action::Close));
        keys.bind(Command::Save, K::I).unwrap();
        assert_eq!(action(K::I, Mode::World, m, &keys), Some(Action::Save));
        assert_eq!(action(K::I, Mode::Inventory, m, &keys), None);
    }

    #[test]
    fn walking_keys() {
        let keys = Bindings::default();
        let i = walk_input(|k| k == K::A || k == K::Space, 0, &keys);
        assert!(i.left && !i.right && i.jump);
        let i = walk_input(|k| k == K::Right, 2, &keys);
        assert!(!i.left && i.right && !i.jump && i.presses == 2);
        assert_eq!(
            walk_input(|_| false, 0, &keys),
            crate::sim::player::Input::default()
        );
    }

    #[test]
    fn jump_presses_count_each_press_but_not_key_repeat() {
        let mut p = JumpPresses::new(&Bindings::default());
        p.key_down(K::Space, false);
        p.key_down(K::Space, true);
        p.key_down(K::Up, false);
        p.key_down(K::D, false);
        assert_eq!(p.take(), 2);
        assert_eq!(p.take(), 0);
    }

    #[test]
    fn every_press_is_kept_in_order_with_its_modifiers() {
        use macroquad::miniquad::{EventHandler, KeyMods};
        let mut e = Events::new(&Bindings::default());
        let none = KeyMods::default();
        for _ in 0..27 {
            e.key_down_event(K::Down, none, false);
        }
        e.key_down_event(K::Down, none, true);
        let ctrl = KeyMods { ctrl: true, ..none };
        e.char_event('v', ctrl, false);
        e.key_down_event(K::V, ctrl, false);
        e.key_down_event(K::Space, none, false);
        let p = e.take();
        assert_eq!(p.len(), 30, "27 taps, a repeat (no press), a chord, a jump");
        assert!(
            p[..27]
                .iter()
                .all(|&x| x == Press::Key(K::Down, Mods::default()))
        );
        let c = Mods {
            ctrl: true,
            ..Default::default()
        };
        assert_eq!(p[27..29], [Press::Char('v', c), Press::Key(K::V, c)]);
        assert_eq!(e.jumps.take(), 1);
        assert!(e.take().is_empty());
        assert!(e.focused);
        e.window_minimized_event();
        assert!(!e.focused);
        e.window_restored_event();
        assert!(e.focused);
    }

    #[test]
    fn number_keys_choose_presets_only_in_the_menu() {
        assert_eq!(
            act(K::Key1, Mode::PresetMenu),
            Some(Action::ChoosePreset(0))
        );
        assert_eq!(act(K::Kp9, Mode::PresetMenu), Some(Action::ChoosePreset(8)));
        assert_eq!(act(K::Escape, Mode::PresetMenu), Some(Action::Close));
        assert_eq!(act(K::Key0, Mode::PresetMenu), None);
    }

    #[test]
    fn the_question_takes_save_discard_or_cancel_and_nothing_else() {
        use crate::game::worlds::guard::Answer as A;
        let ask = |k| act(k, Mode::Confirm);
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
        assert_eq!(act(K::R, Mode::SeedBox), None);
        assert_eq!(act(K::Enter, Mode::SeedBox), Some(Action::Confirm));
        let ctrl = Mods {
            ctrl: true,
            ..Default::default()
        };
        let keys = Bindings::default();
        assert_eq!(
            action(K::V, Mode::SeedBox, ctrl, &keys),
            Some(Action::Paste)
        );
        assert_eq!(act(K::V, Mode::SeedBox), None);
    }

    #[test]
    fn the_start_screen_leaves_letters_to_a_name() {
        // Letters (W and S too) are typed into a new character's name, not taken as keys.
        for k in [K::A, K::W, K::S, K::Space] {
            assert_eq!(act(k, Mode::Start), None);
        }
        assert_eq!(act(K::Key2, Mode::Start), Some(Action::ChooseEntry(1)));
        assert_eq!(act(K::Down, Mode::Start), Some(Action::MenuDown));
        assert_eq!(act(K::R, Mode::Start), Some(Action::Reseed));
        assert_eq!(act(K::Escape, Mode::Start), Some(Action::Close));
        assert!(Mode::Start.pauses());
    }

    #[test]
    fn enter_opens_the_chat_whose_keys_edit_it_and_move_nobody() {
        assert_eq!(act(K::Enter, Mode::World), Some(Action::OpenChat));
        assert_eq!(act(K::KpEnter, Mode::World), Some(Action::OpenChat));
        let alt = Mods {
            alt: true,
            ..Default::default()
        };
        let keys = Bindings::default();
        assert_eq!(
            action(K::Enter, Mode::World, alt, &keys),
            Some(Action::ToggleFullscreen)
        );
        // Letters bound to commands (R reseeds, I opens the inventory) are typed.
        for k in [K::R, K::I, K::A, K::Space, K::Key1, K::Tab] {
            assert_eq!(act(k, Mode::Chat), None, "{k:?}");
        }
        assert_eq!(act(K::Enter, Mode::Chat), Some(Action::Confirm));
        assert_eq!(act(K::Escape, Mode::Chat), Some(Action::Close));
        assert_eq!(act(K::Backspace, Mode::Chat), Some(Action::Backspace));
        assert_eq!(act(K::Left, Mode::Chat), Some(Action::Edit(Edit::Left)));
        assert_eq!(act(K::Delete, Mode::Chat), Some(Action::Edit(Edit::Delete)));
        // The chat does not stop the world.
        assert_eq!(halt(Mode::Chat, true, true), None);
        // Enter bound to a command by the player runs the command instead.
        let mut bound = Bindings::default();
        bound.bind(Command::Save, K::Enter).unwrap();
        assert_eq!(
            action(K::Enter, Mode::World, Mods::default(), &bound),
            Some(Action::Save)
        );
    }

    #[test]
    fn pan_and_zoom_directions() {
        let keys = Bindings::default();
        assert_eq!(
            pan_direction(|k| k == K::A || k == K::Down, &keys),
            (-1.0, 1.0)
        );
        assert_eq!(
            pan_direction(|k| k == K::Left || k == K::Right, &keys),
            (0.0, 0.0)
        );
        assert_eq!(zoom_direction(|k| k == K::Equal, &keys), 1);
        assert_eq!(zoom_direction(|k| k == K::KpSubtract, &keys), -1);
        assert!(wheel_factor(1.0) > 1.0 && wheel_factor(-3.0) < 1.0 && wheel_factor(0.0) == 1.0);
        assert!((pan_speed(1200.0, 2.0) - 500.0).abs() < 1e-9);
    }
}
