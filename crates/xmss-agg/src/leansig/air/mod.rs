pub mod digits;
pub mod sig;
