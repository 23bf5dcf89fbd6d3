# Expected values of the stability catalogue, computed from the formulas as printed in
# stabm's documentation (Bommert & Lang 2021) and OmicsMarkeR, on Python sets, written
# independently of the Go code. Run: /usr/bin/python3 catalogue_by_hand.py
from itertools import combinations
from math import sqrt, log2

def pairwise(sets, p):
    out = {}
    pairs = list(combinations(sets, 2))
    def mean(f):
        return sum(f(a, b) for a, b in pairs) / len(pairs)
    I = lambda a, b: len(a & b)
    out["dice"] = mean(lambda a, b: 2 * I(a, b) / (len(a) + len(b)))
    out["jaccard"] = mean(lambda a, b: I(a, b) / len(a | b))
    out["hamming"] = mean(lambda a, b: (I(a, b) + (p - len(a | b))) / p)
    out["kappa"] = mean(lambda a, b: (I(a, b) - len(a) * len(b) / p) / ((len(a) + len(b)) / 2 - len(a) * len(b) / p))
    out["lustgarten"] = mean(lambda a, b: (I(a, b) - len(a) * len(b) / p) / (min(len(a), len(b)) - max(0, len(a) + len(b) - p)))
    out["ochiai"] = mean(lambda a, b: I(a, b) / sqrt(len(a) * len(b)))
    out["phi"] = mean(lambda a, b: (I(a, b) - len(a) * len(b) / p) / sqrt(len(a) * (1 - len(a) / p) * len(b) * (1 - len(b) / p)))
    out["unadjusted"] = mean(lambda a, b: (I(a, b) - len(a) * len(b) / p) / (sqrt(len(a) * len(b)) - len(a) * len(b) / p))
    out["wald"] = mean(lambda a, b: (I(a, b) - len(a) * len(b) / p) / (min(len(a), len(b)) - len(a) * len(b) / p))
    out["pof"] = mean(lambda a, b: I(a, b) / len(a))
    return out

def glob(sets, p):
    m = len(sets)
    h = {}
    for s in sets:
        for j in s:
            h[j] = h.get(j, 0) + 1
    q = sum(h.values())
    V = set().union(*sets)
    out = {}
    out["davis"] = max(0, sum(x / m for x in h.values()) / len(V))
    out["novovicova"] = sum(x * log2(x) for x in h.values()) / (q * log2(m))
    cmin = (q * q - p * (q - q % p) - (q % p) ** 2) / (p * q * (m - 1))
    cmax = ((q % m) ** 2 + q * (m - 1) - (q % m) * m) / (q * (m - 1))
    out["somol"] = (sum(x / q * (x - 1) / (m - 1) for x in h.values()) - cmin) / (cmax - cmin)
    kbar = q / m
    out["nogueira"] = 1 - (sum(m / (m - 1) * (x / m) * (1 - x / m) for x in h.values()) / p) / (q / (m * p) * (1 - q / (m * p)))
    return out

def canberra(a, b, k):
    ra = {j: i + 1 for i, j in enumerate(a)}
    rb = {j: i + 1 for i, j in enumerate(b)}
    feats = set(a[:k]) | set(b[:k])
    t = lambda r, j: min(r.get(j, k + 1), k + 1)
    return sum(abs(t(ra, j) - t(rb, j)) / (t(ra, j) + t(rb, j)) for j in feats) / k

print("# stabm's example: list(1:3, 1:4, 1:5), p = 10")
sets = [set(range(1, 4)), set(range(1, 5)), set(range(1, 6))]
for name, v in sorted({**pairwise(sets, 10), **glob(sets, 10)}.items()):
    print(f"{name} {v:.10f}")
orders = [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6], [7, 6, 5, 4, 3, 2, 1, 0], [0, 2, 4, 6, 1, 3, 5, 7]]
for k in (1, 3, 5):
    print(f"# top {k} of the four orders, p = 8")
    sets = [set(o[:k]) for o in orders]
    vals = {**pairwise(sets, 8), **glob(sets, 8)}
    pairs = list(combinations(orders, 2))
    vals["canberra"] = sum(canberra(a, b, k) for a, b in pairs) / len(pairs)
    vals["kuncheva"] = sum((len(a & b) * 8 - k * k) / (k * (8 - k)) for a, b in combinations(sets, 2)) / len(pairs)
    for name, v in sorted(vals.items()):
        print(f"{name} {v:.10f}")
