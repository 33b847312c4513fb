/*
 * sigagg from C: XMSS keys and signatures, a Seed001 aggregate proof,
 * leanSpec's aggregate of a leanSig signature, a Lamport+ threshold
 * certificate, BLS, ATMS, a succinct BLS threshold certificate, a Mithril
 * STM certificate, and the error paths.
 *
 * Build (from the repository root, after `cargo build --release -p sigagg-ffi`):
 *   cc -Icrates/ffi/include crates/ffi/examples/demo.c target/release/libsigagg_ffi.a \
 *      -lpthread -ldl -lm -o demo && ./demo
 * crates/ffi/tests/c_example.rs does exactly this and compares the output
 * with demo.expected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sigagg.h"

/* Fails the demo unless `call` returns `want`; prints the error otherwise expected. */
#define EXPECT(call, want)                                                                   \
  do {                                                                                       \
    int32_t status_ = (call);                                                                \
    if (status_ != (want)) {                                                                 \
      fprintf(stderr, "%s:%d: %s returned %s (%s), expected %s\n", __FILE__, __LINE__, #call, \
              sigagg_status_name(status_), sigagg_last_error(), sigagg_status_name(want));   \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

#define OK(call) EXPECT(call, SIGAGG_OK)

static sigagg_slice view(const uint8_t *ptr, size_t len) {
  sigagg_slice s = {ptr, len};
  return s;
}

static sigagg_slice of(sigagg_bytes b) { return view(b.ptr, b.len); }

/* Prints the refusal of the last call: its status and message. */
static void refused(const char *what, int32_t status) {
  printf("%s: refused (%s): %s\n", what, sigagg_status_name(status), sigagg_last_error());
}

static void xmss(void) {
  uint8_t seed[SIGAGG_SEED_BYTES], message[32] = {0}, other[32] = {1};
  memset(seed, 7, sizeof seed);
  sigagg_bytes pk, sig, encoding;
  sigagg_xmss_secret_key *sk = NULL, *restored = NULL;
  OK(sigagg_xmss_keygen(SIGAGG_SCHEME_TEST, 0, 64, view(seed, sizeof seed), &pk, &sk));
  OK(sigagg_xmss_sign(sk, 3, view(message, 32), &sig));
  OK(sigagg_xmss_verify(SIGAGG_SCHEME_TEST, of(pk), 3, view(message, 32), of(sig)));
  printf("xmss: %zu-byte key, %zu-byte signature at epoch 3 verified\n", pk.len, sig.len);
  EXPECT(sigagg_xmss_verify(SIGAGG_SCHEME_TEST, of(pk), 3, view(other, 32), of(sig)), SIGAGG_ERR_VERIFY);
  printf("xmss: other message: %s\n", sigagg_status_name(SIGAGG_ERR_VERIFY));
  EXPECT(sigagg_xmss_verify(SIGAGG_SCHEME_TEST, of(pk), 4, view(message, 32), of(sig)), SIGAGG_ERR_VERIFY);
  printf("xmss: other epoch: %s\n", sigagg_status_name(SIGAGG_ERR_VERIFY));
  int32_t status = sigagg_xmss_verify(SIGAGG_SCHEME_TEST, of(pk), 3, view(message, 32), view(sig.ptr, sig.len - 1));
  refused("xmss: truncated signature", status);
  status = sigagg_xmss_sign(sk, 3, view(message, 32), &sig);
  refused("xmss: epoch 3 again", status);

  /* The state travels with the encoding. */
  uint64_t next = 0;
  OK(sigagg_xmss_secret_key_to_bytes(sk, &encoding));
  OK(sigagg_xmss_secret_key_from_bytes(SIGAGG_SCHEME_TEST, of(encoding), &restored));
  OK(sigagg_xmss_secret_key_next_usable_epoch(restored, &next));
  printf("xmss: restored key's next usable epoch: %llu\n", (unsigned long long)next);
  sigagg_bytes_free(encoding);
  sigagg_xmss_secret_key_free(restored);
  sigagg_xmss_secret_key_free(sk);
  sigagg_bytes_free(sig);
  sigagg_bytes_free(pk);
}

static void seed001_aggregate(void) {
  enum { N = 2 };
  uint8_t message[32];
  memset(message, 0x42, sizeof message);
  uint32_t epoch = 5;
  sigagg_bytes pks[N], sigs[N], proof;
  sigagg_slice pk_views[N], sig_views[N], msg = view(message, 32);
  for (int i = 0; i < N; i++) {
    uint8_t seed[SIGAGG_SEED_BYTES];
    memset(seed, i + 1, sizeof seed);
    sigagg_xmss_secret_key *sk = NULL;
    OK(sigagg_xmss_keygen(SIGAGG_SCHEME_SEED001, 0, 1, view(seed, sizeof seed), &pks[i], &sk));
    OK(sigagg_xmss_sign(sk, epoch, msg, &sigs[i]));
    sigagg_xmss_secret_key_free(sk);
    pk_views[i] = of(pks[i]);
    sig_views[i] = of(sigs[i]);
  }
  /* One message and one epoch for every entry. */
  sigagg_aggregate_statement statement = {pk_views, N, &msg, 1, &epoch, 1};
  OK(sigagg_aggregate(SIGAGG_SCHEME_SEED001, SIGAGG_SETTINGS_TEST, &statement, sig_views, N, &proof));
  OK(sigagg_verify_aggregate(SIGAGG_SCHEME_SEED001, SIGAGG_SETTINGS_TEST, &statement, of(proof)));
  printf("seed001: aggregate proof of %d signatures verified\n", N);
  uint32_t later = 6;
  sigagg_aggregate_statement moved = {pk_views, N, &msg, 1, &later, 1};
  EXPECT(sigagg_verify_aggregate(SIGAGG_SCHEME_SEED001, SIGAGG_SETTINGS_TEST, &moved, of(proof)), SIGAGG_ERR_VERIFY);
  printf("seed001: the proof for epoch 6: %s\n", sigagg_status_name(SIGAGG_ERR_VERIFY));
  int32_t status = sigagg_verify_aggregate(SIGAGG_SCHEME_SEED001, SIGAGG_SETTINGS_FAST, &statement, of(proof));
  refused("seed001: verified under other settings", status);
  sigagg_bytes_free(proof);
  for (int i = 0; i < N; i++) {
    sigagg_bytes_free(pks[i]);
    sigagg_bytes_free(sigs[i]);
  }
}

static void lamport_threshold(void) {
  enum { N = 3 };
  const uint8_t message[] = "block 7";
  sigagg_slice msg = view(message, sizeof message - 1);
  sigagg_bytes pks[N], group, sigs[N], proof;
  sigagg_slice pk_views[N];
  sigagg_lamport_secret_key *sks[N];
  for (int i = 0; i < N; i++) {
    uint8_t seed[SIGAGG_SEED_BYTES];
    memset(seed, 0x20 + i, sizeof seed);
    OK(sigagg_lamport_keygen(SIGAGG_SCHEME_LAMPORT_PLUS, view(seed, sizeof seed), &pks[i], &sks[i]));
    pk_views[i] = of(pks[i]);
  }
  sigagg_bytes_list *paths = NULL;
  OK(sigagg_group(SIGAGG_SCHEME_LAMPORT_PLUS, pk_views, N, &group, &paths));
  printf("lamport+: group key of %zu bytes, %zu membership paths\n", group.len, sigagg_bytes_list_len(paths));
  /* Members 2 and 0 sign. */
  sigagg_signer signers[2];
  int members[2] = {2, 0};
  for (int j = 0; j < 2; j++) {
    int i = members[j];
    OK(sigagg_lamport_sign(sks[i], msg, &sigs[j]));
    sigagg_signer s = {pk_views[i], of(sigs[j]), sigagg_bytes_list_get(paths, i)};
    signers[j] = s;
  }
  sigagg_threshold_statement statement = {of(group), 2, msg, NULL};
  OK(sigagg_prove_threshold(SIGAGG_SCHEME_LAMPORT_PLUS, SIGAGG_SETTINGS_TEST, &statement, signers, 2, true, &proof));
  sigagg_certificate *cert = NULL;
  OK(sigagg_verify_threshold(SIGAGG_SCHEME_LAMPORT_PLUS, SIGAGG_SETTINGS_TEST, &statement, of(proof), &cert));
  const uint32_t *indices = NULL;
  size_t count = 0;
  if (!sigagg_certificate_signers(cert, &indices, &count) || count != 2) exit(1);
  printf("lamport+: certificate: %u signers, members %u and %u\n", sigagg_certificate_count(cert), indices[0],
         indices[1]);
  sigagg_certificate_free(cert);
  sigagg_threshold_statement higher = {of(group), 3, msg, NULL};
  EXPECT(sigagg_verify_threshold(SIGAGG_SCHEME_LAMPORT_PLUS, SIGAGG_SETTINGS_TEST, &higher, of(proof), NULL),
         SIGAGG_ERR_VERIFY);
  printf("lamport+: the proof against threshold 3: %s\n", sigagg_status_name(SIGAGG_ERR_VERIFY));
  int32_t status = sigagg_lamport_sign(sks[0], view((const uint8_t *)"block 8", 7), &sigs[0]);
  refused("lamport+: a second message", status);
  sigagg_bytes_free(proof);
  sigagg_bytes_list_free(paths);
  sigagg_bytes_free(group);
  for (int j = 0; j < 2; j++) sigagg_bytes_free(sigs[j]);
  for (int i = 0; i < N; i++) {
    sigagg_lamport_secret_key_free(sks[i]);
    sigagg_bytes_free(pks[i]);
  }
}

static void bls_and_atms(void) {
  enum { N = 3 };
  uint8_t sk[N][SIGAGG_BLS_SECRET_KEY_BYTES], pk[N][SIGAGG_BLS_PUBLIC_KEY_BYTES];
  uint8_t sig[N][SIGAGG_BLS_SIGNATURE_BYTES], pop[N][SIGAGG_BLS_SIGNATURE_BYTES];
  uint8_t agg[SIGAGG_BLS_SIGNATURE_BYTES], avk[SIGAGG_ATMS_AGGREGATE_KEY_BYTES];
  sigagg_slice pks[N], pops[N], sigs[N];
  const uint8_t message[] = "attestation";
  sigagg_slice msg = view(message, sizeof message - 1);
  for (int i = 0; i < N; i++) {
    uint8_t ikm[32];
    memset(ikm, 0x30 + i, sizeof ikm);
    OK(sigagg_bls_keygen(view(ikm, sizeof ikm), sk[i], pk[i]));
    OK(sigagg_bls_sign(view(sk[i], 32), msg, sig[i]));
    OK(sigagg_bls_prove_possession(view(sk[i], 32), pop[i]));
    pks[i] = view(pk[i], 48);
    pops[i] = view(pop[i], 96);
    sigs[i] = view(sig[i], 96);
  }
  OK(sigagg_bls_verify(pks[0], msg, sigs[0]));
  OK(sigagg_bls_aggregate(sigs, N, agg));
  OK(sigagg_bls_fast_aggregate_verify(pks, pops, N, msg, view(agg, 96)));
  printf("bls: aggregate of %d signatures verified with proofs of possession\n", N);
  EXPECT(sigagg_bls_fast_aggregate_verify(pks, pops, N - 1, msg, view(agg, 96)), SIGAGG_ERR_VERIFY);
  printf("bls: the aggregate without one signer: %s\n", sigagg_status_name(SIGAGG_ERR_VERIFY));

  OK(sigagg_atms_aggregate_key(pks, pops, N, avk));
  uint32_t signer_indices[2] = {0, 2};
  sigagg_slice signer_sigs[2] = {sigs[0], sigs[2]};
  sigagg_bytes atms;
  OK(sigagg_atms_sign(2, msg, pks, N, signer_indices, signer_sigs, 2, &atms));
  OK(sigagg_atms_verify(2, msg, view(avk, sizeof avk), of(atms)));
  printf("atms: 2-of-%d signature verified\n", N);
  EXPECT(sigagg_atms_verify(3, msg, view(avk, sizeof avk), of(atms)), SIGAGG_ERR_VERIFY);
  printf("atms: against threshold 3: %s\n", sigagg_status_name(SIGAGG_ERR_VERIFY));
  sigagg_bytes_free(atms);

  /* A succinct certificate: a one-party setup ceremony (real entropy: 64
   * bytes from the operating system), the committee, a 2-of-3 certificate
   * whose verifier holds only the committee key. */
  uint8_t entropy[64];
  memset(entropy, 0x5c, sizeof entropy);
  sigagg_bytes start, setup, committee, committee_key, cert, signers;
  size_t contributions = 0;
  OK(sigagg_cert_ceremony_start(N, &start));
  OK(sigagg_cert_contribute(of(start), view(entropy, sizeof entropy), &setup));
  OK(sigagg_cert_verify_ceremony(of(setup), &contributions));
  OK(sigagg_cert_committee(of(setup), pks, pops, N, NULL, &committee, &committee_key));
  OK(sigagg_cert_certify(of(setup), of(committee), msg, signer_indices, signer_sigs, 2, true, &cert));
  sigagg_cert_info info;
  OK(sigagg_cert_verify(of(committee_key), of(cert), msg, 2, NULL, false, &info, &signers));
  printf("certificate: %zu contribution, %llu of %d members signed (bitfield 0x%02x); %zu-byte committee key, %zu-byte certificate\n",
         contributions, (unsigned long long)info.count, N, signers.ptr[0], committee_key.len, cert.len);
  EXPECT(sigagg_cert_verify(of(committee_key), of(cert), msg, 3, NULL, false, &info, NULL), SIGAGG_ERR_VERIFY);
  printf("certificate: against threshold 3: %s\n", sigagg_status_name(SIGAGG_ERR_VERIFY));
  sigagg_bytes_free(start);
  sigagg_bytes_free(setup);
  sigagg_bytes_free(committee);
  sigagg_bytes_free(committee_key);
  sigagg_bytes_free(cert);
  sigagg_bytes_free(signers);
}

/* Mithril STM: four parties with stakes 10..40, each signing where the
 * lottery lets it, the clerk's certificate and its verification against
 * the aggregate verification key alone. */
static void mithril(void) {
  enum { N = 4 };
  uint8_t sk[N][SIGAGG_MITHRIL_SIGNING_KEY_BYTES], key[N][SIGAGG_MITHRIL_KEY_BYTES];
  sigagg_slice keys[N], sigs[N];
  sigagg_bytes sig[N];
  const uint64_t stakes[N] = {10, 20, 30, 40};
  const uint8_t message[] = "snapshot 12";
  sigagg_slice msg = view(message, sizeof message - 1);
  sigagg_bytes params, registration, avk, cert;
  OK(sigagg_mithril_parameters(5, 40, 0.9, &params));
  for (int i = 0; i < N; i++) {
    uint8_t seed[32];
    memset(seed, 0x60 + i, sizeof seed);
    OK(sigagg_mithril_keygen(view(seed, sizeof seed), sk[i], key[i]));
    keys[i] = view(key[i], SIGAGG_MITHRIL_KEY_BYTES);
  }
  OK(sigagg_mithril_register(keys, stakes, N, &registration, &avk));
  int signed_count = 0;
  for (int i = 0; i < N; i++) {
    bool won = false;
    OK(sigagg_mithril_sign(of(params), of(registration), view(sk[i], 32), msg, &sig[i], &won));
    if (won) sigs[signed_count++] = of(sig[i]);
  }
  OK(sigagg_mithril_aggregate(of(params), of(registration), msg, sigs, signed_count, &cert));
  sigagg_mithril_info info;
  OK(sigagg_mithril_verify(of(params), of(avk), msg, of(cert), &info));
  printf("mithril: %d of %d parties won; certificate of %llu signatures, %llu indices, %zu bytes verified\n",
         signed_count, N, (unsigned long long)info.signatures, (unsigned long long)info.indices, cert.len);
  const uint8_t other[] = "snapshot 13";
  EXPECT(sigagg_mithril_verify(of(params), of(avk), view(other, sizeof other - 1), of(cert), NULL), SIGAGG_ERR_VERIFY);
  printf("mithril: another message: %s\n", sigagg_status_name(SIGAGG_ERR_VERIFY));
  for (int i = 0; i < N; i++) sigagg_bytes_free(sig[i]);
  sigagg_bytes_free(params);
  sigagg_bytes_free(registration);
  sigagg_bytes_free(avk);
  sigagg_bytes_free(cert);
}

/* leanSpec's aggregation: a leanSig production key (one of the 2^32
 * slots it can sign, widened to its two bottom trees of 2^16: seconds),
 * its signature of a 32-byte message at one slot, the SSZ container
 * `AggregatedSignatureProof` proven under the clients' default
 * whir-skip, checked against the participants' keys, and refused for
 * another slot and a participants bitlist that does not match. */
static void leansig(void) {
  const uint32_t slot = 1234;
  uint8_t seed[SIGAGG_SEED_BYTES], message[32];
  memset(seed, 0x2b, sizeof seed);
  memset(message, 0x5a, sizeof message);
  sigagg_bytes pk, sig, container;
  sigagg_xmss_secret_key *sk = NULL;
  OK(sigagg_xmss_keygen(SIGAGG_SCHEME_LEANSIG_PROD, slot, 1, view(seed, sizeof seed), &pk, &sk));
  OK(sigagg_xmss_sign(sk, slot, view(message, 32), &sig));
  sigagg_xmss_secret_key_free(sk);
  sigagg_slice pks[1] = {of(pk)}, sigs[1] = {of(sig)}, all = view(NULL, 0);
  OK(sigagg_lean_aggregate(SIGAGG_SETTINGS_WHIR_SKIP, all, pks, 1, sigs, 1, view(message, 32), slot, &container));
  OK(sigagg_lean_verify(SIGAGG_SETTINGS_WHIR_SKIP, of(container), pks, 1, view(message, 32), slot));
  printf("leansig: %zu-byte key, %zu-byte signature; AggregatedSignatureProof verified\n", pk.len, sig.len);
  EXPECT(sigagg_lean_verify(SIGAGG_SETTINGS_WHIR_SKIP, of(container), pks, 1, view(message, 32), slot + 1),
         SIGAGG_ERR_VERIFY);
  printf("leansig: the container at slot %u: %s\n", slot + 1, sigagg_status_name(SIGAGG_ERR_VERIFY));
  /* Two participant bits for one key: the bitlist 0b111 (two bits and its end marker). */
  const uint8_t two_bits[1] = {0x07};
  sigagg_bytes unused = {NULL, 0};
  int32_t status = sigagg_lean_aggregate(SIGAGG_SETTINGS_WHIR_SKIP, view(two_bits, 1), pks, 1, sigs, 1,
                                         view(message, 32), slot, &unused);
  refused("leansig: two participants for one key", status);
  sigagg_bytes_free(container);
  sigagg_bytes_free(sig);
  sigagg_bytes_free(pk);
}

static void misuse(void) {
  uint8_t message[32] = {0};
  int32_t status = sigagg_xmss_verify(SIGAGG_SCHEME_TEST, view(NULL, 5), 0, view(message, 32), view(message, 32));
  refused("misuse: null pointer", status);
  status = sigagg_xmss_verify(42, view(message, 32), 0, view(message, 32), view(message, 32));
  refused("misuse: scheme 42", status);
  status = sigagg_lamport_keygen(SIGAGG_SCHEME_SEED001, view(NULL, 0), NULL, NULL);
  refused("misuse: no output slots", status);
  /* Free functions take NULL. */
  sigagg_xmss_secret_key_free(NULL);
  sigagg_certificate_free(NULL);
  sigagg_bytes_list_free(NULL);
  sigagg_bytes none = {NULL, 0};
  sigagg_bytes_free(none);
}

int main(void) {
  xmss();
  seed001_aggregate();
  leansig();
  lamport_threshold();
  bls_and_atms();
  mithril();
  misuse();
  printf("done\n");
  return 0;
}
