//! The global allocator of sigagg's executables and bindings: the system
//! allocator, which on Linux also asks the kernel to back every large
//! allocation with transparent huge pages.
//!
//! # Why
//!
//! A prover allocates gigabytes in a few large buffers (traces, their
//! column-major copies, codewords, Merkle trees) and touches each page once
//! or twice. glibc serves such buffers with fresh `mmap` regions, so every
//! 4 KiB page costs a page fault and the kernel's zeroing: at N = 4096
//! Seed001 signatures the multilinear prover spent a fifth of its CPU time
//! in the kernel. Where the system leaves huge pages to the program
//! (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise`, the
//! common default), `madvise(MADV_HUGEPAGE)` on a region before it is
//! first touched lets one fault map 2 MiB. Measured in BENCHMARKS.md
//! (glibc's own switch for this, `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`,
//! gave the same: 0.88x the wall time); jemalloc, tried before, was slower.
//!
//! Blocks of at least [`MAPPED`] bytes are mapped by the allocator
//! itself, so that growing one moves its pages instead of copying them.
//! Through the system allocator, the advice split such a block's mapping
//! in three, its `mremap` then failed, and glibc copied the block into a
//! fresh one that was advised only after the copy, faulting it in 4 KiB
//! pages: every FRI low-degree extension grows its trace in place, and
//! doubling a 560 MiB trace took 0.3 s instead of 5 ms (BENCHMARKS.md).
//!
//! # What it does not change
//!
//! Blocks under [`MAPPED`] bytes, or aligned to more than a page, are the
//! system allocator's, advised from [`HUGE_PAGE`] bytes on: glibc reuses
//! freed blocks of that size (its mapping threshold adapts up to 32 MiB),
//! which a mapping of their own would fault in afresh every time. On Linux
//! the larger blocks are private anonymous mappings of their own (zeroed by
//! the kernel, returned with `munmap`, resized with `mremap`). The advice
//! only changes how the kernel maps pages, never their contents, and a
//! failure to take it (huge pages disabled) is ignored. Elsewhere every
//! block is the system allocator's, unadvised.
//!
//! ```
//! #[global_allocator]
//! static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;
//!
//! let v = vec![0u32; 1 << 20]; // 4 MiB: advised
//! assert_eq!(v.len(), 1 << 20);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};

/// The smallest allocation advised: one huge page on x86-64 and AArch64
/// with 4 KiB base pages.
pub const HUGE_PAGE: usize = 2 << 20;

/// The smallest block mapped on its own (Linux): glibc's largest adaptive
/// mapping threshold on 64-bit systems, above which it maps every block
/// afresh anyway.
pub const MAPPED: usize = 32 << 20;

/// The system allocator, advising the kernel to use transparent huge pages
/// for blocks of at least [`HUGE_PAGE`] bytes; on Linux, blocks of at least
/// [`MAPPED`] bytes (aligned to at most a page) are mappings of their own.
#[derive(Clone, Copy, Debug, Default)]
pub struct HugePages;

// SAFETY: small blocks are `System`'s, allocated, resized and freed with
// the caller's layouts; advising them changes no contents. A mapped block
// (`mapped::owns`) is a private mapping starting at the returned pointer,
// page-aligned and so aligned as the layout asks, unmapped or remapped only
// with the layout it was made with (the caller's contract); a block
// crosses between the two kinds only by a copy.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if mapped::owns(layout) {
            return mapped::map(layout.size());
        }
        // SAFETY: forwarded under the caller's contract.
        let ptr = unsafe { System.alloc(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if mapped::owns(layout) {
            // A fresh anonymous mapping reads as zeros.
            return mapped::map(layout.size());
        }
        // SAFETY: forwarded under the caller's contract.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if mapped::owns(layout) {
            // SAFETY: `ptr` is a mapped block of this layout (caller's contract).
            unsafe { mapped::unmap(ptr, layout.size()) }
        } else {
            // SAFETY: forwarded under the caller's contract.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size`, rounded up to the
        // alignment, does not overflow `isize`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (mapped::owns(layout), mapped::owns(new_layout)) {
            (false, false) => {
                // SAFETY: forwarded under the caller's contract.
                let new = unsafe { System.realloc(ptr, layout, new_size) };
                if new_size > layout.size() {
                    advise(new, new_size);
                }
                new
            }
            (true, true) => {
                // SAFETY: `ptr` is a mapped block of `layout` (caller's contract).
                let moved = unsafe { mapped::remap(ptr, layout.size(), new_size) };
                if moved.is_null() {
                    // The kernel refused to remap (a mapping that something
                    // split, say by advising part of it): copy instead.
                    // SAFETY: as the caller's, and the block is untouched.
                    unsafe { self.copy_to_new(ptr, layout, new_layout) }
                } else {
                    moved
                }
            }
            // Between the kinds.
            // SAFETY: the caller's contract.
            _ => unsafe { self.copy_to_new(ptr, layout, new_layout) },
        }
    }
}

