//! Key pairs: generation with an activation window, and the prepared window
//! of two bottom trees that [`SecretKey::advance_preparation`] slides forward.

use core::fmt;
use core::ops::Range;

use rand::{CryptoRng, RngExt};
use rayon::prelude::*;
use zeroize::{Zeroize, Zeroizing};

use crate::error::KeygenError;
use crate::field::{F, FeArray};
use crate::hash::leaves;
use crate::params::ParameterSet;
use crate::prf::PrfKey;
use crate::tree::SubTree;

/// A public key: the Merkle root and the public hash parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PublicKey<S: ParameterSet> {
    /// Root of the key's Merkle tree.
    pub root: S::Digest,
    /// Public parameter mixed into every hash of this key.
    pub parameter: S::Parameter,
}

/// A secret key: the PRF key, the top tree and the two prepared bottom trees.
///
/// It is stateful: every signature advances the next usable epoch, so the
/// updated key must be stored before a signature is released. It is not
/// `Clone`: two copies could each sign one epoch, for different messages.
#[derive(PartialEq, Eq)]
pub struct SecretKey<S: ParameterSet> {
    pub(crate) prf_key: PrfKey,
    pub(crate) parameter: S::Parameter,
    /// Activated epochs `[start, end)`, aligned to bottom trees.
    pub(crate) activation: (u64, u64),
    /// Epochs below this were used (or skipped) and may never be signed again.
    pub(crate) next_epoch: u64,
    pub(crate) top: SubTree<S::Digest>,
    /// Index of the left prepared bottom tree; the right one is the next.
    pub(crate) left_index: u64,
    pub(crate) left: SubTree<S::Digest>,
    pub(crate) right: SubTree<S::Digest>,
}

impl<S: ParameterSet> Drop for SecretKey<S> {
    fn drop(&mut self) {
        self.prf_key.zeroize();
    }
}

impl<S: ParameterSet> fmt::Debug for SecretKey<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretKey")
            .field("set", &S::NAME)
            .field("activation", &self.activation_interval())
            .field("prepared", &self.prepared_interval())
            .field("next_epoch", &self.next_epoch)
            .finish_non_exhaustive()
    }
}

/// Widens a requested window to whole bottom trees, at least two of them,
/// inside the lifetime (hash-sig's and leanSig's rule, so keys generated with
/// the same arguments cover the same epochs). Returns bottom-tree indices.
pub(crate) fn expand_activation<S: ParameterSet>(start: u64, num: u64) -> (u64, u64) {
    let c = S::leaves_per_bottom_tree();
    let lifetime = S::lifetime();
    let mut first = start / c;
    let mut end = (start + num).div_ceil(c);
    if end - first < 2 {
        end = first + 2;
    }
    let trees = lifetime / c;
    if end > trees {
        let len = (end - first).min(trees);
        end = trees;
        first = trees - len;
    }
    (first, end)
}

/// The full bottom tree `index`, computed from the PRF key.
pub(crate) fn bottom_tree<S: ParameterSet>(
    prf_key: &PrfKey,
    parameter: &S::Parameter,
    index: u64,
) -> SubTree<S::Digest> {
    let c = S::leaves_per_bottom_tree();
    let leaves = leaves::<S>(prf_key, parameter, index * c..(index + 1) * c);
    let mut no_pad = || unreachable!("a full, aligned bottom tree needs no padding");
    SubTree::build::<S>(parameter, 0, S::LOG_LIFETIME / 2, index * c, leaves, &mut no_pad)
}

/// A uniformly random digest, drawn field element by field element (the
/// order the reference implementations draw them in).
pub(crate) fn random_fes<T: FeArray, R: CryptoRng + ?Sized>(rng: &mut R) -> T {
    T::generate(|_| rng.random::<F>())
}

/// Generates a key pair active for at least `[activation_epoch, activation_epoch + num_active_epochs)`.
///
/// The window is widened to whole bottom trees (at least two); the cost is
/// proportional to the activated epochs, not to the lifetime. With the same
/// random generator state this produces the same key as hash-sig / leanSig.
pub fn keygen<S: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
    activation_epoch: u64,
    num_active_epochs: u64,
) -> Result<(PublicKey<S>, SecretKey<S>), KeygenError> {
    let end = activation_epoch.checked_add(num_active_epochs);
    if num_active_epochs == 0 {
        return Err(KeygenError::EmptyActivation);
    }
    match end {
        Some(end) if end <= S::lifetime() => {}
        _ => {
            return Err(KeygenError::BeyondLifetime {
                start: activation_epoch,
                end: end.unwrap_or(u64::MAX),
                lifetime: S::lifetime(),
            });
        }
    }
    let (first, last) = expand_activation::<S>(activation_epoch, num_active_epochs);
    let c = S::leaves_per_bottom_tree();

    let parameter: S::Parameter = random_fes(rng);
    // The local copy is wiped when key generation returns; the key's own
    // copy is wiped when the key is dropped.
    let prf_key = Zeroizing::new(rng.random::<PrfKey>());

    let left = bottom_tree::<S>(&prf_key, &parameter, first);
    let right = bottom_tree::<S>(&prf_key, &parameter, first + 1);
    let mut roots = vec![left.root(), right.root()];
    roots.par_extend((first + 2..last).into_par_iter().map(|i| bottom_tree::<S>(&prf_key, &parameter, i).root()));

    let mut pad = || random_fes::<S::Digest, R>(rng);
    let top = SubTree::build::<S>(&parameter, S::LOG_LIFETIME / 2, S::LOG_LIFETIME, first, roots, &mut pad);

    let sk = SecretKey {
        prf_key: *prf_key,
        parameter,
        activation: (first * c, last * c),
        next_epoch: first * c,
        top,
        left_index: first,
        left,
        right,
    };
    Ok((sk.public_key(), sk))
}

