//! Where an aggregate proof's memory goes: samples the process's resident
//! memory every 10 ms while proving and prints, for every span of the
//! prover (ours and Plonky3's) that stayed open 50 ms or more, when it ran
//! and the most memory resident while it was open. The peak's span is the
//! innermost one whose figure equals the whole proof's. With `warm` it
//! first proves once unobserved, so the timeline is a process's second
//! proof (`sigagg bench xmss-agg --warm`). Settings go by name
//! (`sigagg_xmss_agg::named`; fast when the name is unknown).
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-xmss-agg --example memory_timeline -- 8192 fast [warm]
//! SIGAGG_SET=lean-sig-prod RAYON_NUM_THREADS=2 cargo run --release -p sigagg-xmss-agg --example memory_timeline -- 8192 whir-skip
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::prove as aggregate;
use sigagg_xmss_agg::{AggregateEntry as Entry, AggregateStatement as Statement, Settings};
use tracing::span;
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;

/// The allocator of the CLI and the bindings, so that the figures are
/// theirs.
#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

const GIB: f64 = (1u64 << 30) as f64;

/// Resident memory samples, in time order.
type Samples = Arc<Mutex<Vec<(Instant, u64)>>>;

/// A `/proc/self/status` field in bytes (`VmRSS`, `VmHWM`).
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

/// When a span opened.
struct Opened(Instant);

/// Prints each long span with the peak of the samples taken while it was open.
struct Timeline {
    samples: Samples,
    origin: Instant,
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Timeline {
    fn on_new_span(&self, _attrs: &span::Attributes<'_>, id: &span::Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(Opened(Instant::now()));
        }
    }

    fn on_close(&self, id: span::Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        let Some(opened) = span.extensions().get::<Opened>().map(|o| o.0) else { return };
        let closed = Instant::now();
        if closed - opened < Duration::from_millis(50) {
            return;
        }
        let samples = self.samples.lock().expect("sampler alive");
        let window = samples.iter().filter(|(t, _)| (opened..=closed).contains(t));
        let peak = window.map(|&(_, rss)| rss).max().unwrap_or(0);
        let at = |t: Instant| (t - self.origin).as_secs_f64();
        println!("{:7.2}-{:7.2} s  {:5.2} GiB  {}", at(opened), at(closed), peak as f64 / GIB, span.name());
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(1024, |a| a.parse().expect("N"));
    let settings = args.next().and_then(|name| name.parse().ok()).map_or(Settings::FAST, sigagg_xmss_agg::settings);
    let warm = args.next().as_deref() == Some("warm");
    let message = *b"consensus message signed by all!";
    let prove: Box<dyn Fn()> = if std::env::var("SIGAGG_SET").is_ok_and(|s| s == "lean-sig-prod") {
        lean_sig_prod(n, message, settings)
    } else {
        let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
            .into_par_iter()
            .map(|_| {
                let (public_key, sig) =
                    single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), 1, &message).expect("signs");
                (Entry { public_key, epoch: 1, message }, sig)
            })
            .unzip();
        let statement = Statement::new(entries).expect("distinct keys");
        Box::new(move || drop(aggregate(&settings, &statement, &signatures).expect("valid signatures")))
    };
    if warm {
        prove();
    }

    let samples = Samples::default();
    let origin = Instant::now();
    tracing_subscriber::Registry::default()
        .with(tracing_subscriber::EnvFilter::new(std::env::var("SIGAGG_TRACE").unwrap_or("debug".into())))
        .with(Timeline { samples: samples.clone(), origin })
        .init();
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (samples, done) = (samples.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                samples.lock().expect("printer alive").push((Instant::now(), status_bytes("VmRSS")));
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    println!("  from-     to      peak   span (closing order: inner spans first)");
    prove();
    done.store(true, Ordering::Relaxed);
    sampler.join().expect("sampler");
    let proved = origin.elapsed().as_secs_f64();
    println!("proved N = {n} in {proved:.2} s; peak resident {:.2} GiB (VmHWM)", status_bytes("VmHWM") as f64 / GIB);
}

/// The proof of `n` LeanSigProd signatures (`SIGAGG_SET=lean-sig-prod`).
fn lean_sig_prod(n: usize, message: [u8; 32], settings: Settings) -> Box<dyn Fn()> {
    use sigagg_xmss::LeanSigProd;
    use sigagg_xmss_agg::leansig::aggregate as lean;
    let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
        .into_par_iter()
        .map(|_| {
            let (public_key, sig) =
                single_epoch_key_and_signature::<LeanSigProd, _>(&mut rand::rng(), 1, &message).expect("signs");
            (Entry { public_key, epoch: 1, message }, sig)
        })
        .unzip();
    let statement = Statement::from_entries(entries).expect("distinct keys");
    Box::new(move || drop(lean::prove(&settings, &statement, &signatures).expect("valid signatures")))
}
