//! The binary's memory allocator: the system allocator for everything but large blocks
//! (2 MiB and more: a world's tiles, its light levels, the connectivity buffers), which
//! are mapped straight from the kernel in whole 2 MiB pages, 2 MiB-aligned, the pages
//! they fill marked for transparent huge pages (`madvise(MADV_HUGEPAGE)`), and kept for
//! reuse or unmapped when freed.
//!
//! Why: a Large world touches about 40 MB of fresh memory. In 4 KiB pages that is some
//! 10 000 page faults; in 2 MiB pages it is a few dozen. A fresh mapping is already zero,
//! so a zeroed block (`vec![0; n]`) costs no clearing pass. Fresh memory is dear all the
//! same: the kernel clears each page on its first touch. On the virtual machines Strata
//! is measured on, a huge page costs about 0.2 ms of CPU a megabyte when it was freed
//! moments ago (one run after another) and 0.9 to 1.9 ms once the balloon driver has
//! reported it free and the host has taken it back (after a few idle seconds); small pages
//! cost about 0.5 ms either way. Huge pages win run after run and lose after idling, so
//! they stay, and every megabyte not touched counts.
//!
//! Freed large blocks are kept for reuse, a few at a time ([`Kept`]): generation makes and
//! drops several same-sized bit grids and run buffers in turn, and each fresh mapping
//! costs a page fault and the kernel's clearing of every page, where a kept block is
//! already mapped (and cleared in place only when a zeroed block is asked for).
//!
//! Linux gives huge pages to marked regions when transparent huge pages are in `madvise`
//! or `always` mode; elsewhere the mark is ignored and the mapping works as before. Other
//! systems use the system allocator for everything.

use std::alloc::{GlobalAlloc, Layout, System};

/// The size of a large page, the alignment of a large block, and the smallest block
/// mapped directly.
pub const LARGE: usize = 2 << 20;

/// Whether a block of this layout is mapped directly.
pub fn is_large(layout: Layout) -> bool {
    layout.size() >= LARGE && layout.align() <= LARGE
}

/// Length of the mapping for a large block of `size` bytes: whole large pages.
pub fn mapping_len(size: usize) -> Option<usize> {
    size.checked_next_multiple_of(LARGE)
}

/// Large blocks in 2 MiB pages, everything else from the system allocator.
pub struct LargePages;

/// Most freed large blocks kept for reuse, and most bytes they may hold together.
const KEEP_BLOCKS: usize = 8;
const KEEP_BYTES: usize = 64 << 20;

/// Freed large blocks kept for reuse: `(address, mapping length)`, address 0 for a free
/// slot.
struct Kept {
    blocks: [(usize, usize); KEEP_BLOCKS],
    bytes: usize,
}

impl Kept {
    /// Takes a kept block of exactly `len` bytes.
    fn take(&mut self, len: usize) -> Option<*mut u8> {
        let slot = self.blocks.iter_mut().find(|b| b.0 != 0 && b.1 == len)?;
        let ptr = slot.0 as *mut u8;
        *slot = (0, 0);
        self.bytes -= len;
        Some(ptr)
    }

    /// Keeps a block if there is room; false if the caller must unmap it.
    fn keep(&mut self, ptr: *mut u8, len: usize) -> bool {
        if self.bytes + len > KEEP_BYTES {
            return false;
        }
        let Some(slot) = self.blocks.iter_mut().find(|b| b.0 == 0) else {
            return false;
        };
        *slot = (ptr as usize, len);
        self.bytes += len;
        true
    }
}

/// The kept blocks (a std mutex allocates nothing, so the allocator may take it).
static KEPT: std::sync::Mutex<Kept> = std::sync::Mutex::new(Kept {
    blocks: [(0, 0); KEEP_BLOCKS],
    bytes: 0,
});

