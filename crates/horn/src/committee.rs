//! Committee layout and the per-committee key material a verifier keeps:
//! the committee's keys in one contiguous array (cache-friendly bulk
//! addition) and their precomputed sum (for reconstruction by subtraction).

use blst::{blst_p1, blst_p1_affine};
use rayon::prelude::*;

use super::HornError;
use sigagg_bls::KeyRegistry;
use sigagg_bls::curve::g1;

/// Sizes of the Horn layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HornParams {
    committees: usize,
    committee_size: usize,
    subcommittee_size: usize,
}

impl HornParams {
    /// The seed's layout: 2^20 validators in 32 committees of 2^15, each
    /// split into 64 subcommittees of 512.
    pub const ETHEREUM_1M: HornParams = HornParams { committees: 32, committee_size: 1 << 15, subcommittee_size: 512 };

    /// Custom sizes. Subcommittees must be a nonzero multiple of 64 bits that
    /// divides the committee size (bitfields of whole words, merged by word).
    pub fn new(committees: usize, committee_size: usize, subcommittee_size: usize) -> Result<HornParams, HornError> {
        if committees == 0 || committees > u32::MAX as usize {
            return Err(HornError::InvalidParams("committee count must be in 1..=2^32-1"));
        }
        if subcommittee_size == 0 || !subcommittee_size.is_multiple_of(64) {
            return Err(HornError::InvalidParams("subcommittee size must be a nonzero multiple of 64"));
        }
        if committee_size == 0 || !committee_size.is_multiple_of(subcommittee_size) {
            return Err(HornError::InvalidParams("committee size must be a multiple of the subcommittee size"));
        }
        if committee_size > 1 << 24 {
            return Err(HornError::InvalidParams("committee size above 2^24"));
        }
        Ok(HornParams { committees, committee_size, subcommittee_size })
    }

    /// Number of committees.
    pub fn committees(&self) -> usize {
        self.committees
    }

    /// Validators per committee (bits of a collection).
    pub fn committee_size(&self) -> usize {
        self.committee_size
    }

    /// Validators per subcommittee (bits of a subcommittee aggregate).
    pub fn subcommittee_size(&self) -> usize {
        self.subcommittee_size
    }

    /// Subcommittees per committee.
    pub fn subcommittees(&self) -> usize {
        self.committee_size / self.subcommittee_size
    }

    /// Total validators.
    pub fn validators(&self) -> usize {
        self.committees * self.committee_size
    }

    pub(crate) fn check_committee(&self, committee: u32) -> Result<(), HornError> {
        if committee as usize >= self.committees {
            return Err(HornError::CommitteeOutOfRange { committee, committees: self.committees });
        }
        Ok(())
    }

    pub(crate) fn check_subcommittee(&self, subcommittee: u32) -> Result<(), HornError> {
        if subcommittee as usize >= self.subcommittees() {
            return Err(HornError::SubcommitteeOutOfRange { subcommittee, subcommittees: self.subcommittees() });
        }
        Ok(())
    }
}

/// One committee's keys, in committee order, with their precomputed sum.
pub struct Committee {
    members: Vec<usize>,
    keys: Vec<blst_p1_affine>,
    total: blst_p1,
    total_affine: blst_p1_affine,
}

impl Committee {
    fn new(members: Vec<usize>, registry: &KeyRegistry) -> Result<Committee, HornError> {
        let keys: Vec<blst_p1_affine> =
            members.iter().map(|&v| registry.get(v).map(|k| *k.point())).collect::<Result<_, _>>()?;
        let total = g1::sum(&keys);
        let total_affine = g1::to_affine(&total);
        Ok(Committee { members, keys, total, total_affine })
    }

    /// Validator indices, by position in the committee.
    pub fn members(&self) -> &[usize] {
        &self.members
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the committee has no member.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub(crate) fn keys(&self) -> &[blst_p1_affine] {
        &self.keys
    }

    pub(crate) fn total(&self) -> &blst_p1 {
        &self.total
    }

    pub(crate) fn total_affine(&self) -> &blst_p1_affine {
        &self.total_affine
    }
}

/// What a verifier keeps about the validator set: every committee's keys
/// and precomputed committee key. Built once per committee assignment from
/// keys that proved possession.
pub struct HornValidators {
    params: HornParams,
    committees: Vec<Committee>,
}

impl HornValidators {
    /// Committees of consecutive validators: committee `c` is validators
    /// `c * size .. (c + 1) * size` of the registry.
    pub fn contiguous(params: HornParams, registry: &KeyRegistry) -> Result<HornValidators, HornError> {
        let size = params.committee_size();
        let members = (0..params.committees()).map(|c| (c * size..(c + 1) * size).collect()).collect();
        HornValidators::new(params, registry, members)
    }

    /// Committees given as lists of validator indices (for example the
    /// output of a shuffle). Each list must have the committee size, indices
    /// must exist in the registry and no validator may sit in two committees.
    pub fn new(
        params: HornParams,
        registry: &KeyRegistry,
        members: Vec<Vec<usize>>,
    ) -> Result<HornValidators, HornError> {
        if members.len() != params.committees() {
            return Err(HornError::Assignment(format!(
                "{} committees given, {} expected",
                members.len(),
                params.committees()
            )));
        }
        let mut seen = vec![false; registry.len()];
        for (c, list) in members.iter().enumerate() {
            if list.len() != params.committee_size() {
                return Err(HornError::Assignment(format!(
                    "committee {c} has {} members, {} expected",
                    list.len(),
                    params.committee_size()
                )));
            }
            for &v in list {
                match seen.get_mut(v) {
                    None => {
                        return Err(HornError::Assignment(format!(
                            "validator {v} not in the registry ({} keys)",
                            registry.len()
                        )));
                    }
                    Some(true) => {
                        return Err(HornError::Assignment(format!("validator {v} in two committees")));
                    }
                    Some(s) => *s = true,
                }
            }
        }
        let committees = members.into_par_iter().map(|m| Committee::new(m, registry)).collect::<Result<Vec<_>, _>>()?;
        Ok(HornValidators { params, committees })
    }

    /// The layout.
    pub fn params(&self) -> &HornParams {
        &self.params
    }

    /// Committee `c`.
    pub fn committee(&self, c: u32) -> Result<&Committee, HornError> {
        self.params.check_committee(c)?;
        Ok(&self.committees[c as usize])
    }
}
