//! Thin, single-threaded wrappers over blst's raw curve arithmetic.
//!
//! Every `unsafe` block of the crate lives here. The wrappers exist for three
//! reasons:
//!
//! * blst's high-level `min_pk`/`MultiPoint` helpers spread work over blst's
//!   own thread pool. Parallelism in this crate is rayon's job (so that
//!   `RAYON_NUM_THREADS=1` really measures one core), hence the raw calls.
//! * blst's `uncompress` does not check the subgroup; [`g1::decompress`] and
//!   [`g2::decompress`] always do, so no unchecked point can enter the crate
//!   from bytes.
//! * The bulk-addition and MSM entry points take arrays of pointers; the
//!   wrappers build those arrays from safe slices of references.
//!
//! Points handed to the bulk/MSM calls are assumed valid (on the curve, in
//! the subgroup); callers only ever pass points that went through
//! `decompress` or were computed from such points.
//!
//! The module is public for the schemes built on these signatures in other
//! crates (`sigagg-horn` rebuilds aggregate keys by bulk addition and MSM,
//! and its simulator forms signatures by linearity). The same assumption
//! binds them: pass only points that came out of [`g1::decompress`],
//! [`g2::decompress`], the keys and signatures of this crate, or arithmetic
//! on those.

use blst::{
    BLST_ERROR, blst_final_exp, blst_fp12, blst_fp12_is_one, blst_fr, blst_fr_add, blst_fr_from_scalar, blst_fr_mul,
    blst_miller_loop_n, blst_p1, blst_p1_affine, blst_p2, blst_p2_affine, blst_scalar, blst_scalar_from_fr,
    blst_scalar_from_le_bytes,
};

/// Why a byte string is not an acceptable curve point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointError {
    /// Wrong length for a compressed point.
    Length { expected: usize, got: usize },
    /// Bad flag bits, or a coordinate that is not below the field modulus.
    Encoding,
    /// The coordinates do not satisfy the curve equation.
    NotOnCurve,
    /// On the curve but outside the prime-order subgroup.
    NotInSubgroup,
}

/// Order `r` of the prime-order subgroups, big-endian.
#[cfg(test)]
pub(crate) const R_BE: [u8; 32] = [
    0x73, 0xed, 0xa7, 0x53, 0x29, 0x9d, 0x7d, 0x48, 0x33, 0x39, 0xd8, 0x08, 0x09, 0xa1, 0xd8, 0x05, 0x53, 0xbd, 0xa4,
    0x02, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
];

