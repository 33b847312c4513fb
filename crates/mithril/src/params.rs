//! The STM parameters `(m, k, phi_f)`.

use serde::{Deserialize, Serialize};

use crate::codec;
use crate::error::{Item, MithrilError};

/// Parameters of a Mithril STM instance (mithril-stm's `Parameters`).
///
/// Mainnet uses `k = 1944`, `m = 16948`, `phi_f = 0.2`. Nothing is checked
/// here, as in mithril-stm: a `phi_f` outside `(0, 1]` is refused by the
/// lottery ([`MithrilError::PhiFOutOfRange`]) when it is first used.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Parameters {
    /// Number of lottery indices each signer tries (`0..m`).
    pub m: u64,
    /// Number of distinct won indices a certificate needs.
    pub k: u64,
    /// The lottery's `phi_f`: a signer holding all the stake wins each index
    /// with this probability.
    pub phi_f: f64,
}

impl Parameters {
    /// `0x01 ‖ CBOR {"m", "k", "phi_f"}`, the float in its shortest exact width.
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::to_cbor(self)
    }

    /// Reads [`Parameters::to_bytes`]'s encoding (and only that).
    pub fn from_bytes(bytes: &[u8]) -> Result<Parameters, MithrilError> {
        let p: Parameters = codec::from_cbor(bytes, Item::Parameters)?;
        codec::require_canonical(bytes, &p.to_bytes(), Item::Parameters)?;
        Ok(p)
    }

    /// `{"m":..,"k":..,"phi_f":..}`.
    pub fn to_json(&self) -> String {
        codec::to_json(self)
    }

    /// Reads the JSON shape of [`Parameters::to_json`].
    pub fn from_json(json: &str) -> Result<Parameters, MithrilError> {
        codec::from_json(json, Item::Parameters)
    }
}