impl<S: ParameterSet> SecretKey<S> {
    /// The public key of this secret key.
    pub fn public_key(&self) -> PublicKey<S> {
        PublicKey { root: self.top.root(), parameter: self.parameter }
    }

    /// Epochs this key may ever sign (after widening to bottom trees).
    pub fn activation_interval(&self) -> Range<u64> {
        self.activation.0..self.activation.1
    }

    /// Epochs this key can sign right now without further preparation.
    pub fn prepared_interval(&self) -> Range<u64> {
        let c = S::leaves_per_bottom_tree();
        self.left_index * c..(self.left_index + 2) * c
    }

    /// The smallest epoch that may still be signed.
    pub fn next_usable_epoch(&self) -> u64 {
        self.next_epoch
    }

    /// Slides the prepared window forward by one bottom tree (computing the
    /// new one from the PRF key). Returns `false`, changing nothing, when the
    /// window already ends at the end of the activation interval, or when
    /// the new bottom tree's root is not the one the top tree holds (a
    /// corrupted key, whose signatures would not verify: refusing here keeps
    /// it from spending epochs).
    pub fn advance_preparation(&mut self) -> bool {
        let c = S::leaves_per_bottom_tree();
        if (self.left_index + 3) * c > self.activation.1 {
            return false;
        }
        let next = bottom_tree::<S>(&self.prf_key, &self.parameter, self.left_index + 2);
        let (first, stored) = self.top.lowest();
        let at = (self.left_index + 2).checked_sub(first).and_then(|i| usize::try_from(i).ok());
        if at.and_then(|i| stored.get(i)) != Some(&next.root()) {
            return false;
        }
        self.left = core::mem::replace(&mut self.right, next);
        self.left_index += 1;
        true
    }

    /// Advances the prepared window until it contains `epoch`; `false` if it cannot.
    pub fn prepare_for(&mut self, epoch: u64) -> bool {
        while !self.prepared_interval().contains(&epoch) {
            if epoch < self.prepared_interval().start || !self.advance_preparation() {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{LeanSigProd, Seed001, Test};

    #[test]
    fn activation_is_widened_like_the_reference() {
        // Test: 16 leaves per bottom tree, 16 bottom trees.
        assert_eq!(expand_activation::<Test>(0, 1), (0, 2));
        assert_eq!(expand_activation::<Test>(17, 40), (1, 4));
        assert_eq!(expand_activation::<Test>(250, 6), (14, 16));
        assert_eq!(expand_activation::<Test>(0, 256), (0, 16));
        assert_eq!(expand_activation::<Seed001>(0, 2048), (0, 2));
        assert_eq!(expand_activation::<LeanSigProd>(0, 131_072), (0, 2));
    }

    #[test]
    fn keygen_rejects_bad_windows() {
        let mut rng = rand::rng();
        assert_eq!(keygen::<Test, _>(&mut rng, 0, 0).unwrap_err(), KeygenError::EmptyActivation);
        assert!(matches!(keygen::<Test, _>(&mut rng, 200, 100), Err(KeygenError::BeyondLifetime { .. })));
        assert!(matches!(keygen::<Test, _>(&mut rng, u64::MAX, 2), Err(KeygenError::BeyondLifetime { .. })));
    }

    #[test]
    fn preparation_slides_to_the_end_and_stops() {
        let mut rng = rand::rng();
        let (pk, mut sk) = keygen::<Test, _>(&mut rng, 0, 64).unwrap();
        assert_eq!(sk.activation_interval(), 0..64);
        assert_eq!(sk.prepared_interval(), 0..32);
        assert!(sk.advance_preparation());
        assert_eq!(sk.prepared_interval(), 16..48);
        assert!(sk.prepare_for(63));
        assert_eq!(sk.prepared_interval(), 32..64);
        assert!(!sk.advance_preparation());
        assert!(!sk.prepare_for(10));
        assert_eq!(sk.public_key(), pk);
    }
}
