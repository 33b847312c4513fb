//! ATMS (in progress)