impl HugePages {
    /// Resizes by a new block, the common prefix copied and the old block
    /// freed, as `GlobalAlloc::realloc`'s default does; null, the old block
    /// left as it was, when no memory is left.
    ///
    /// # Safety
    /// `GlobalAlloc::realloc`'s contract, with `new_layout` the new size at
    /// the old alignment.
    unsafe fn copy_to_new(&self, ptr: *mut u8, layout: Layout, new_layout: Layout) -> *mut u8 {
        // SAFETY: `new_layout` is valid and non-zero (the caller's contract).
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks are live, distinct and at least this long;
            // the old one is freed with its own layout.
            unsafe {
                core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_layout.size()));
                self.dealloc(ptr, layout);
            }
        }
        new
    }
}

/// Asks for huge pages over the whole huge pages inside `[ptr, ptr + len)`
/// of a block of the system allocator's.
#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, len: usize) {
    if ptr.is_null() || len < HUGE_PAGE {
        return;
    }
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize + len) / HUGE_PAGE * HUGE_PAGE;
    if end > start {
        // SAFETY: `[start, end)` lies inside the live block just returned by
        // `System`; MADV_HUGEPAGE changes no contents and no protection, and
        // its result (an error where huge pages are unavailable) is ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _len: usize) {}

/// The blocks mapped on their own: one private anonymous mapping each.
#[cfg(target_os = "linux")]
mod mapped {
    use super::{Layout, MAPPED};

    /// The base page size the mappings are rounded to (the kernel rounds
    /// every length up to its own page, 4 KiB or more, the same way on
    /// every call, and a mapping's start is aligned to it).
    const PAGE: usize = 4096;

    /// Whether a block of this layout is mapped on its own.
    pub fn owns(layout: Layout) -> bool {
        layout.size() >= MAPPED && layout.align() <= PAGE
    }

    fn mapped_len(size: usize) -> usize {
        size.next_multiple_of(PAGE)
    }

    /// A new zeroed block, advised to use huge pages before it is first
    /// touched; null when the kernel refuses.
    pub fn map(size: usize) -> *mut u8 {
        // SAFETY: a fresh private anonymous mapping aliases nothing.
        let ptr = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                mapped_len(size),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return core::ptr::null_mut();
        }
        // SAFETY: the whole of the mapping just made; MADV_HUGEPAGE changes
        // no contents and no protection, and its result (an error where
        // huge pages are disabled) is ignored. Advising the whole mapping
        // keeps it one mapping, which `mremap` needs.
        unsafe { libc::madvise(ptr, mapped_len(size), libc::MADV_HUGEPAGE) };
        ptr.cast()
    }

    /// Frees a block made by [`map`] or [`remap`].
    ///
    /// # Safety
    /// `ptr` is a live block of `size` bytes from this module.
    pub unsafe fn unmap(ptr: *mut u8, size: usize) {
        // SAFETY: the block is the whole mapping (the caller's contract).
        unsafe { libc::munmap(ptr.cast(), mapped_len(size)) };
    }

    /// Resizes a block, moving its pages where it cannot grow in place;
    /// null, the block left as it was, when the kernel refuses.
    ///
    /// # Safety
    /// `ptr` is a live block of `size` bytes from this module.
    pub unsafe fn remap(ptr: *mut u8, size: usize, new_size: usize) -> *mut u8 {
        // SAFETY: the block is the whole mapping (the caller's contract);
        // on failure `mremap` leaves it untouched. The mapping keeps its
        // advice when it grows or moves.
        let new = unsafe { libc::mremap(ptr.cast(), mapped_len(size), mapped_len(new_size), libc::MREMAP_MAYMOVE) };
        if new == libc::MAP_FAILED { core::ptr::null_mut() } else { new.cast() }
    }
}

/// Elsewhere no block is mapped on its own.
#[cfg(not(target_os = "linux"))]
mod mapped {
    use super::Layout;

    pub fn owns(_layout: Layout) -> bool {
        false
    }

    pub fn map(_size: usize) -> *mut u8 {
        unreachable!("no block is mapped off Linux")
    }

    pub unsafe fn unmap(_ptr: *mut u8, _size: usize) {
        unreachable!("no block is mapped off Linux")
    }

