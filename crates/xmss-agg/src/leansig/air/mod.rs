pub mod hash24;
