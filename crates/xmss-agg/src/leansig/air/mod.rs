pub mod chain;
pub mod digits;
pub mod hash24;
pub mod sig;