macro_rules! group_ops {
    (
        $module:ident, $doc:literal,
        point: $p:ty, affine: $a:ty, compressed: $n:literal,
        uncompress: $uncompress:ident, compress: $compress:ident,
        in_group: $in_group:ident, affine_is_inf: $affine_is_inf:ident, is_inf: $is_inf:ident,
        to_affine: $to_affine:ident, from_affine: $from_affine:ident,
        add_or_double: $add_or_double:ident, add_or_double_affine: $add_or_double_affine:ident,
        cneg: $cneg:ident, mult: $mult:ident, bulk_add: $bulk_add:ident,
        batch_to_affine: $batch_to_affine:ident,
        msm: $msm:ident, msm_scratch: $msm_scratch:ident,
        generator: $generator:ident, affine_generator: $affine_generator:ident,
        affine_is_equal: $affine_is_equal:ident,
    ) => {
        #[doc = $doc]
        pub mod $module {
            use super::*;
            use blst::{
                $add_or_double, $add_or_double_affine, $affine_generator, $affine_is_equal, $affine_is_inf,
                $batch_to_affine, $bulk_add, $cneg, $compress, $from_affine, $generator, $in_group, $is_inf, $msm,
                $msm_scratch, $mult, $to_affine, $uncompress,
            };

            /// Size of the compressed encoding in bytes.
            pub const COMPRESSED: usize = $n;

            /// Decodes a compressed point and checks that it is on the curve
            /// and in the prime-order subgroup. The identity (`0xc0 00..`) is
            /// accepted; callers that forbid it check [`is_identity`].
            pub fn decompress(bytes: &[u8]) -> Result<$a, PointError> {
                if bytes.len() != COMPRESSED {
                    return Err(PointError::Length { expected: COMPRESSED, got: bytes.len() });
                }
                // The compression flag must be set: only compressed points are canonical here.
                if bytes[0] & 0x80 == 0 {
                    return Err(PointError::Encoding);
                }
                let mut out = <$a>::default();
                // SAFETY: `bytes` has exactly COMPRESSED readable bytes, `out` is a valid target.
                let err = unsafe { $uncompress(&mut out, bytes.as_ptr()) };
                match err {
                    BLST_ERROR::BLST_SUCCESS => {}
                    BLST_ERROR::BLST_POINT_NOT_ON_CURVE => return Err(PointError::NotOnCurve),
                    _ => return Err(PointError::Encoding),
                }
                // SAFETY: `out` is an initialised affine point.
                if !unsafe { $in_group(&out) } {
                    return Err(PointError::NotInSubgroup);
                }
                Ok(out)
            }

            /// Compressed encoding of an affine point.
            pub fn compress(p: &$a) -> [u8; $n] {
                let mut out = [0u8; $n];
                let mut proj = <$p>::default();
                // SAFETY: both pointers are valid for the sizes blst writes/reads.
                unsafe {
                    $from_affine(&mut proj, p);
                    $compress(out.as_mut_ptr(), &proj);
                }
                out
            }

            /// Whether an affine point is the identity.
            pub fn is_identity(p: &$a) -> bool {
                // SAFETY: valid reference.
                unsafe { $affine_is_inf(p) }
            }

            /// Whether a projective point is the identity.
            pub fn is_identity_proj(p: &$p) -> bool {
                // SAFETY: valid reference.
                unsafe { $is_inf(p) }
            }

            /// Whether two affine points are equal.
            pub fn eq(a: &$a, b: &$a) -> bool {
                // SAFETY: valid references.
                unsafe { $affine_is_equal(a, b) }
            }

            /// Projective to affine (one inversion).
            pub fn to_affine(p: &$p) -> $a {
                let mut out = <$a>::default();
                // SAFETY: valid references.
                unsafe { $to_affine(&mut out, p) };
                out
            }

            /// Affine to projective (free).
            pub fn from_affine(p: &$a) -> $p {
                let mut out = <$p>::default();
                // SAFETY: valid references.
                unsafe { $from_affine(&mut out, p) };
                out
            }

            /// Many projective points to affine with one shared inversion.
            pub fn batch_to_affine(points: &[$p]) -> Vec<$a> {
                if points.is_empty() {
                    return Vec::new();
                }
                let mut out = vec![<$a>::default(); points.len()];
                let list: [*const $p; 2] = [points.as_ptr(), core::ptr::null()];
                // SAFETY: `out` has room for points.len() elements; the pointer list is
                // "first pointer then NULL", which blst reads as one contiguous array.
                unsafe { $batch_to_affine(out.as_mut_ptr(), list.as_ptr(), points.len()) };
                out
            }

            /// `acc += p`, correct also when `acc == p` or either is the identity.
            pub fn add_assign(acc: &mut $p, p: &$p) {
                let a = *acc;
                // SAFETY: valid references; blst allows out to alias an input but we copy anyway.
                unsafe { $add_or_double(acc, &a, p) };
            }

            /// `acc += p` for an affine `p` (mixed addition), add-or-double.
            pub fn add_assign_affine(acc: &mut $p, p: &$a) {
                let a = *acc;
                // SAFETY: valid references.
                unsafe { $add_or_double_affine(acc, &a, p) };
            }

            /// `-p`.
            pub fn neg(p: &$p) -> $p {
                let mut out = *p;
                // SAFETY: valid reference.
                unsafe { $cneg(&mut out, true) };
                out
            }

            /// `scalar * p` with a little-endian scalar of `nbits` bits.
            pub fn mul(p: &$a, scalar_le: &[u8], nbits: usize) -> $p {
                assert!(scalar_le.len() * 8 >= nbits, "scalar shorter than nbits");
                let proj = from_affine(p);
                let mut out = <$p>::default();
                // SAFETY: the scalar buffer holds at least nbits bits.
                unsafe { $mult(&mut out, &proj, scalar_le.as_ptr(), nbits) };
                out
            }

            /// The group generator.
            pub fn generator() -> $p {
                // SAFETY: blst returns a pointer to a static constant.
                unsafe { *$generator() }
            }

            /// The group generator, affine.
            pub fn affine_generator() -> $a {
                // SAFETY: blst returns a pointer to a static constant.
                unsafe { *$affine_generator() }
            }

            /// Sum of affine points by batch-affine ("bulk") addition: one
            /// field inversion per tree level shared by all additions
            /// (Montgomery's trick). Handles repeated points (doubling),
            /// opposite points and the identity.
            pub fn sum_refs(points: &[&$a]) -> $p {
                let mut out = <$p>::default();
                if points.is_empty() {
                    return out;
                }
                // `&$a` and `*const $a` have the same layout, so the slice of references is
                // already the array of pointers blst wants; none of them is NULL.
                let ptrs = points.as_ptr() as *const *const $a;
                // SAFETY: `ptrs` points to points.len() non-null, valid point pointers.
                unsafe { $bulk_add(&mut out, ptrs, points.len()) };
                out
            }

            /// Bulk addition of a contiguous slice of affine points.
            pub fn sum(points: &[$a]) -> $p {
                let mut out = <$p>::default();
                if points.is_empty() {
                    return out;
                }
                let list: [*const $a; 2] = [points.as_ptr(), core::ptr::null()];
                // SAFETY: contiguous array of points.len() points, NULL-terminated pointer list.
                unsafe { $bulk_add(&mut out, list.as_ptr(), points.len()) };
                out
            }

            /// Multi-scalar multiplication `sum scalar_i * point_i` with blst's
            /// Pippenger (single-threaded). `scalars` holds one little-endian
            /// scalar of `ceil(nbits / 8)` bytes per point.
            pub fn msm_refs(points: &[&$a], scalars: &[u8], nbits: usize) -> $p {
                let nbytes = nbits.div_ceil(8);
                assert_eq!(scalars.len(), nbytes * points.len(), "one scalar per point");
                let mut out = <$p>::default();
                if points.is_empty() {
                    return out;
                }
                let ptrs = points.as_ptr() as *const *const $a;
                let sc: [*const u8; 2] = [scalars.as_ptr(), core::ptr::null()];
                // SAFETY: scratch sized by blst for this many points; the point list holds
                // points.len() valid pointers and the scalars are contiguous.
                unsafe {
                    let size = $msm_scratch(points.len());
                    let mut scratch = vec![0u64; size.div_ceil(8)];
                    $msm(&mut out, ptrs, points.len(), sc.as_ptr(), nbits, scratch.as_mut_ptr());
                }
                out
            }

            /// [`msm_refs`] over a contiguous slice.
            pub fn msm(points: &[$a], scalars: &[u8], nbits: usize) -> $p {
                let refs: Vec<&$a> = points.iter().collect();
                msm_refs(&refs, scalars, nbits)
            }
        }
    };
}

