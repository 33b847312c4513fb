#!/usr/bin/env python3
"""Independent reference for sigagg-mithril's Poseidon instance over BLS12-381's
base field Fq and for the SNARK-friendly lottery built on it.

Plain Python 3 integers only (no sage, no third-party packages). Written from the
Poseidon paper (eprint 2019/458) and the description of the reference parameter
script `generate_params_poseidon.sage` / `generate_parameters_grain.sage`:

* round numbers: the paper's inequalities (statistical, interpolation, three
  Groebner-basis bounds, and the 2023/537 binomial bound), security margin
  R_F + 2 and ceil(1.075 R_P), minimising t*R_F + R_P;
* Grain LFSR: 80-bit state initialised with field (2 bits), S-box (4), n (12),
  t (12), R_F (10), R_P (10) and thirty 1s; 160 discarded clocks; then bit pairs
  (b1, b2) output b2 when b1 = 1; n-bit integers most significant bit first;
* round constants: (R_F + R_P) * t integers, each redrawn while >= p;
* MDS: Cauchy matrix 1/(x_i + y_j) with x_1..x_t, y_1..y_t drawn as n-bit
  integers reduced mod p (redrawn on duplicates or a zero x_i + y_j), and
  redrawn while the script's algorithms 1-3 flag it (invariant subspace trails);
* permutation: R_F/2 full rounds, R_P partial rounds, R_F/2 full rounds; each
  round adds t constants, applies x^alpha (to all cells, or to cell 0 in a
  partial round), then multiplies by the MDS matrix (state <- M * state).

Usage: poseidon_ref.py [--check] [--out PATH]
  (the vectors: python3 scripts/poseidon_ref.py --check --out tests/vectors/poseidon_bls12_381_fq.json)
  --check  also recompute published instances on other fields (the reference
           script's BN254 and BLS12-381 Fr x^5, t = 3, R_F = 8, R_P = 57, and
           halo2's Pallas P128Pow5T3, R_P = 56) and compare with their
           published permutation of (0, 1, 2).
"""
import hashlib
import json
import math
import sys
from fractions import Fraction

Q = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
FR = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
BN254 = 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001
PALLAS = 0x40000000000000000000000000000000224698FC094CF91B992D30ED00000001


# ---------------------------------------------------------------- round numbers
def smallest_alpha(p):
    a = 3
    while math.gcd(a, p - 1) != 1:
        a += 1
    return a


def secure(p, t, rf, rp, alpha, m):
    n = p.bit_length()
    lp = math.log(p, 2)
    statistical = 6 if m <= math.floor(lp - (alpha - 1) / 2.0) * (t + 1) else 10
    interpolation = 1 + math.ceil(math.log(2, alpha) * min(m, n)) + math.ceil(math.log(t, alpha)) - rp
    groebner1 = math.log(2, alpha) * min(m, lp) - rp
    groebner2 = t - 1 + math.log(2, alpha) * min(m / (t + 1), lp / 2) - rp
    groebner3 = (t - 2 + m / (2 * math.log(alpha, 2)) - rp) / (t - 1)
    rf_min = max(math.ceil(x) for x in (statistical, interpolation, groebner1, groebner2, groebner3))
    # eprint 2023/537 (as in the reference script; rf is even so rf/2 is exact)
    r = t // 3
    over = (rf - 1) * t + rp + r + r * rf // 2 + rp + alpha
    under = r * rf // 2 + rp + alpha
    b = math.comb(over, under)
    # ceil(2 log2 b) >= m  <=>  2 log2 b > m - 1  <=>  b^2 > 2^(m-1)
    return rf >= rf_min and b * b > 2 ** (m - 1)