    pub unsafe fn remap(_ptr: *mut u8, _size: usize, _new_size: usize) -> *mut u8 {
        unreachable!("no block is mapped off Linux")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests' own allocations (the `Vec`s below, the harness) go
    /// through the allocator too.
    #[global_allocator]
    static ALLOC: HugePages = HugePages;

    /// Blocks of every size class come back usable and keep their
    /// contents through growth and shrinking, zeroed ones included.
    #[test]
    fn forwards_to_the_system_allocator() {
        for size in [1usize, 4096, HUGE_PAGE - 1, HUGE_PAGE, 3 * HUGE_PAGE + 17, MAPPED - 1, MAPPED, MAPPED + 4097] {
            let layout = Layout::from_size_align(size, 64).unwrap();
            unsafe {
                let zeroed = HugePages.alloc_zeroed(layout);
                assert!(!zeroed.is_null());
                assert!(std::slice::from_raw_parts(zeroed, size).iter().all(|&b| b == 0));
                HugePages.dealloc(zeroed, layout);

                let ptr = HugePages.alloc(layout);
                assert!(!ptr.is_null());
                std::ptr::write_bytes(ptr, 0xa5, size);
                let grown = HugePages.realloc(ptr, layout, 2 * size + HUGE_PAGE);
                assert!(std::slice::from_raw_parts(grown, size).iter().all(|&b| b == 0xa5));
                let big = Layout::from_size_align(2 * size + HUGE_PAGE, 64).unwrap();
                let shrunk = HugePages.realloc(grown, big, size);
                assert!(std::slice::from_raw_parts(shrunk, size).iter().all(|&b| b == 0xa5));
                HugePages.dealloc(shrunk, layout);
            }
        }
    }

    /// A large block grown over and over (a `Vec` pushed past its
    /// capacity) keeps every byte written so far, and its new tail is
    /// writable.
    #[test]
    fn large_blocks_grow_without_losing_contents() {
        let mut v: Vec<u32> = Vec::with_capacity(HUGE_PAGE / 4);
        for i in 0..(3 * MAPPED / 4) as u32 {
            v.push(i.wrapping_mul(2_654_435_761));
        }
        assert!(v.iter().enumerate().all(|(i, &x)| x == (i as u32).wrapping_mul(2_654_435_761)));
        v.truncate(HUGE_PAGE / 8);
        v.shrink_to_fit();
        assert!(v.iter().enumerate().all(|(i, &x)| x == (i as u32).wrapping_mul(2_654_435_761)));
    }

    /// Alignments beyond a page stay with the system allocator and are
    /// honoured, at every size, across growth too.
    #[test]
    fn alignments_beyond_a_page_are_honoured() {
        for size in [64usize, HUGE_PAGE, MAPPED + 1] {
            let layout = Layout::from_size_align(size, 1 << 16).unwrap();
            unsafe {
                let ptr = HugePages.alloc_zeroed(layout);
                assert!(!ptr.is_null());
                assert_eq!(ptr as usize % (1 << 16), 0);
                std::ptr::write_bytes(ptr, 0x5a, size);
                let grown = HugePages.realloc(ptr, layout, 3 * size);
                assert_eq!(grown as usize % (1 << 16), 0);
                assert!(std::slice::from_raw_parts(grown, size).iter().all(|&b| b == 0x5a));
                HugePages.dealloc(grown, Layout::from_size_align(3 * size, 1 << 16).unwrap());
            }
        }
    }

    /// A mapped block whose mapping something split (here: advice on its
    /// middle), which `mremap` refuses, still grows and shrinks, by a copy.
    #[cfg(target_os = "linux")]
    #[test]
    fn split_mappings_still_resize() {
        let layout = Layout::from_size_align(MAPPED + 3 * HUGE_PAGE, 64).unwrap();
        unsafe {
            let ptr = HugePages.alloc(layout);
            assert!(!ptr.is_null());
            for i in 0..layout.size() {
                *ptr.add(i) = (i % 251) as u8;
            }
            let middle = ptr.add(HUGE_PAGE).cast::<libc::c_void>();
            assert_eq!(libc::madvise(middle, HUGE_PAGE, libc::MADV_NOHUGEPAGE), 0);
            let grown = HugePages.realloc(ptr, layout, 2 * layout.size());
            assert!(!grown.is_null());
            assert!((0..layout.size()).all(|i| *grown.add(i) == (i % 251) as u8));
            let big = Layout::from_size_align(2 * layout.size(), 64).unwrap();
            let shrunk = HugePages.realloc(grown, big, MAPPED);
            assert!((0..MAPPED).all(|i| *shrunk.add(i) == (i % 251) as u8));
            HugePages.dealloc(shrunk, Layout::from_size_align(MAPPED, 64).unwrap());
        }
    }

    /// A large block freed dirty does not leak its contents into the next
    /// zeroed one.
    #[test]
    fn zeroed_large_blocks_are_zero_after_a_dirty_free() {
        let layout = Layout::from_size_align(MAPPED + 3 * HUGE_PAGE, 64).unwrap();
        unsafe {
            let dirty = HugePages.alloc(layout);
            std::ptr::write_bytes(dirty, 0xff, layout.size());
            HugePages.dealloc(dirty, layout);
            let zeroed = HugePages.alloc_zeroed(layout);
            assert!(std::slice::from_raw_parts(zeroed, layout.size()).iter().all(|&b| b == 0));
            HugePages.dealloc(zeroed, layout);
        }
    }
}
