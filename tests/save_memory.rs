//! How much memory loading a save takes: the file and the world (a byte of tile and a byte
//! of wall a tile), nothing the size of the
//! world's runs, and next to nothing for a file whose checksum is wrong. Measured by an
//! allocator that counts this thread's live bytes (decoding is single-threaded).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use strata::store::save::{self, PlayerState};
use strata::{Tile, World};

struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn note(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as isize);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// Most bytes live at once during `f`, above what was live before it.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, (PEAK.with(Cell::get) - base) as usize)
}

#[test]
fn loading_takes_the_world_not_its_runs_and_checks_the_checksum_first() {
    // The worst case for runs: every tile differs from the one before it.
    let (w, h) = (2048, 1024);
    let mut world = World::new(w, h, 1, strata::Preset::default());
    for (i, t) in world.tiles_mut().iter_mut().enumerate() {
        *t = if (i + i / w) % 2 == 0 {
            Tile::Stone
        } else {
            Tile::Dirt
        };
    }
    let cat = strata::content::config::Content::builtin().catalog;
    let player = PlayerState::new((10.0, 10.0), &cat);
    let bytes = save::encode(&world, &player);
    let tiles = w * h;
    let (loaded, peak) = peak_during(|| save::decode(&bytes, &cat).map(|(w, _)| w.tile_hash()));
    assert_eq!(loaded.unwrap(), world.tile_hash());
    // The world is its tiles and its walls, a byte each a tile.
    assert!(
        peak < 2 * tiles + tiles / 4,
        "{peak} bytes to load a world of {tiles} tiles"
    );
    let mut damaged = bytes.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    let (e, peak) = peak_during(|| save::decode(&damaged, &cat).map(|_| ()));
    assert!(matches!(e.unwrap_err(), save::SaveError::Checksum));
    assert!(peak < 64 * 1024, "{peak} bytes to refuse a damaged save");
}

#[test]
fn a_file_longer_than_its_world_allows_is_refused_unread() {
    let dir = std::env::temp_dir().join(format!("strata-save-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut world = World::new(64, 40, 1, strata::Preset::default());
    world.tiles_mut()[100] = Tile::Stone;
    let cat = strata::content::config::Content::builtin().catalog;
    let player = PlayerState::new((10.0, 10.0), &cat);
    let bytes = save::encode(&world, &player);
    assert!(bytes.len() as u64 <= save::max_save_len(&bytes));
    // A small world's save with 20 MB after it, and 20 MB that are not a save at all.
    let padded = dir.join("padded.strata");
    let mut long = bytes.clone();
    long.resize(20 << 20, 0);
    std::fs::write(&padded, &long).unwrap();
    let foreign = dir.join("foreign.strata");
    std::fs::write(&foreign, vec![7u8; 20 << 20]).unwrap();
    drop(long);
    let (e, peak) = peak_during(|| save::load(&padded, &cat).map(|_| ()));
    let e = e.unwrap_err().to_string();
    assert!(e.contains("the most a save of its world can be"), "{e}");
    assert!(peak < 64 * 1024, "{peak} bytes to refuse a padded save");
    let (e, peak) = peak_during(|| save::load(&foreign, &cat).map(|_| ()));
    assert!(matches!(e.unwrap_err(), save::SaveError::NotASave));
    assert!(peak < 64 * 1024, "{peak} bytes to refuse a foreign file");
    // The save alone loads, memory reserved for the file's own size, not its limit (2 MiB
    // of preset text alone).
    std::fs::write(&padded, &bytes).unwrap();
    let (loaded, peak) = peak_during(|| save::load(&padded, &cat).map(|(w, _)| w.tile_hash()));
    assert_eq!(loaded.unwrap(), world.tile_hash());
    assert!(
        peak < 64 * 1024,
        "{peak} bytes to load a {} byte save",
        bytes.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