def round_numbers(p, t, alpha, m=128):
    best, best_cost = None, None
    for rp in range(1, 500):
        for rf in range(4, 100, 2):
            if secure(p, t, rf, rp, alpha, m):
                rf2, rp2 = rf + 2, -(-rp * 1075 // 1000)  # ceil(1.075 rp), exactly
                cost = t * rf2 + rp2
                if best is None or cost < best_cost or (cost == best_cost and rf2 < best[0]):
                    best, best_cost = (rf2, rp2), cost
    return best


# ---------------------------------------------------------------- Grain LFSR
class Grain:
    def __init__(self, field, sbox, n, t, rf, rp):
        bits = []
        for value, width in ((field, 2), (sbox, 4), (n, 12), (t, 12), (rf, 10), (rp, 10)):
            bits += [(value >> (width - 1 - i)) & 1 for i in range(width)]
        bits += [1] * 30
        assert len(bits) == 80
        self.s = bits
        for _ in range(160):
            self._clock()

    def _clock(self):
        s = self.s
        b = s[62] ^ s[51] ^ s[38] ^ s[23] ^ s[13] ^ s[0]
        s.pop(0)
        s.append(b)
        return b

    def bit(self):
        while True:
            first = self._clock()
            second = self._clock()
            if first == 1:
                return second

    def integer(self, n):
        v = 0
        for _ in range(n):
            v = (v << 1) | self.bit()
        return v


# ---------------------------------------------------------------- linear algebra mod p
def inv(a, p):
    return pow(a % p, p - 2, p)


def matmul(a, b, p):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) % p for j in range(len(b[0]))] for i in range(len(a))]


def matvec(a, v, p):
    return [sum(a[i][k] * v[k] for k in range(len(v))) % p for i in range(len(a))]


def matpow(a, e, p):
    r = [[int(i == j) for j in range(len(a))] for i in range(len(a))]
    for _ in range(e):
        r = matmul(r, a, p)
    return r


def rref(rows, p):
    """Row-reduced echelon basis of the span of rows (list of lists)."""
    m = [list(r) for r in rows]
    basis, col = [], 0
    ncols = len(m[0]) if m else 0
    r = 0
    for col in range(ncols):
        piv = next((i for i in range(r, len(m)) if m[i][col] % p), None)
        if piv is None:
            continue
        m[r], m[piv] = m[piv], m[r]
        iv = inv(m[r][col], p)
        m[r] = [x * iv % p for x in m[r]]
        for i in range(len(m)):
            if i != r and m[i][col] % p:
                f = m[i][col]
                m[i] = [(x - f * y) % p for x, y in zip(m[i], m[r])]
        r += 1
    return [row for row in m[:r]]


def rank(rows, p):
    return len(rref(rows, p)) if rows else 0


def kernel(rows, ncols, p):
    """Basis of {x : A x = 0} for A given by rows."""
    if not rows:
        return [[int(i == j) for j in range(ncols)] for i in range(ncols)]
    red = rref(rows, p)
    pivots = []
    for row in red:
        pivots.append(next(j for j in range(ncols) if row[j]))
    free = [j for j in range(ncols) if j not in pivots]
    out = []
    for f in free:
        x = [0] * ncols
        x[f] = 1
        for row, pc in zip(red, pivots):
            x[pc] = (-row[f]) % p
        out.append(x)
    return out


def same_space(a, b, p):
    ra, rb = rank(a, p), rank(b, p)
    return ra == rb and rank(a + b, p) == ra


def poly_mulmod(a, b, f, p):
    """Polynomials as coefficient lists, lowest degree first; f monic."""
    prod = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            prod[i + j] = (prod[i + j] + x * y) % p
    d = len(f) - 1
    for k in range(len(prod) - 1, d - 1, -1):
        c = prod[k]
        if c:
            for i in range(d + 1):
                prod[k - d + i] = (prod[k - d + i] - c * f[i]) % p
    return (prod[:d] + [0] * d)[:d]


def poly_trim(a):
    while a and a[-1] == 0:
        a = a[:-1]
    return a


def poly_gcd(a, b, p):
    a, b = poly_trim(a), poly_trim(b)
    while b:
        # a mod b
        a = list(a)
        while len(a) >= len(b):
            c = a[-1] * inv(b[-1], p) % p
            s = len(a) - len(b)
            for i in range(len(b)):
                a[s + i] = (a[s + i] - c * b[i]) % p
            a = poly_trim(a)
            if not a:
                break
        a, b = b, a
    return a