group_ops!(
    g1, "Operations in G1 (48-byte compressed points; public keys of the Ethereum suite).",
    point: blst_p1, affine: blst_p1_affine, compressed: 48,
    uncompress: blst_p1_uncompress, compress: blst_p1_compress,
    in_group: blst_p1_affine_in_g1, affine_is_inf: blst_p1_affine_is_inf, is_inf: blst_p1_is_inf,
    to_affine: blst_p1_to_affine, from_affine: blst_p1_from_affine,
    add_or_double: blst_p1_add_or_double, add_or_double_affine: blst_p1_add_or_double_affine,
    cneg: blst_p1_cneg, mult: blst_p1_mult, bulk_add: blst_p1s_add,
    batch_to_affine: blst_p1s_to_affine,
    msm: blst_p1s_mult_pippenger, msm_scratch: blst_p1s_mult_pippenger_scratch_sizeof,
    generator: blst_p1_generator, affine_generator: blst_p1_affine_generator,
    affine_is_equal: blst_p1_affine_is_equal,
);

group_ops!(
    g2, "Operations in G2 (96-byte compressed points; signatures of the Ethereum suite).",
    point: blst_p2, affine: blst_p2_affine, compressed: 96,
    uncompress: blst_p2_uncompress, compress: blst_p2_compress,
    in_group: blst_p2_affine_in_g2, affine_is_inf: blst_p2_affine_is_inf, is_inf: blst_p2_is_inf,
    to_affine: blst_p2_to_affine, from_affine: blst_p2_from_affine,
    add_or_double: blst_p2_add_or_double, add_or_double_affine: blst_p2_add_or_double_affine,
    cneg: blst_p2_cneg, mult: blst_p2_mult, bulk_add: blst_p2s_add,
    batch_to_affine: blst_p2s_to_affine,
    msm: blst_p2s_mult_pippenger, msm_scratch: blst_p2s_mult_pippenger_scratch_sizeof,
    generator: blst_p2_generator, affine_generator: blst_p2_affine_generator,
    affine_is_equal: blst_p2_affine_is_equal,
);