fn kept() -> std::sync::MutexGuard<'static, Kept> {
    KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl LargePages {
    /// A large block of `len` mapped bytes for `size` bytes, and whether it is fresh (so
    /// zero).
    fn block(len: usize, size: usize) -> (*mut u8, bool) {
        match kept().take(len) {
            Some(ptr) => (ptr, false),
            None => (pages::map(len, size), true),
        }
    }
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod pages {
    use super::LARGE;
    use std::ffi::{c_int, c_long, c_void};

    unsafe extern "C" {
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            off: c_long,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> c_int;
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    const PROT_READ_WRITE: c_int = 0x1 | 0x2;
    const MAP_PRIVATE_ANONYMOUS: c_int = 0x02 | 0x20;
    const MADV_HUGEPAGE: c_int = 14;

    /// Maps `len` zeroed bytes (a multiple of `LARGE`) at a `LARGE`-aligned address for a
    /// block of `size` bytes, or returns null. Only the large pages the block fills are
    /// marked for huge pages: the kernel clears a whole huge page on its first touch, so
    /// the block's tail (the last half megabyte of a 2.5 MB bit grid) stays in small
    /// pages, cleared only as far as it is used.
    pub fn map(len: usize, size: usize) -> *mut u8 {
        let Some(span) = len.checked_add(LARGE) else {
            return std::ptr::null_mut();
        };
        // SAFETY: a fresh private anonymous mapping; nothing else refers to it. The
        // unaligned head and the tail beyond `len` are unmapped again, leaving exactly
        // `start..start + len`.
        unsafe {
            let raw = mmap(
                std::ptr::null_mut(),
                span,
                PROT_READ_WRITE,
                MAP_PRIVATE_ANONYMOUS,
                -1,
                0,
            );
            if raw as isize == -1 {
                return std::ptr::null_mut();
            }
            let raw = raw as usize;
            let start = raw.next_multiple_of(LARGE);
            if start > raw {
                munmap(raw as *mut c_void, start - raw);
            }
            let end = start + len;
            if raw + span > end {
                munmap(end as *mut c_void, raw + span - end);
            }
            // A hint: failing (no transparent huge pages) leaves ordinary pages.
            let whole = (size / LARGE * LARGE).min(len);
            madvise(start as *mut c_void, whole, MADV_HUGEPAGE);
            start as *mut u8
        }
    }

    /// Unmaps what [`map`] mapped.
    ///
    /// # Safety
    /// `ptr` and `len` must be a mapping from [`map`], not used afterwards.
    pub unsafe fn unmap(ptr: *mut u8, len: usize) {
        unsafe { munmap(ptr as *mut c_void, len) };
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod pages {
    use super::LARGE;
    use std::alloc::{GlobalAlloc, Layout, System};

    pub fn map(len: usize, _size: usize) -> *mut u8 {
        match Layout::from_size_align(len, LARGE) {
            // SAFETY: a non-zero size (`len` is at least `LARGE`).
            Ok(layout) => unsafe { System.alloc_zeroed(layout) },
            Err(_) => std::ptr::null_mut(),
        }
    }

    /// # Safety
    /// `ptr` and `len` must be a block from [`map`], not used afterwards.
    pub unsafe fn unmap(ptr: *mut u8, len: usize) {
        unsafe { System.dealloc(ptr, Layout::from_size_align_unchecked(len, LARGE)) }
    }
}

// SAFETY: large blocks are whole mappings of `mapping_len(size)` bytes, aligned to
// `LARGE` (at least the layout's alignment), zero when fresh, and unmapped with the same
// length; everything else is the system allocator's, with the layouts it was given.
unsafe impl GlobalAlloc for LargePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !is_large(layout) {
            return unsafe { System.alloc(layout) };
        }
        mapping_len(layout.size()).map_or(std::ptr::null_mut(), |len| {
            Self::block(len, layout.size()).0
        })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !is_large(layout) {
            return unsafe { System.alloc_zeroed(layout) };
        }
        let Some(len) = mapping_len(layout.size()) else {
            return std::ptr::null_mut();
        };
        // Fresh mappings are zero; a kept block is cleared here.
        let (ptr, fresh) = Self::block(len, layout.size());
        if !fresh && !ptr.is_null() {
            // SAFETY: the block is `len >= layout.size()` writable bytes, nobody else's.
            unsafe { std::ptr::write_bytes(ptr, 0, layout.size()) };
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if !is_large(layout) {
            return unsafe { System.dealloc(ptr, layout) };
        }
        if let Some(len) = mapping_len(layout.size())
            && !kept().keep(ptr, len)
        {
            unsafe { pages::unmap(ptr, len) };
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY (unwrap-free): the caller guarantees `new_size` with this alignment is a
        // valid layout.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (is_large(layout), is_large(new)) {
            (false, false) => return unsafe { System.realloc(ptr, layout, new_size) },
            (true, true) if mapping_len(layout.size()) == mapping_len(new_size) => return ptr,
            _ => {}
        }
        // Into or out of a mapping, or a mapping of another length: move the bytes.
        let fresh = unsafe { self.alloc(new) };
        if !fresh.is_null() {
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, fresh, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_blocks_are_whole_large_pages() {
        assert!(!is_large(Layout::from_size_align(LARGE - 1, 8).unwrap()));
        assert!(is_large(Layout::from_size_align(LARGE, 8).unwrap()));
        assert!(
            !is_large(Layout::from_size_align(LARGE, 2 * LARGE).unwrap()),
            "an alignment beyond a large page is the system's"
        );
        assert_eq!(mapping_len(LARGE), Some(LARGE));
        assert_eq!(mapping_len(LARGE + 1), Some(2 * LARGE));
        assert_eq!(mapping_len(usize::MAX - 5), None);
    }

    /// Fills a block with a pattern, checks it later.
    unsafe fn fill(p: *mut u8, len: usize, seed: u8) {
        for i in (0..len).step_by(4093) {
            unsafe { *p.add(i) = seed.wrapping_add(i as u8) };
        }
        unsafe { *p.add(len - 1) = seed };
    }

    unsafe fn kept(p: *const u8, len: usize, seed: u8) -> bool {
        (0..len)
            .step_by(4093)
            .all(|i| unsafe { *p.add(i) } == seed.wrapping_add(i as u8))
    }

    #[test]
    fn blocks_keep_their_bytes_through_every_kind_of_realloc() {
        let a = LargePages;
        let layout = |size| Layout::from_size_align(size, 16).unwrap();
        unsafe {
            // Zeroed large block: aligned, zero, writable.
            let z = a.alloc_zeroed(layout(3 * LARGE + 7));
            assert!(!z.is_null() && (z as usize).is_multiple_of(LARGE));
            assert!((0..3 * LARGE + 7).step_by(997).all(|i| *z.add(i) == 0));
            a.dealloc(z, layout(3 * LARGE + 7));

            // Small -> large -> larger -> same mapping -> small.
            let mut p = a.alloc(layout(1000));
            fill(p, 1000, 1);
            for (old, new) in [
                (1000, LARGE + 10),
                (LARGE + 10, 3 * LARGE),
                (3 * LARGE, 3 * LARGE - 5),
                (3 * LARGE - 5, 900),
            ] {
                p = a.realloc(p, layout(old), new);
                assert!(!p.is_null());
                let keep = old.min(new);
                assert!(kept(p, keep - 1, 1), "{old} -> {new}");
                fill(p, new, 1);
            }
            a.dealloc(p, layout(900));
        }
    }

    #[test]
    fn kept_blocks_are_reused_and_zeroed_when_asked() {
        let a = LargePages;
        let layout = Layout::from_size_align(5 * LARGE + 3, 8).unwrap();
        unsafe {
            let p = a.alloc(layout);
            fill(p, layout.size(), 7);
            a.dealloc(p, layout);
            // Another block of the same mapping length is zero even when it is the kept one.
            let z = a.alloc_zeroed(layout);
            assert!(!z.is_null() && (z as usize).is_multiple_of(LARGE));
            assert!((0..layout.size()).step_by(991).all(|i| *z.add(i) == 0));
            assert_eq!(*z.add(layout.size() - 1), 0);
            a.dealloc(z, layout);
        }
        // The pool holds at most its count and its bytes.
        let mut k = Kept {
            blocks: [(0, 0); KEEP_BLOCKS],
            bytes: 0,
        };
        assert!(k.keep(LARGE as *mut u8, KEEP_BYTES - LARGE));
        assert!(
            !k.keep((2 * LARGE) as *mut u8, 2 * LARGE),
            "over the byte limit"
        );
        assert!(k.take(2 * LARGE).is_none());
        assert_eq!(k.take(KEEP_BYTES - LARGE), Some(LARGE as *mut u8));
        assert_eq!(k.bytes, 0);
        for i in 1..=KEEP_BLOCKS {
            assert!(k.keep((i * LARGE) as *mut u8, LARGE));
        }
        assert!(!k.keep(LARGE as *mut u8, LARGE), "every slot taken");
    }
}