def has_root(f, p):
    """Whether the monic f (deg >= 1) has a root in F_p: gcd(x^p - x, f) != 1."""
    d = len(f) - 1
    if d == 1:
        return True
    xp, base, e = [1] + [0] * (d - 1), [0, 1] + [0] * (d - 2), p
    while e:
        if e & 1:
            xp = poly_mulmod(xp, base, f, p)
        base = poly_mulmod(base, base, f, p)
        e >>= 1
    xp[1] = (xp[1] - 1) % p
    return len(poly_trim(poly_gcd(f, xp, p))) > 1


def charpoly(a, p):
    """Monic characteristic polynomial (Faddeev-LeVerrier), lowest degree first."""
    k = len(a)
    c = [0] * (k + 1)
    c[k] = 1
    mk = [[0] * k for _ in range(k)]
    for i in range(1, k + 1):
        mk = [[(x + (c[k - i + 1] if r == s else 0)) % p for s, x in enumerate(row)] for r, row in enumerate(matmul(a, mk, p))]
        am = matmul(a, mk, p)
        c[k - i] = (-sum(am[j][j] for j in range(k)) * inv(i, p)) % p
    return c


def eigenvector_in(space, a, p):
    """Whether some v != 0 in span(space) has A v = lambda v with lambda in F_p."""
    t = len(a)
    w = rref(space, p)
    while w:
        # W' = {v in W : A v in W}; v = sum c_j w_j
        ann = kernel(w, t, p)  # functionals vanishing on W
        images = [matvec(a, b, p) for b in w]
        cond = [[sum(f[i] * img[i] for i in range(t)) % p for img in images] for f in ann]
        cs = kernel(cond, len(w), p)
        new = rref([[sum(c[j] * w[j][i] for j in range(len(w))) % p for i in range(t)] for c in cs], p) if cs else []
        if len(new) == len(w):
            break
        w = new
    if not w:
        return False
    # A restricted to the invariant W, in the basis w: solve A w_j = sum R[i][j] w_i
    k = len(w)
    r = [[0] * k for _ in range(k)]
    for j, b in enumerate(w):
        img = matvec(a, b, p)
        # w is in RREF: the coordinate on w_i is img at w_i's pivot column
        for i, row in enumerate(w):
            pc = next(c for c in range(t) if row[c])
            r[i][j] = img[pc]
    return has_root(charpoly(r, p), p)


def algorithm_1(m, p):
    t = len(m)
    for i in range(1, t):  # r = t - 1 for s = 1
        mi = matpow(m, i, p)
        e = mi[0][0]
        if all(mi[r][c] == (e if r == c else 0) for r in range(t) for c in range(t)):
            return False
        if i == 1:
            s = [[int(j == k) for j in range(t)] for k in range(1, t)]
        else:
            rows = [matpow(m, k, p)[0][1:] for k in range(1, i)]
            s = [[0] + v for v in kernel(rows, t - 1, p)]
        if eigenvector_in(s, mi, p):
            return False
        for j in range(1, i + 1):
            mj = matpow(m, j, p)
            if same_space(s, [matvec(mj, v, p) for v in s], p):
                return False
    return True


def algorithm_2(m, p):
    t = len(m)
    space = [[int(j == 0) for j in range(t)]]
    v = space[0]
    while True:
        d = rank(space, p)
        v = matvec(m, v, p)
        space = space + [v]
        nd = rank(space, p)
        if nd == t:
            return True
        if nd <= d:
            return False


def algorithm_3(m, p):
    t = len(m)
    return all(algorithm_2(matpow(m, r, p), p) for r in range(2, 4 * t + 1))


def mds(grain, n, t, p):
    while True:
        xs = [grain.integer(n) % p for _ in range(2 * t)]
        while len(set(xs)) != 2 * t:
            xs = [grain.integer(n) % p for _ in range(2 * t)]
        x, y = xs[:t], xs[t:]
        if any((a + b) % p == 0 for a in x for b in y):
            continue
        m = [[inv(a + b, p) for b in y] for a in x]
        if algorithm_1(m, p) and algorithm_2(m, p) and algorithm_3(m, p):
            return m


