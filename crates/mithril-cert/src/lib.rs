//! # sigagg-mithril-cert: the succinct Mithril certificate (issue 43, item 3)
//!
//! **Status.** This crate holds the design of one succinct proof of a whole
//! Mithril certificate, and four gadgets built on it, proven each on its
//! own and wired together into one lottery block per won index with `σ`
//! and the index hidden ([`lottery`]):
//!
//! * built and tested: the Poseidon permutation of the SNARK lottery as PIOP
//!   constraints ([`poseidon`]): column layout, periodic fixed columns
//!   ([`periodic`]), a trace filled from `sigagg_mithril::poseidon`, the
//!   constraints checked row by row over the domain and through the quotient
//!   identity at a point outside it ([`quotient`]), with targeted
//!   corruptions; and a batch of permutations proven and verified end to end
//!   with KZG on BW6-767 through `sigagg-bls-cert`'s setup, MSM and
//!   transcript ([`kzg`], generic over a [`kzg::Gadget`]), with every part
//!   of the proof tampered;
//! * built and tested: the comparison `ev < B` by bit-decomposed 64-bit
//!   limbs and a borrow chain ([`compare`]), row by row and through the
//!   quotient identity in the clear, with losing, non-canonical and
//!   non-bit witnesses forced, and under KZG ([`kzg::CompareBatch`]);
//! * built and tested: the subgroup test `σ ∈ G1` (Scott's `[u²]σ = −φ(σ)`
//!   with two 63-step double-and-add lanes, inverse-guarded incomplete
//!   formulas) ([`subgroup`]), row by row and through the quotient identity
//!   in the clear: G1 points pass, a point plus one of order 3, points off
//!   the subgroup, off the curve and forged ladder cells fail, and under
//!   KZG ([`kzg::SubgroupBatch`]);
//! * built and tested: hidden indices strictly increasing and below `m`
//!   ([`order`], [`kzg::OrderBatch`]): bit-range-checked indices and gaps
//!   chained from block to block;
//! * built and tested: the four wired into one block per won index
//!   ([`lottery`], [`kzg::LotteryBatch`]): for hidden `j_0 < … < j_{k−1} < m`
//!   and hidden `σ_b`, `σ_b ∈ G1` and
//!   `Poseidon(TAG·2^64 + j_b, prefix, x(σ_b))[1] < B_b`, the capacity cell
//!   bound to the ordered index, the hashed `x` to the tested point and the
//!   compared value to the hash output; `prefix` and `B_b` are still public
//!   per block (sparse columns);
//! * **not built**: the Horner ladders of MSP.B (so nothing yet ties `σ` to
//!   a signature), the membership lookup (so `B` and `k2` are not yet taken
//!   from the committee, and the verifier still reads them per block), the
//!   `live` column (every block of the domain is a won index), the
//!   certificate, its encoding and its verifier. [`kzg`] has one commitment
//!   phase (the lookup and the Horner ladders need a second, after `ρ̂, γ,
//!   β`), opens every witness column at `ζω` instead of linearizing, and its
//!   proofs have no byte encoding. Nothing described below beyond the list
//!   above exists yet.
//!
//! Everything is over `F = F_q`, BLS12-381's base field, the scalar field of
//! BW6-767 on which `sigagg-bls-cert` commits: a G1 coordinate is one native
//! field element.
//!
//! ## The statement
//! Public: the committee key (commitments to the committee's columns, made
//! once at registration, and the registration's Merkle root, so that
//! `msgp = msg ‖ root` as in Mithril), `msg`, `k`, `m`, and in the
//! certificate the points `μ, κ ∈ G1`, `Y ∈ G2`. The proof shows that there are `k` won indices
//! `j_0 < j_1 < … < j_{k-1} < m`, each with a committee member `i_b` and a
//! point `σ_b`, such that
//! 1. `(i_b, k2_{i_b}, B_{i_b})` is a row of the committee ("membership");
//! 2. `σ_b ∈ G1` (the prime-order subgroup);
//! 3. `ev_b = Poseidon(TAG·2^64 + j_b, prefix(msgp), x(σ_b))[1] < B_{i_b}`
//!    (`sigagg_mithril::snark_lottery`: `B(T) = ⌈T·q/2^64⌉`, `T` the signer's
//!    64-bit target);
//! 4. `μ = Σ_b ρ̂^{k−1−b} σ_b` and `κ = Σ_b ρ̂^{k−1−b} k2_{i_b}` (Horner
//!    order) for the transcript's `ρ̂`.
//!
//! The verifier then checks natively, with one product of two BLS12-381
//! pairings, `e(μ + c·κ, g2) = e(H(msgp) + c·g1, Y)` for a transcript
//! challenge `c` drawn after `μ, κ, Y`.
//!
//! ## Layout: blocks of 66 rows
//! `F*` has two-adicity 1, so `sigagg-bls-cert` uses domains of order
//! `N | 2·3²·11·23·47 = 214 038` ([`sigagg_bls_cert::domain`]). One won
//! index occupies one **block** of `P = 66 = 2·3·11` rows: 64 Poseidon
//! rounds, its output row, one spare row. `66 | N` for
//! `N = 66·1081 = 71 346` (1081 blocks, enough for `k ≤ 1081`, so for
//! `k = 1024`) and `N = 66·3243 = 214 038` (mainnet's `k = 1944`). Every
//! column that is the same in each block (round constants, round-type
//! selectors, the bits of the fixed scalars of the ladders) is **periodic**:
//! its polynomial is `p(X) = p̂(X^{N/P})` with `p̂` of degree below `P`, so the
//! verifier evaluates it at `ζ` in `O(P)` ([`periodic`]) and it is neither
//! committed nor opened. Blocks past `k` are switched off by a fixed
//! committed column `live` (1 on the rows of the first `k` blocks).
//!
//! ## Columns
//! *Committee (fixed, committed once in the committee key):* the row's
//! member index `i`; `k2 = sk·g1` from the proof of possession, affine
//! `(k2x, k2y)` (checked at registration: `e(g1, mvk) = e(k2, g2)`, `k2 ∈ G1`);
//! the bound `B(T_i)` as six 64-bit limbs `B0..B5` (`B < q` since
//! `T < 2^64`); `live`; with the cheaper comparison, a 16-bit range table
//! `0..2^16` (`2^16 ≤ N`).
//!
//! *Per block `b` (witness, committed):* constant over the block (transition
//! constraints `v' = v` on non-final rows): `j_b` ([`order`], with its bit
//! and gap accumulators), `i_b`, `k2x, k2y, B0..B5` of the signer's row,
//! `σ_b = (σx, σy)`; the Poseidon trace `s0, s1, s2` and squares
//! `q0, q1, q2` ([`poseidon`]); the comparison's twelve bit accumulators
//! ([`compare`]); two subgroup-test ladders ([`subgroup`]) and two Horner
//! ladders (below); the log-derivative lookup columns.
//!
//! ## Constraints and why each is sound
//! **Membership.** A log-derivative lookup (one random `γ` compresses the
//! tuple, one random `β`): `Σ_b live_b/(β − t_b) = Σ_r mult_r/(β − T_r)`
//! with `t_b = i_b + γ k2x_b + γ² k2y_b + Σ_l γ^{3+l} B_l,b` on the first
//! row of each block and `T_r` the same combination of the committee's row
//! `r`; inverses are committed columns (`h·(β − t) = live`), the running sum
//! of the two sides is one column with boundary cells 0 and 0. Sound: both
//! sides are rational functions of `β` with at most `N` poles each; if the
//! multisets differ, equality holds for at most `2N` values of `β`, and a
//! tuple outside the table survives the compression against one table row
//! for at most 8 values of `γ` (a nonzero polynomial of degree 8), so for at
//! most `8n` in all; `q > 2^380`. So `k2_b` **is** the
//! committed key of member `i_b`, and `B_b` is its committed bound.
//!
//! **σ in G1.** On-curve at the block's first row: `σy² = σx³ + 4`. Then
//! Scott's test (eprint 2021/1130, for BLS12 G1; the section was not rechecked here): `σ ∈ G1` iff
//! `φ(σ) = [−u²]σ` with `φ(x, y) = (βx, y)`, `β` the cube root of unity of
//! eigenvalue `−u² mod r`, `u = −0xd201000000010000`. Two double-and-add
//! ladders by `|u|` (64 bits, 6 ones: periodic add flags) give
//! `[u²]σ = [|u|]([|u|]σ)`; the constraint is `[u²]σ = −φ(σ)`, i.e.
//! `(x, y) = (β·σx, −σy)` on the ladder's last row ([`subgroup`], built;
//! `β` is picked on the generator, and the sign checked on other points).
//!
//! **The ladders' incomplete formulas, every exceptional case.** Doubling
//! `2R` with slope `λ`: `2R_y·λ = 3R_x²`; exceptional only for `R_y = 0`, a
//! point of order 2, and `#E(F_q) = h·r` is odd: there is none, so `λ` is
//! unique. Addition `D + P` with slope `λ`: `λ(D_x − P_x) = D_y − P_y`;
//! exceptional for `D_x = P_x` (`D = ±P`), where the constraint would leave
//! the result free. It is **excluded by a committed inverse**
//! `inv·(D_x − P_x) = 1` on every row that adds, so each ladder row is an
//! exact group operation on `E(F_q)` whatever the witness: a cheating prover
//! gains nothing from exceptional inputs, it only cannot finish the proof.
//! The identity never appears: outputs are affine by construction, the
//! doubling of an affine point is affine (no 2-torsion) and `D + P` with
//! `D ≠ −P` is affine. Completeness: an honest ladder meets `D = ±P` only if
//! a partial multiple `[a ± 1]P = 0` with `|a ± 1| < 2^128 < r`, impossible
//! for `P ∈ G1 \ {0}`; in the Horner ladders (scalars `a + b·λ`, below)
//! only for a GLV-lattice vector of length below `2^65`, and that lattice's
//! nonzero vectors are about `2^128` long; an accumulator equal to the
//! identity happens with probability `≤ k/2^126` over `ρ̂` (then the honest
//! prover fails; no false statement passes).
//!
//! **The lottery.** The Poseidon rows are [`poseidon`]'s constraints; the
//! first row of a block binds the input `(TAG·2^64 + j_b, prefix, σx)`
//! (`prefix` public, computed by the verifier from `msgp`), the output row
//! gives `ev_b = s1`. The comparison ([`compare`], built): `ev` and
//! `D = B − 1 − ev` in six 64-bit limbs each, bit-decomposed over the
//! block's rows, `ev` recomposed on the output row and a borrow chain with
//! no borrow out of the top limb. Every limb equation involves integers
//! below `2^66 ≪ q`, so it holds over the integers; the recomposed
//! `int ≡ ev (mod q)` with `0 ≤ int ≤ B − 1 < q` is `ev`'s canonical value,
//! so `ev < B`; a non-canonical decomposition (`int = ev + t·q`) would need
//! `int ≥ q ≥ B`: it can only lose. (Cheaper, not built: 16-bit limbs in a
//! log-derivative range lookup against the committee's range table.)
//!
//! **Indices** ([`order`], built). Each `j_b` and each gap
//! `g_b = j_{b+1} − j_b − 1` (with `j_k := m`) is bit-decomposed into 64
//! bits, and the chain `j_{b+1} = j_b + 1 + g_b`, `j_{k−1} + 1 + g_{k−1} = m`
//! holds over the integers (terms below `2^66`): `0 ≤ j_0 < … < j_{k−1} < m`,
//! so `k` distinct indices, all below `m`.
//!
//! **MSP.B, and why each σ_b is the unique valid signature.** After the
//! `σ` columns are committed the transcript gives `ρ̂ = a + b·λ_r` with
//! `a, b ∈ [2^63, 2^64)` (`λ_r` the eigenvalue of `φ` on G1): `ρ̂·A` is the
//! joint ladder `[a]A + [b]φ(A)`, 64 rows, `φ(A) = (βA_x, A_y)` free (the
//! accumulators are sums of subgroup-tested `σ`'s or registered `k2`'s, so
//! they lie in G1, where `φ` acts as `λ_r`), the
//! bits of `a, b` periodic columns that the verifier derives from the
//! transcript and evaluates at `ζ` in `O(66)`. The PIOP has two commitment
//! phases: first every column that fixes the `σ_b` and the lottery (block
//! constants, Poseidon, comparison, subgroup test), then `ρ̂` and the lookup
//! challenges `γ, β`, then the Horner ladders and the lookup's inverse and
//! running-sum columns, then `α`. Horner: `acc_{b+1} = ρ̂·acc_b + σ_b` (and the same
//! for `k2_b`), so `μ = Σ ρ̂^{k−1−b} σ_b`, `κ = Σ ρ̂^{k−1−b} k2_b` (any fixed
//! power assignment will do). The verifier's equation for a random `c`
//! drawn after `(μ, κ, Y)` implies, except with probability `2^-128`, both
//! `e(κ, g2) = e(g1, Y)` and `e(μ, g2) = e(H(msgp), Y)`. The first gives
//! `Y = s·g2` with `s = Σ ρ̂^{…} sk_{i_b}` (each `k2 = sk·g1`, membership), the
//! second `μ = s·H(msgp) = Σ ρ̂^{…} σ*_b` with `σ*_b = sk_{i_b}·H(msgp)`, the
//! unique valid signature. So `Σ_b ρ̂^{…} δ_b = 0` for `δ_b = σ_b − σ*_b ∈ G1`
//! (σ_b in G1 by the subgroup test). The `σ_b` were committed before `ρ̂`;
//! for a fixed nonzero `(δ_b)` the left side is a nonzero polynomial of
//! degree `< k` in `ρ̂ mod r`, and the `2^126` values of `ρ̂` are distinct
//! mod `r` (`λ_r` is `u² − 1` or `−u²`, so the integers `a ± b·|λ_r|` are
//! distinct and lie in an interval shorter than `2^193 < r`), so it
//! vanishes with probability `≤ (k − 1)/2^126`. Hence every `σ_b = σ*_b`.
//! **Nothing cancels:** `(σ_1 + Δ, σ_2 − Δ)` is `δ = (Δ, −Δ, 0, …)`, the nonzero polynomial `Δ·(ρ̂^{e_1} − ρ̂^{e_2})`. A
//! point of order 3 added to a σ is refused earlier, by the subgroup test
//! (without it, `Σ ρ̂^e T_b` in `E[3]` would vanish with probability ~1/3).
//!
//! ## Budget for k = 1024, m = 4096 (an estimate; one measured figure below)
//! `N = 71 346` rows (1081 blocks of 66). Committed witness columns, with
//! the four built gadgets at their real widths: 6 Poseidon ([`poseidon`]),
//! 12 comparison ([`compare`], bits; about 5 with a 16-bit lookup instead),
//! 14 subgroup test ([`subgroup`]: `σ`, lane 2's base, 2 × 5 ladder
//! columns); not built: 18 Horner (2 × (5 ladder columns, `A`, `S = A + φ(A)`
//! and the spare rows' slope/inverse)), 9 block constants (`i, k2x, k2y`
//! and the bound's six limbs, all bound by the membership lookup), 2
//! membership (inverse, multiplicity); built: 3 index ordering ([`order`]:
//! `J, R, G`): **about 64 columns (57 with a range lookup), 4.6 M cells**; constraints
//! of degree ≤ 4, so 3 quotient chunks. Committee key: about 10 fixed
//! commitments (`i, k2x, k2y`, 6 bound limbs, `live`; the range table with a
//! lookup).
//! * **Proof:** with `sigagg-bls-cert`'s linearization (one value at `ζω`),
//!   64 commitments × 97 B + ~74 evaluations × 48 B + 3 quotient chunks + 2
//!   openings + `μ, κ` (2 × 48 B) + `Y` (96 B) ≈ **10.4 KB** (≈ 9.4 KB with
//!   the lookup), over the 6 KB target. Folding three blocks into period 198
//!   (`N = 214 038`, each lane one step per row over three times the rows)
//!   divides the column count by about 3: ≈ 4 KB at the same cells. ([`kzg`]
//!   as built opens every witness column at `ζω` too: 48 B more per column.)
//! * **Prove:** the commitments are fixed-base MSMs
//!   (`sigagg_bls_cert::msm::FixedBaseMsm`, which skips zero digits), so a
//!   column costs by the size of its values. Measured at `N = 71 346` on 2
//!   threads (`examples/msm_probe` of `sigagg-bls-cert`, 2026-11-29, AMD
//!   EPYC): 0.93 s for full-width values (13 µs a cell; arkworks' Pippenger
//!   1.74 s), 0.21 s for 64-bit values, 0.03 s for bits; the window tables
//!   13.2 s once per committee key (kept with it, about 0.4 GB). About 41
//!   columns hold full-width values (Poseidon, both ladders, `k2`, the
//!   lookup's inverses) and 23 at most 64 bits (bit accumulators, limbs,
//!   indices, multiplicities): ≈ 38 + 5 s, the 3 quotient chunks and 2
//!   openings ≈ 5 s, the constraints on a `4N` coset (FFTs of every
//!   column, about 200 constraints of degree ≤ 4 a row) ≈ 15 s: **≈ 65 s,
//!   about 2× over the 30 s target** (the first estimate, 31 µs for every
//!   cell, said 3 min); memory ≈ 64 polynomials × 4 vectors × 71 346 × 48 B
//!   ≈ 0.9 GB plus the tables (target 2 GiB). Mainnet (`k = 1944`,
//!   `N = 214 038`): ≈ 3× that, ≈ 3.3 min (target 60 s). The EC ladders
//!   (subgroup test and Horner) are 32 of the 41 full-width columns:
//!   meeting the target needs a cheaper MSP.B binding and subgroup test
//!   than in-circuit ladders, not a faster Poseidon.
//! * **Measured (not a benchmark):** [`kzg`]'s generic prover, 47
//!   Poseidon permutations (`N = 3102`, 6 witness columns + 3 chunks),
//!   release, `RAYON_NUM_THREADS=2`, on a 2-core host at load average 8.7
//!   (other builds): setup and tables 4.2 s, prove 4.5 s (162 µs per
//!   committed cell), verify 26 ms (`kzg::tests::timing_poseidon_batch`,
//!   ignored by default). Its quotient is single-threaded and transforms the
//!   periodic and public columns as well; `sigagg-bls-cert`'s parallel
//!   prover is the basis of the estimate above, not this figure.
//! * **Verify:** ≈ 75 BW6-767 points decoded (subgroup checks) and one MSM,
//!   one 2-pairing BW6-767 check, periodic columns in `O(66)` each (the
//!   certificate has no per-block public values: `prefix` is one constant),
//!   one hash to G1 and a 2-pairing BLS12-381 check: ≈ 25–30 ms on 2 threads (bls-cert: 14 ms with 12 points), over
//!   the 20 ms target unless decoding is batched.

#![forbid(unsafe_code)]

pub mod compare;
pub mod error;
pub mod kzg;
pub mod lottery;
pub mod order;
pub mod periodic;
pub mod poseidon;
pub mod quotient;
pub mod subgroup;

pub use error::McertError;

/// The field of the columns: BLS12-381's base field, BW6-767's scalar field.
pub type F = sigagg_bls_cert::field::F;
