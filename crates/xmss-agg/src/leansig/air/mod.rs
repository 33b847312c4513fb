pub mod sig;