def generate(p, t, rf, rp, sbox=0):
    n = p.bit_length()
    g = Grain(1, sbox, n, t, rf, rp)
    rc = []
    for _ in range((rf + rp) * t):
        v = g.integer(n)
        while v >= p:
            v = g.integer(n)
        rc.append(v)
    return rc, mds(g, n, t, p)


def permute(state, p, t, alpha, rf, rp, rc, m):
    s = list(state)
    k = 0
    for r in range(rf + rp):
        s = [(x + rc[k + i]) % p for i, x in enumerate(s)]
        k += t
        if r < rf // 2 or r >= rf // 2 + rp:
            s = [pow(x, alpha, p) for x in s]
        else:
            s[0] = pow(s[0], alpha, p)
        s = matvec(m, s, p)
    return s


# ---------------------------------------------------------------- the lottery
PREFIX_TAG = b"sigagg-mithril-lottery-prefix-v1"
CAPACITY_TAG = b"sigagg-mithril-lottery-v1"


def prefix(msgp):
    """Blake2b-512(PREFIX_TAG || msgp), little-endian, mod q."""
    d = hashlib.blake2b(PREFIX_TAG + msgp, digest_size=64).digest()
    return int.from_bytes(d, "little") % Q


def capacity(j):
    return int.from_bytes(CAPACITY_TAG, "big") * 2**64 + j


def ev(inst, pre, x, j):
    rc, m, rf, rp = inst
    return permute([capacity(j), pre, x], Q, 3, 5, rf, rp, rc, m)[1]


def top64(e):
    return e * 2**64 // Q


