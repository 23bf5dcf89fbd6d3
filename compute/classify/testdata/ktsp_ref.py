"""Reference k-TSP (Geman et al. 2004; Tan et al. 2005), written from the papers in exact
arithmetic, for compute/classify's KTSP. Colon (../../../../shared/data/colon.csv), log2
with values below 1 raised to 1, class 0 = normal, 1 = tumor.

For genes i < j: Delta = |P(x_i < x_j | normal) - P(x_i < x_j | tumor)|, a tie x_i = x_j
counting half to each order; Gamma = |mean_normal(r_i - r_j) - mean_tumor(r_i - r_j)|, r the
mid-rank within the sample among the genes given (Tan et al.'s rank score). Pairs are taken
by larger Delta, then larger Gamma, then lower (i, j), disjoint, while Delta > 0, up to k
(fewer available: the largest odd number of them). A pair
votes for the class where x_i < x_j is more frequent when x_i < x_j, for the other when
x_i > x_j, half each on a tie. k chosen by leave-one-out over the training samples among
k = 1, 3, ..., 9: the fewest errors, the smallest k on a tie (Tan et al. 2005).

Writes
  ktsp_colon.csv: the 20 genes of largest F (scipy f_oneway) on all samples, trained on the
    odd-numbered samples (1st, 3rd, ...): the leave-one-out errors for k = 1, 3, ..., 9, the
    k chosen, the nine pairs of k = 9, and every sample's share of votes for tumor with nine
    pairs and with the k chosen (rows "sample", number, share with 9, class with 9, share
    with k, class with k);
  ktsp_pairs.csv: the nine pairs (k = 9) on all 2000 genes for each training set of the
    cases "balanced" and "half" of ktsp_switchbox.csv.
Run, in compute/classify/testdata, after ktsp_switchbox.R (which reads the genes of
ktsp_colon.csv; this script writes the same genes again): /usr/bin/python3 ktsp_ref.py
(Python 3.11, NumPy, SciPy; about 3 minutes)."""
import csv, itertools
from fractions import Fraction
import numpy as np
from scipy.stats import f_oneway

rows = list(csv.reader(open("../../../../shared/data/colon.csv")))
head = rows[0][:-1]
X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
classes = ["normal", "tumor"]
y = np.array([classes.index(r[-1]) for r in rows[1:]])
X = np.log2(np.maximum(X, 1.0))


def ranks(v):
    """Mid-ranks (1-based) of v, as Fractions."""
    order = sorted(range(len(v)), key=lambda a: v[a])
    r = [None] * len(v)
    a = 0
    while a < len(v):
        b = a
        while b + 1 < len(v) and v[order[b + 1]] == v[order[a]]:
            b += 1
        for c in order[a:b + 1]:
            r[c] = Fraction(a + b, 2) + 1
        a = b + 1
    return r


def less_share(a, b):
    return Fraction(1) if a < b else Fraction(1, 2) if a == b else Fraction(0)


def fit(Z, yt, K):
    """The pairs (i, j, class voted for when x_i < x_j) of k-TSP with up to K pairs."""
    R = [ranks(list(z)) for z in Z]
    idx = [[s for s in range(len(yt)) if yt[s] == c] for c in (0, 1)]
    scored = []
    for i, j in itertools.combinations(range(Z.shape[1]), 2):
        p = [sum(less_share(Z[s, i], Z[s, j]) for s in idx[c]) / len(idx[c]) for c in (0, 1)]
        m = [sum(R[s][i] - R[s][j] for s in idx[c]) / len(idx[c]) for c in (0, 1)]
        scored.append((-abs(p[0] - p[1]), -abs(m[0] - m[1]), i, j, 0 if p[0] > p[1] else 1))
    scored.sort()
    used, pairs = set(), []
    for d, g, i, j, less in scored:
        if len(pairs) == K or d == 0:
            break
        if i in used or j in used:
            continue
        used |= {i, j}
        pairs.append((i, j, less))
    return pairs[:len(pairs) - 1] if len(pairs) % 2 == 0 else pairs


