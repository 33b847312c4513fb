//! Horn (in progress)
