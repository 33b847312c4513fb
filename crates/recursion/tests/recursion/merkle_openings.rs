//! Merkle openings of the recursion setting's trees, verified in a
//! circuit: Plonky3's own `MerkleTreeMmcs` over Poseidon2 commits a
//! matrix, opens rows, and the circuit reaches the same root from the row,
//! the index bits and the siblings; a wrong sibling, a wrong bit or a
//! non-boolean bit is refused.

use p3_commit::Mmcs;
use p3_field::{BasedVectorSpace, PrimeCharacteristicRing};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use sigagg_prover::Settings;
use sigagg_prover::config::{Val, val_mmcs_poseidon2};
use sigagg_recursion::merkle::{DIGEST, Digest, climb_values};
use sigagg_recursion::{Circuit, CircuitBuilder, CircuitError, Ext, Wire, prove, verify};

const WIDTH: usize = 11;
const LOG_ROWS: usize = 4;

/// The circuit: a row of `WIDTH` values, `LOG_ROWS` index bits and
/// siblings, and the root, all inputs in that order; the path climbed by
/// arithmetic selections ([`CircuitBuilder::merkle_root`]).
fn opening_circuit() -> Circuit {
    opening_circuit_with(false)
}

/// [`opening_circuit`], the path climbed by arithmetic selections or, with
/// `path_table`, by the path table ([`CircuitBuilder::merkle_path`]).
fn opening_circuit_with(path_table: bool) -> Circuit {
    let mut b = CircuitBuilder::new();
    let row: Vec<Wire> = (0..WIDTH).map(|_| b.input()).collect();
    let bits: Vec<Wire> = (0..LOG_ROWS).map(|_| b.input()).collect();
    let siblings: Vec<Digest> = (0..LOG_ROWS).map(|_| core::array::from_fn(|_| b.input())).collect();
    let root: Digest = core::array::from_fn(|_| b.input());
    let leaf = b.leaf_hash(&row);
    let reached =
        if path_table { b.merkle_path(leaf, &bits, &siblings) } else { b.merkle_root(leaf, &bits, &siblings) };
    for (r, expected) in reached.into_iter().zip(root) {
        b.assert_eq(r, expected);
    }
    b.build()
}

/// A committed matrix and, for `index`, the circuit's inputs: the opened
/// row, the index's bits, the siblings and the root, from Plonky3's tree.
fn opening(index: usize) -> Vec<Ext> {
    let values: Vec<Val> = (0..WIDTH << LOG_ROWS).map(|i| Val::from_u32(3 * i as u32 + 17)).collect();
    let mmcs = val_mmcs_poseidon2(0);
    let (root, data) = mmcs.commit_matrix(RowMajorMatrix::new(values, WIDTH));
    let opened = mmcs.open_batch(index, &data);
    assert_eq!(opened.opened_values.len(), 1);
    let mut inputs: Vec<Val> = opened.opened_values[0].clone();
    inputs.extend((0..LOG_ROWS).map(|l| Val::from_usize((index >> l) & 1)));
    assert_eq!(opened.opening_proof.len(), LOG_ROWS);
    inputs.extend(opened.opening_proof.iter().flatten());
    let root: [Val; DIGEST] = root.as_ref()[0];
    inputs.extend(root);
    inputs.into_iter().map(Ext::from).collect()
}

#[test]
fn openings_of_plonkys_tree_verify_in_the_circuit() {
    let circuit = opening_circuit();
    for index in [0, 5, 10, (1 << LOG_ROWS) - 1] {
        circuit.witness(&opening(index)).unwrap_or_else(|e| panic!("index {index}: {e}"));
    }
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let inputs = opening(5);
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    verify(&settings, &circuit, &inputs, &proof).unwrap();
    // The same proof for another opening of the same tree: refused.
    assert!(verify(&settings, &circuit, &opening(6), &proof).is_err());
}

#[test]
fn wrong_siblings_and_bits_are_refused() {
    let circuit = opening_circuit();
    let honest = opening(10);
    let sibling = WIDTH + LOG_ROWS + DIGEST + 2;
    let mut wrong = honest.clone();
    wrong[sibling] += Ext::ONE;
    assert!(matches!(circuit.witness(&wrong), Err(CircuitError::Unsatisfied { .. })));
    // Bit 0 flipped: the node placed on the other side.
    let mut flipped = honest.clone();
    flipped[WIDTH] = Ext::ONE - flipped[WIDTH];
    assert!(matches!(circuit.witness(&flipped), Err(CircuitError::Unsatisfied { .. })));
    // A bit of 2 is not a bit.
    let mut two = honest.clone();
    two[WIDTH + 1] = Ext::TWO;
    assert!(matches!(circuit.witness(&two), Err(CircuitError::Unsatisfied { .. })));
    // A changed opened value.
    let mut value = honest;
    value[WIDTH - 1] += Ext::ONE;
    assert!(matches!(circuit.witness(&value), Err(CircuitError::Unsatisfied { .. })));
}