/// The affine coordinates of a G1 point as two 48-byte big-endian field
/// elements (blst's uncompressed encoding split in halves), or `None` for
/// the identity, which has no affine coordinates.
pub(crate) fn g1_coordinates(p: &blst_p1_affine) -> Option<([u8; 48], [u8; 48])> {
    if g1::is_identity(p) {
        return None;
    }
    let mut out = [0u8; 96];
    // SAFETY: `out` has the 96 bytes blst writes for an uncompressed G1 point.
    unsafe { blst::blst_p1_affine_serialize(out.as_mut_ptr(), p) };
    let (mut x, mut y) = ([0u8; 48], [0u8; 48]);
    x.copy_from_slice(&out[..48]);
    y.copy_from_slice(&out[48..]);
    Some((x, y))
}

/// Hash to G2 (RFC 9380, `BLS12381G2_XMD:SHA-256_SSWU_RO_`) under `dst`.
pub fn hash_to_g2(msg: &[u8], dst: &[u8]) -> blst_p2_affine {
    let mut out = blst_p2::default();
    // SAFETY: all buffers valid for the given lengths; aug is empty.
    unsafe { blst::blst_hash_to_g2(&mut out, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), core::ptr::null(), 0) };
    g2::to_affine(&out)
}

/// Hash to G1 (RFC 9380, `BLS12381G1_XMD:SHA-256_SSWU_RO_`) under `dst`.
pub(crate) fn hash_to_g1(msg: &[u8], dst: &[u8]) -> blst_p1_affine {
    let mut out = blst_p1::default();
    // SAFETY: all buffers valid for the given lengths; aug is empty.
    unsafe { blst::blst_hash_to_g1(&mut out, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), core::ptr::null(), 0) };
    g1::to_affine(&out)
}

/// Whether `prod e(P_i, Q_i) == 1`, computed with one multi-Miller loop and
/// one final exponentiation on the calling thread.
///
/// Pairs with an identity point contribute `e(O, Q) = 1` and are skipped
/// (blst's Miller loop does not special-case the identity). An empty product
/// is 1; callers never ask for one.
pub(crate) fn pairing_product_is_one(pairs: &[(blst_p1_affine, blst_p2_affine)]) -> bool {
    let (ps, qs): (Vec<&blst_p1_affine>, Vec<&blst_p2_affine>) =
        pairs.iter().filter(|(p, q)| !g1::is_identity(p) && !g2::is_identity(q)).map(|(p, q)| (p, q)).unzip();
    if ps.is_empty() {
        return true;
    }
    let mut ml = blst_fp12::default();
    let mut fe = blst_fp12::default();
    // SAFETY: both pointer arrays hold ps.len() valid, non-null pointers.
    unsafe {
        blst_miller_loop_n(
            &mut ml,
            qs.as_ptr() as *const *const blst_p2_affine,
            ps.as_ptr() as *const *const blst_p1_affine,
            ps.len(),
        );
        blst_final_exp(&mut fe, &ml);
        blst_fp12_is_one(&fe)
    }
}

/// A scalar modulo `r`, kept in blst's Montgomery form for cheap sums and
/// products (used where setups form aggregate signatures by linearity).
#[derive(Clone, Copy, Default)]
pub struct Fr(blst_fr);

impl Fr {
    /// Reduces a little-endian byte string of any length modulo `r`.
    pub fn from_le_bytes_reduced(bytes: &[u8]) -> Fr {
        let mut s = blst_scalar::default();
        let mut f = blst_fr::default();
        // SAFETY: valid buffers; blst reduces modulo r.
        unsafe {
            blst_scalar_from_le_bytes(&mut s, bytes.as_ptr(), bytes.len());
            blst_fr_from_scalar(&mut f, &s);
        }
        Fr(f)
    }

    /// The integer `v` as a scalar.
    pub fn from_u64(v: u64) -> Fr {
        Fr::from_le_bytes_reduced(&v.to_le_bytes())
    }

    /// `self + other` modulo `r`.
    pub fn add(&self, other: &Fr) -> Fr {
        let mut out = blst_fr::default();
        // SAFETY: valid references.
        unsafe { blst_fr_add(&mut out, &self.0, &other.0) };
        Fr(out)
    }

