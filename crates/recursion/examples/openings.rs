//! Sizes and proves a circuit of Merkle openings like a child proof's
//! commitment openings: `Q` rows of width `W` opened in one Poseidon2 tree
//! of depth `D`, each leaf hashed and climbed to the root by the path
//! table (`ARITHMETIC=1`: by arithmetic selections). Prints the tables'
//! sizes, the prove and verify times under whir-skip-poseidon2.
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-recursion --example openings -- 100 64 20
//! ```

use std::time::Instant;

use p3_field::PrimeCharacteristicRing;
use sigagg_prover::Settings;
use sigagg_prover::config::Val;
use sigagg_recursion::merkle::{DIGEST, Digest, climb_values};
use sigagg_recursion::{CircuitBuilder, Ext, Wire, prove, verify};

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().expect("a number"));
    let (queries, width, depth) = (args.next().unwrap_or(100), args.next().unwrap_or(64), args.next().unwrap_or(20));
    // `ARITHMETIC=1`: climb by arithmetic selections instead of the path table.
    let arithmetic = std::env::var("ARITHMETIC").is_ok_and(|v| v == "1");
    let mut b = CircuitBuilder::new();
    let root: Digest = core::array::from_fn(|_| b.input());
    let mut inputs: Vec<Ext> = Vec::new();
    let mut openings = Vec::new();
    for _ in 0..queries {
        let row: Vec<Wire> = (0..width).map(|_| b.input()).collect();
        let bits: Vec<Wire> = (0..depth).map(|_| b.input()).collect();
        let siblings: Vec<Digest> = (0..depth).map(|_| core::array::from_fn(|_| b.input())).collect();
        openings.push((row, bits, siblings));
    }
    // The witness: every query opens the same row along the same path
    // (the circuit's shape is what is measured), whose root is computed
    // natively.
    let row_values: Vec<Val> = (0..width).map(|i| Val::from_u32(i as u32 * 7 + 1)).collect();
    let bit_values: Vec<Val> = (0..depth).map(|l| Val::from_usize((l * 5 + 1) % 2)).collect();
    let sibling_values: Vec<[Val; DIGEST]> =
        (0..depth).map(|l| core::array::from_fn(|i| Val::from_u32((l * 8 + i) as u32 + 3))).collect();
    for (row, bits, siblings) in &openings {
        let leaf = b.leaf_hash(row);
        let top = if arithmetic { b.merkle_root(leaf, bits, siblings) } else { b.merkle_path(leaf, bits, siblings) };
        for (t, r) in top.into_iter().zip(root) {
            b.assert_eq(t, r);
        }
    }
    let circuit = b.build();
    let native_root = native_root(&row_values, &bit_values, &sibling_values);
    inputs.extend(native_root.map(Ext::from));
    for _ in 0..queries {
        inputs.extend(row_values.iter().map(|&v| Ext::from(v)));
        inputs.extend(bit_values.iter().map(|&v| Ext::from(v)));
        inputs.extend(sibling_values.iter().flatten().map(|&v| Ext::from(v)));
    }
    println!(
        "{queries} openings of width {width}, depth {depth}: {} wires, {} arithmetic rows, {} permutations, {} path levels",
        circuit.num_wires(),
        circuit.rows().len(),
        circuit.perms().len(),
        circuit.paths().iter().map(|p| p.bits.len()).sum::<usize>()
    );
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let t = Instant::now();
    let proof = prove(&settings, &circuit, &inputs).expect("an honest circuit");
    let prove_s = t.elapsed();
    let bytes = proof.to_bytes();
    let t = Instant::now();
    verify(&settings, &circuit, &inputs, &proof).expect("it verifies");
    println!("proved in {prove_s:.2?}, {} bytes, verified in {:.2?}", bytes.len(), t.elapsed());
}

/// The root Plonky3's trees reach from a row along bits and siblings: the
/// row's sponge, then the path.
fn native_root(row: &[Val], bits: &[Val], siblings: &[[Val; DIGEST]]) -> [Val; DIGEST] {
    use p3_symmetric::Permutation;
    let perm = sigagg_koalabear::poseidon2::default16();
    let mut state = [Val::ZERO; 16];
    for chunk in row.chunks(DIGEST) {
        state[..chunk.len()].copy_from_slice(chunk);
        state = perm.permute(state);
    }
    let leaf: [Val; DIGEST] = core::array::from_fn(|i| state[i]);
    let bits: Vec<bool> = bits.iter().map(|&b| b == Val::ONE).collect();
    climb_values(leaf, &bits, siblings)
}
