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
//! # What it does not change
//!
//! Allocation and deallocation are the system allocator's: the advice only
//! changes how the kernel maps pages the program already owns, never their
//! contents, and a failure to take it (huge pages disabled, another
//! system) is ignored. Allocations under 2 MiB are left alone.
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

/// The system allocator, advising the kernel to use transparent huge pages
/// for allocations of at least [`HUGE_PAGE`] bytes (Linux; elsewhere the
/// system allocator alone).
#[derive(Clone, Copy, Debug, Default)]
pub struct HugePages;

// SAFETY: every method forwards to `System` with the caller's arguments and
// returns its result unchanged; `advise` only passes the kernel a hint about
// pages inside the block `System` just returned.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded under the caller's contract.
        let ptr = unsafe { System.alloc(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded under the caller's contract.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded under the caller's contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded under the caller's contract.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if new_size > layout.size() {
            advise(new, new_size);
        }
        new
    }
}

/// Asks for huge pages over the whole huge pages inside `[ptr, ptr + len)`.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every size class come back usable and keep their
    /// contents through growth and shrinking, zeroed ones included.
    #[test]
    fn forwards_to_the_system_allocator() {
        for size in [1usize, 4096, HUGE_PAGE - 1, HUGE_PAGE, 3 * HUGE_PAGE + 17] {
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
}