/// The same openings through the path table: Plonky3's openings verify,
/// with far fewer arithmetic rows; wrong siblings and bits are refused,
/// a non-bit by type; a forged path trace (a level's bit flipped, the
/// node on the other side) is refused.
#[test]
fn the_path_table_verifies_the_same_openings() {
    let (selected, table) = (opening_circuit_with(false), opening_circuit_with(true));
    assert!(table.rows().len() * 10 < selected.rows().len(), "{} rows", table.rows().len());
    assert_eq!(table.paths().len(), 1);
    for index in [0, 5, 10, (1 << LOG_ROWS) - 1] {
        table.witness(&opening(index)).unwrap_or_else(|e| panic!("index {index}: {e}"));
    }
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let inputs = opening(9);
    let proof = prove(&settings, &table, &inputs).unwrap();
    verify(&settings, &table, &inputs, &proof).unwrap();
    assert!(verify(&settings, &table, &opening(8), &proof).is_err());

    let mut wrong = inputs.clone();
    wrong[WIDTH + LOG_ROWS + 3] += Ext::ONE;
    assert!(matches!(table.witness(&wrong), Err(CircuitError::Unsatisfied { .. })));
    let mut flipped = inputs.clone();
    flipped[WIDTH + 1] = Ext::ONE - flipped[WIDTH + 1];
    assert!(matches!(table.witness(&flipped), Err(CircuitError::Unsatisfied { .. })));
    let mut two = inputs.clone();
    two[WIDTH + 2] = Ext::TWO;
    assert_eq!(table.witness(&two).err(), Some(CircuitError::NotBit { wire: WIDTH + 2 }));

    // The path table's bit column flipped on the first level, the rest
    // as honest: the bit read and the node's place disagree.
    let mut traces = sigagg_recursion::honest_traces(&table, &inputs).unwrap();
    let width = traces[3].width;
    let bit_col = width - 1;
    traces[3].values[bit_col] = Val::ONE - traces[3].values[bit_col];
    let forged = sigagg_recursion::prove_traces(&Settings::INSECURE_TEST_SKIP, &table, &inputs, traces);
    if let Ok(proof) = forged {
        assert!(verify(&Settings::INSECURE_TEST_SKIP, &table, &inputs, &proof).is_err());
    }
}

/// A false root through a path whose first level hashes another node `X`
/// than the leaf it reads: the leaf read, the bits, the siblings, the
/// chain of levels and the root all agree with one another; only the
/// node's place in the first level's input (`place_node`) is broken.
#[test]
fn a_path_that_hashes_another_node_than_its_leaf_is_refused() {
    let circuit = opening_circuit_with(true);
    let inputs = opening(6);
    let honest = circuit.witness(&inputs).unwrap();
    let path = circuit.paths()[0].clone();
    let base = |e: &Ext| e.as_basis_coefficients_slice()[0];
    let bits: Vec<Val> = path.bits.iter().map(|w| base(&honest[w.index()])).collect();
    let siblings: Vec<[Val; DIGEST]> = path.siblings.iter().map(|s| s.map(|w| base(&honest[w.index()]))).collect();
    let x: [Val; DIGEST] = core::array::from_fn(|i| Val::from_u32(424_242 + i as u32));
    let bits: Vec<bool> = bits.iter().map(|&b| b == Val::ONE).collect();
    let forged_root = climb_values(x, &bits, &siblings);

    // The false statement: the forged root as the public root.
    let mut false_inputs = inputs.clone();
    let root_at = inputs.len() - DIGEST;
    for (k, v) in forged_root.iter().enumerate() {
        false_inputs[root_at + k] = Ext::from(*v);
    }
    let mut values = honest.clone();
    for (k, w) in path.root.iter().enumerate() {
        values[w.index()] = Ext::from(forged_root[k]);
    }
    let root_inputs = root_at..inputs.len();
    for (k, i) in root_inputs.enumerate() {
        values[i] = Ext::from(forged_root[k]);
    }
    let logs = |t: &[p3_matrix::dense::RowMajorMatrix<Val>]| -> [usize; 5] {
        core::array::from_fn(|i| t[i].height().trailing_zeros() as usize)
    };
    let shape = logs(&sigagg_recursion::honest_traces(&circuit, &inputs).unwrap());
    let mut traces = sigagg_recursion::air::traces(&circuit, &values, shape);
    // The path table climbs from X, its first node column still the leaf.
    let mut from_x = values.clone();
    for (k, w) in path.leaf.iter().enumerate() {
        from_x[w.index()] = Ext::from(x[k]);
    }
    let mut path_trace = sigagg_recursion::air::traces(&circuit, &from_x, shape).swap_remove(3);
    let width = path_trace.width;
    let node_at = width - 1 - DIGEST;
    for (k, w) in path.leaf.iter().enumerate() {
        path_trace.values[node_at + k] = base(&honest[w.index()]);
    }
    traces[3] = path_trace;
    let settings = Settings::INSECURE_TEST_SKIP;
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        sigagg_recursion::prove_traces(&settings, &circuit, &false_inputs, traces)
    })) {
        Ok(Ok(proof)) => assert!(verify(&settings, &circuit, &false_inputs, &proof).is_err(), "accepted"),
        Ok(Err(_)) => {}
        Err(_) if cfg!(debug_assertions) => {}
        Err(_) => panic!("a release prover panicked"),
    }
}
