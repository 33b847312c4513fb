pub mod chain;
pub mod digits;
pub mod sig;