def vote(z, pairs, majority):
    """Share of the votes for tumor and the class (normal on a tie)."""
    if not pairs:
        return Fraction(majority), majority
    t = sum(less_share(z[i], z[j]) if less == 1 else 1 - less_share(z[i], z[j]) for i, j, less in pairs)
    share = t / len(pairs)
    return share, 1 if share > Fraction(1, 2) else 0


def majority(yt):
    return 1 if (yt == 1).sum() > (yt == 0).sum() else 0


F = np.array([f_oneway(X[y == 0, j], X[y == 1, j]).statistic for j in range(X.shape[1])])
genes = list(np.argsort(-F, kind="stable")[:20])
train = np.arange(0, len(y), 2)
Z = X[:, genes]
Zt, yt = Z[train], y[train]
ks = [1, 3, 5, 7, 9]
errors = [0] * len(ks)
for s in range(len(yt)):
    keep = [a for a in range(len(yt)) if a != s]
    pairs = fit(Zt[keep], yt[keep], 9)
    for e, k in enumerate(ks):
        if vote(Zt[s], pairs[:k], majority(yt[keep]))[1] != yt[s]:
            errors[e] += 1
kcv = ks[errors.index(min(errors))]
pairs = fit(Zt, yt, 9)
with open("ktsp_colon.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["genes"] + [head[g] for g in genes])
    w.writerow(["cv"] + errors)
    w.writerow(["k", kcv])
    for i, j, less in pairs:
        w.writerow(["pair", head[genes[i]], head[genes[j]], classes[less]])
    for s in range(len(y)):
        v9, c9 = vote(Z[s], pairs, majority(yt))
        vk, ck = vote(Z[s], pairs[:kcv], majority(yt))
        w.writerow(["sample", s + 1, repr(float(v9)), classes[c9], repr(float(vk)), classes[ck]])


def fit_all(Zt, yt, K):
    """fit() on many genes: the same definitions in integers (numpy int64), times 2 n_0 n_1."""
    n, m = Zt.shape
    R2 = np.array([[int(2 * r) for r in ranks(list(z))] for z in Zt], dtype=np.int64)
    c0, c1 = yt == 0, yt == 1
    n0, n1 = int(c0.sum()), int(c1.sum())
    recs = []
    for i in range(m - 1):
        h = 2 * (Zt[:, i:i + 1] < Zt[:, i + 1:]).astype(np.int64) + (Zt[:, i:i + 1] == Zt[:, i + 1:])
        d = h[c0].sum(0) * n1 - h[c1].sum(0) * n0
        rd = R2[:, i:i + 1] - R2[:, i + 1:]
        g = np.abs(rd[c0].sum(0) * n1 - rd[c1].sum(0) * n0)
        recs += [(-abs(int(d[a])), -int(g[a]), i, i + 1 + a, 0 if d[a] > 0 else 1) for a in range(len(d))]
    recs.sort()
    used, pairs = set(), []
    for d, g, i, j, less in recs:
        if len(pairs) == K or d == 0:
            break
        if i in used or j in used:
            continue
        used |= {i, j}
        pairs.append((i, j, less))
    return pairs[:len(pairs) - 1] if len(pairs) % 2 == 0 else pairs


cases = []
for r in csv.DictReader(open("ktsp_switchbox.csv")):
    if r["case"] != "ref20" and (r["case"], r["train"]) not in cases:
        cases.append((r["case"], r["train"]))
with open("ktsp_pairs.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["case", "train", "pair", "gene1", "gene2", "less"])
    for case, tr in cases:
        t = np.array([int(s) - 1 for s in tr.split()])
        for p, (i, j, less) in enumerate(fit_all(X[t], y[t], 9)):
            w.writerow([case, tr, p + 1, head[i], head[j], classes[less]])
