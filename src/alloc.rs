//! The binary's memory allocator: the system allocator, plus a hint to the kernel that
//! large blocks (a world's tiles, the connectivity buffers) should be backed by 2 MiB
//! pages.
//!
//! A Large world touches about 40 MB of fresh memory. In 4 KiB pages that is some 10 000
//! page faults, a fifth of `strata gen`'s time; in 2 MiB pages it is a few dozen. Linux
//! gives large pages to regions marked with `madvise(MADV_HUGEPAGE)` when transparent huge
//! pages are in `madvise` or `always` mode; elsewhere the hint is ignored and nothing
//! changes. Large blocks are also aligned to 2 MiB so that all of them, not just their
//! middle, can be large pages. Everything else is the system allocator's.

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks at least this large get the hint.
pub const HUGE_MIN: usize = 2 << 20;
/// The size (and alignment) of a large page.
pub const HUGE_PAGE: usize = 2 << 20;

/// The whole large pages inside the block `addr..addr + len`, as `(start, len)`, or `None`
/// if the block is too small to be worth a hint or holds no whole large page.
pub fn huge_range(addr: usize, len: usize) -> Option<(usize, usize)> {
    if len < HUGE_MIN {
        return None;
    }
    let start = addr.checked_next_multiple_of(HUGE_PAGE)?;
    let end = (addr + len) / HUGE_PAGE * HUGE_PAGE;
    (end > start).then(|| (start, end - start))
}

/// The system allocator with the large-page hint on large blocks.
pub struct HugePageHint;

#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, len: usize) {
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: std::ffi::c_int) -> i32;
    }
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    if ptr.is_null() {
        return;
    }
    if let Some((start, len)) = huge_range(ptr as usize, len) {
        // SAFETY: the range lies inside a block the system allocator just handed out, and
        // the hint changes no contents; a failure (no THP support) is harmless.
        unsafe { madvise(start as *mut std::ffi::c_void, len, MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_: *mut u8, _: usize) {}

/// The layout asked of the system allocator: large blocks aligned to and rounded up to
/// whole large pages, so all of each can be large pages, not just the middle.
pub fn system_layout(layout: Layout) -> Layout {
    if layout.size() < HUGE_MIN || layout.align() > HUGE_PAGE {
        return layout;
    }
    layout
        .size()
        .checked_next_multiple_of(HUGE_PAGE)
        .and_then(|size| Layout::from_size_align(size, HUGE_PAGE).ok())
        .unwrap_or(layout)
}

// SAFETY: every block comes from `System` with `system_layout` of its layout and goes back
// with the same; `advise` only hints.
unsafe impl GlobalAlloc for HugePageHint {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let layout = system_layout(layout);
        let ptr = unsafe { System.alloc(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let layout = system_layout(layout);
        let ptr = unsafe { System.alloc_zeroed(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, system_layout(layout)) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = system_layout(layout);
        // SAFETY (unwrap): the caller guarantees `new_size` with this alignment is valid.
        let new = system_layout(Layout::from_size_align(new_size, layout.align()).unwrap());
        if old.align() == new.align() {
            let ptr = unsafe { System.realloc(ptr, old, new.size()) };
            advise(ptr, new.size());
            return ptr;
        }
        // Crossing the large-block size: a new block of the other alignment.
        let fresh = unsafe { System.alloc(new) };
        if !fresh.is_null() {
            advise(fresh, new.size());
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, fresh, layout.size().min(new_size));
                System.dealloc(ptr, old);
            }
        }
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_covers_only_whole_large_pages_inside_large_blocks() {
        assert_eq!(
            huge_range(0, HUGE_MIN - 1),
            None,
            "small blocks get no hint"
        );
        assert_eq!(huge_range(0, HUGE_MIN), Some((0, HUGE_MIN)));
        // Unaligned start and end: rounded inwards.
        let addr = 3 * HUGE_PAGE + 100;
        let (start, len) = huge_range(addr, 3 * HUGE_PAGE).unwrap();
        assert_eq!((start, len), (4 * HUGE_PAGE, 2 * HUGE_PAGE));
        assert!(start >= addr && start + len <= addr + 3 * HUGE_PAGE);
        // Large enough, but no whole aligned page inside.
        assert_eq!(huge_range(1, HUGE_PAGE.max(HUGE_MIN)), None);
        assert_eq!(huge_range(usize::MAX - HUGE_PAGE, HUGE_MIN), None);
    }

    #[test]
    fn large_blocks_are_page_aligned_small_ones_untouched() {
        let small = Layout::from_size_align(1000, 8).unwrap();
        assert_eq!(system_layout(small), small);
        let large = Layout::from_size_align(HUGE_MIN, 8).unwrap();
        assert_eq!(system_layout(large).align(), HUGE_PAGE);
        assert_eq!(system_layout(large).size(), HUGE_MIN);
        let odd = Layout::from_size_align(HUGE_MIN + 1, 8).unwrap();
        assert_eq!(
            system_layout(odd).size(),
            HUGE_MIN + HUGE_PAGE,
            "whole pages"
        );
        let aligned = Layout::from_size_align(HUGE_MIN, 2 * HUGE_PAGE).unwrap();
        assert_eq!(
            system_layout(aligned),
            aligned,
            "a larger alignment is kept"
        );
        let a = HugePageHint;
        unsafe {
            let p = a.alloc(large);
            assert!((p as usize).is_multiple_of(HUGE_PAGE));
            a.dealloc(p, large);
        }
    }

    #[test]
    fn allocations_through_the_hint_keep_their_contents() {
        let a = HugePageHint;
        for (size, zeroed) in [
            (16, false),
            (HUGE_MIN + 12_345, true),
            (3 * HUGE_MIN, false),
        ] {
            let layout = Layout::from_size_align(size, 64).unwrap();
            unsafe {
                let p = if zeroed {
                    a.alloc_zeroed(layout)
                } else {
                    a.alloc(layout)
                };
                assert!(!p.is_null() && (p as usize).is_multiple_of(64));
                if zeroed {
                    assert!(std::slice::from_raw_parts(p, size).iter().all(|&b| b == 0));
                }
                std::ptr::write_bytes(p, 0xA5, size);
                // Grow (across the large-block size for the small block) and shrink back.
                let grown = size.max(HUGE_MIN / 2) * 3;
                let q = a.realloc(p, layout, grown);
                let kept = std::slice::from_raw_parts(q, size);
                assert!(kept.iter().all(|&b| b == 0xA5), "realloc keeps the bytes");
                let grown_layout = Layout::from_size_align(grown, 64).unwrap();
                let r = a.realloc(q, grown_layout, size);
                assert!(
                    std::slice::from_raw_parts(r, size)
                        .iter()
                        .all(|&b| b == 0xA5)
                );
                a.dealloc(r, layout);
            }
        }
    }
}