def bound(t):
    return -(-t * Q // 2**64)


def target(stake, total, phi_f):
    """floor(2^64 (1 - exp(w c))) with c the exact value of the f64 ln(1 - phi_f),
    by Decimal arithmetic at 200 digits (correctly rounded exp), independent of
    the Rust code's exact-rational series."""
    from decimal import Decimal, getcontext

    getcontext().prec = 200
    c = Fraction(math.log(1.0 - phi_f))
    x = Fraction(stake, total) * c
    e = (Decimal(x.numerator) / Decimal(x.denominator)).exp()
    v = (1 - e) * (Decimal(2) ** 64)
    t = int(v)  # floor for v >= 0
    assert v - t > Decimal(10) ** -100 or stake == 0, "too close to an integer to decide"
    return t


# G1 arithmetic (affine, y^2 = x^3 + 4), only to make compressed encodings of known points
G1X = 0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB
G1Y = 0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1


def g1_add(a, b):
    if a is None:
        return b
    (x1, y1), (x2, y2) = a, b
    if x1 == x2 and (y1 + y2) % Q == 0:
        return None
    if a == b:
        lam = 3 * x1 * x1 * inv(2 * y1, Q) % Q
    else:
        lam = (y2 - y1) * inv(x2 - x1, Q) % Q
    x3 = (lam * lam - x1 - x2) % Q
    return (x3, (lam * (x1 - x3) - y1) % Q)


def g1_compress(pt):
    x, y = pt
    flags = 0x80 | (0x20 if y > (Q - 1) // 2 else 0)
    b = bytearray(x.to_bytes(48, "big"))
    b[0] |= flags
    return bytes(b)


def vectors(inst, alpha):
    rc, m, rf, rp = inst
    h = lambda i: int.from_bytes(hashlib.blake2b(b"kat" + bytes([i]), digest_size=64).digest(), "big") % Q
    perm_inputs = [[0, 1, 2], [Q - 1, Q - 2, Q - 3], [h(0), h(1), h(2)], [h(3), h(4), h(5)]]
    out = {
        "field_modulus": hex(Q),
        "width": 3,
        "alpha": alpha,
        "full_rounds": rf,
        "partial_rounds": rp,
        "security_bits": 128,
        "round_constants": [hex(x) for x in rc],
        "mds": [[hex(x) for x in row] for row in m],
        "permutations": [
            {"input": [hex(x) for x in i], "output": [hex(x) for x in permute(i, Q, 3, alpha, rf, rp, rc, m)]}
            for i in perm_inputs
        ],
    }
    msgps = [b"", b"msg", bytes(range(64)) + b"root"]
    out["prefixes"] = [{"msgp": mp.hex(), "prefix": hex(prefix(mp))} for mp in msgps]
    pts, acc = [], None
    for k in range(1, 6):
        acc = g1_add(acc, (G1X, G1Y))
        pts.append({"k": k, "compressed": g1_compress(acc).hex(), "x": hex(acc[0])})
    out["sigma_x"] = pts
    evs = []
    for (mp, x, j) in [(b"msg", G1X, 0), (b"msg", G1X, 1), (b"msg", pts[1]["x"], 0), (b"other", G1X, 0),
                       (b"msg", G1X, 2**64 - 1), (b"", 0, 16947)]:
        xi = int(x, 16) if isinstance(x, str) else x
        e = ev(inst, prefix(mp), xi, j)
        evs.append({"msgp": mp.hex(), "sigma_x": hex(xi), "index": j, "ev": hex(e), "top64": top64(e)})
    out["evs"] = evs
    targets = []
    for (s, tot, phi) in [(0, 10, 0.2), (1, 1, 0.2), (1, 2, 0.2), (1, 3, 0.2), (123456, 10**9, 0.2),
                          (1, 37 * 10**15, 0.2), (7, 10, 0.05), (5, 7, 0.8), (2**63, 2**64 - 1, 0.5)]:
        t = target(s, tot, phi)
        targets.append({"stake": s, "total": tot, "phi_f": phi, "target": t, "bound": hex(bound(t))})
    out["targets"] = targets
    # the first indices a signer (sigma = 2G, msgp = b"msg") wins at phi_f = 0.2, w = 1/2
    t = target(1, 2, 0.2)
    won = [j for j in range(64) if top64(ev(inst, prefix(b"msg"), int(pts[1]["x"], 16), j)) < t]
    out["won"] = {"msgp": b"msg".hex(), "sigma_x": pts[1]["x"], "target": t, "m": 64, "indices": won}
    # Tiny fields where the MDS checks refuse a candidate (151: algorithm 2,
    # 167: algorithm 3), so that the rejection path is compared too.
    small = []
    for p in (151, 167):
        a = smallest_alpha(p)
        rc2, m2 = generate(p, 3, 8, 56)
        small.append({"p": p, "alpha": a, "round_constants_head": rc2[:6], "mds": m2,
                      "perm_012": permute([0, 1, 2], p, 3, a, 8, 56, rc2, m2)})
    out["small_fields"] = small
    return out


def main(argv):
    alpha = smallest_alpha(Q)
    rf, rp = round_numbers(Q, 3, alpha)
    rc, m = generate(Q, 3, rf, rp)
    print("alpha", alpha, "R_F", rf, "R_P", rp)
    print("rc[0]", hex(rc[0]), "rc[-1]", hex(rc[-1]))
    if "--check" in argv:
        for name, p, rp2, want in (
            ("BN254 x5_254_3", BN254, 57, 0x115CC0F5E7D690413DF64C6B9662E9CF2A3617F2743245519E19607A4417189A),
            ("BLS12-381 Fr x5_255_3", FR, 57, 0x28CE19420FC246A05553AD1E8C98F5C9D67166BE2C18E9E4CB4B4E317DD2A78A),
            ("halo2 Pallas P128Pow5T3", PALLAS, 56, 0x2A526ACD0B64B45394EFB364F966240FF7E69A71D0B642A0AEB1BC024AECA456),
        ):
            rc2, m2 = generate(p, 3, 8, rp2)
            got = permute([0, 1, 2], p, 3, 5, 8, rp2, rc2, m2)
            print(name, hex(got[0]), "matches the published vector" if got[0] == want else "MISMATCH")
            assert got[0] == want
    if "--out" in argv:
        path = argv[argv.index("--out") + 1]
        with open(path, "w") as f:
            json.dump(vectors((rc, m, rf, rp), alpha), f, indent=1)
            f.write("\n")
        print("wrote", path)


if __name__ == "__main__":
    main(sys.argv[1:])
