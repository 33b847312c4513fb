//! Generates a key of the chosen parameter set, signs a message at a few
//! epochs, verifies, and prints how long each step took.
//!
//! ```sh
//! cargo run --release -p sigagg-xmss --example sign_and_verify -- lean-sig-prod
//! ```

use std::time::Instant;

use sigagg_xmss::{LeanSigProd, ParameterSet, Seed001, Signature, Test, keygen, verify};

fn run<S: ParameterSet>() {
    let mut rng = rand::rng();
    let t = Instant::now();
    let (pk, mut sk) = keygen::<S, _>(&mut rng, 0, 1).expect("a one-epoch window is valid");
    println!("{}: keygen of {} epochs in {:.2?}", S::NAME, sk.activation_interval().end, t.elapsed());
    let message = *b"an example 32-byte signing root!";
    for epoch in [0u32, 1, 5] {
        let t = Instant::now();
        let sig = sk.sign(epoch, &message).expect("epoch is prepared and unused");
        let sign = t.elapsed();
        let bytes = sig.to_bytes();
        let t = Instant::now();
        let decoded = Signature::<S>::from_bytes(&bytes).expect("canonical encoding");
        verify(&pk, epoch, &message, &decoded).expect("valid signature");
        println!("epoch {epoch}: signed in {sign:.2?}, {} bytes, verified in {:.2?}", bytes.len(), t.elapsed());
    }
}

fn main() {
    match std::env::args().nth(1).as_deref().unwrap_or("seed001") {
        "seed001" => run::<Seed001>(),
        "lean-sig-prod" => run::<LeanSigProd>(),
        "test" => run::<Test>(),
        other => eprintln!("unknown parameter set {other}; use seed001, lean-sig-prod or test"),
    }
}
