//! MSP (in progress)