    /// `self * other` modulo `r`.
    pub fn mul(&self, other: &Fr) -> Fr {
        let mut out = blst_fr::default();
        // SAFETY: valid references.
        unsafe { blst_fr_mul(&mut out, &self.0, &other.0) };
        Fr(out)
    }

    /// Canonical little-endian bytes (fully reduced).
    pub fn to_le_bytes(self) -> [u8; 32] {
        let mut s = blst_scalar::default();
        // SAFETY: valid references.
        unsafe { blst_scalar_from_fr(&mut s, &self.0) };
        s.b
    }

    /// Whether the scalar is zero.
    #[cfg(test)]
    pub(crate) fn is_zero(&self) -> bool {
        self.to_le_bytes() == [0u8; 32]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g1_multiple(k: u64) -> blst_p1_affine {
        g1::to_affine(&g1::mul(&g1::affine_generator(), &k.to_le_bytes(), 64))
    }

    #[test]
    fn bulk_sum_handles_repeats_opposites_and_identity() {
        let p = g1_multiple(5);
        let q = g1_multiple(7);
        let minus_p = g1::to_affine(&g1::neg(&g1::from_affine(&p)));
        let id = blst_p1_affine::default();
        // 5 + 5 + 7 + (-5) + O = 12
        let s = g1::sum_refs(&[&p, &p, &q, &minus_p, &id]);
        assert!(g1::eq(&g1::to_affine(&s), &g1_multiple(12)));
        // Only repeats: 16 copies of P = 80 G (exercises the bulk tree at n >= 16).
        let many = vec![&p; 16];
        assert!(g1::eq(&g1::to_affine(&g1::sum_refs(&many)), &g1_multiple(80)));
        // P + (-P) = O
        assert!(g1::is_identity_proj(&g1::sum_refs(&[&p, &minus_p])));
        assert!(g1::is_identity_proj(&g1::sum_refs(&[])));
    }

    #[test]
    fn msm_matches_naive_sum_and_accepts_small_scalars() {
        let points: Vec<blst_p1_affine> = (1..=40).map(g1_multiple).collect();
        let scalars: Vec<u8> = (0..40u8).map(|i| i % 16).collect();
        let msm = g1::msm(&points, &scalars, 4);
        // sum (i % 16) * (i + 1) G
        let expected: u64 = (0..40u64).map(|i| (i % 16) * (i + 1)).sum();
        assert!(g1::eq(&g1::to_affine(&msm), &g1_multiple(expected)));
    }

    #[test]
    fn decompress_rejects_bad_inputs() {
        let g = g1::compress(&g1::affine_generator());
        assert!(g1::decompress(&g).is_ok());
        assert_eq!(g1::decompress(&g[..47]), Err(PointError::Length { expected: 48, got: 47 }));
        let mut uncompressed_flag = g;
        uncompressed_flag[0] &= 0x7f;
        assert_eq!(g1::decompress(&uncompressed_flag), Err(PointError::Encoding));
        // The identity decodes (callers decide whether they accept it).
        let mut inf = [0u8; 48];
        inf[0] = 0xc0;
        assert!(g1::is_identity(&g1::decompress(&inf).unwrap()));
    }

    #[test]
    fn pairing_product_checks_bilinearity() {
        let p = g1_multiple(6);
        let q = g2::to_affine(&g2::mul(&g2::affine_generator(), &3u64.to_le_bytes(), 64));
        let p2 = g1_multiple(18);
        let minus_g2 = g2::to_affine(&g2::neg(&g2::generator()));
        // e(6G, 3H) * e(18G, -H) = 1
        assert!(pairing_product_is_one(&[(p, q), (p2, minus_g2)]));
        assert!(!pairing_product_is_one(&[(p, q), (p, minus_g2)]));
    }

    #[test]
    fn scalar_field_arithmetic() {
        let a = Fr::from_u64(u64::MAX);
        let b = a.mul(&a).add(&Fr::from_u64(1));
        let mut bytes = [0u8; 32];
        // (2^64 - 1)^2 + 1 = 2^128 - 2^65 + 2
        let v: u128 = u128::MAX - (1u128 << 65) + 3; // 2^128 - 1 - 2^65 + 3
        bytes[..16].copy_from_slice(&v.to_le_bytes());
        assert_eq!(b.to_le_bytes(), bytes);
        // r reduces to zero
        let mut r_le = R_BE;
        r_le.reverse();
        assert!(Fr::from_le_bytes_reduced(&r_le).is_zero());
    }
}
