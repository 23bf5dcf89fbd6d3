"""Reference k-TSP (Geman et al. 2004; Tan et al. 2005), written from the papers, for
compute/classify's KTSP: Colon (../../../../shared/data/colon.csv), log2 with values
below 1 raised to 1, the 20 genes of largest F (scipy f_oneway) on all samples, trained
on the odd-numbered samples (1st, 3rd, ...) and applied to all.
Writes ktsp_colon.csv: the genes used, the pairs chosen and each sample's votes.
Run: /usr/bin/python3 ktsp_ref.py"""
import csv, itertools, math
import numpy as np
from scipy.stats import f_oneway

rows = list(csv.reader(open("../../../../shared/data/colon.csv")))
head = rows[0]
cls_col = len(head) - 1
X = np.array([[float(v) for v in r[:cls_col]] for r in rows[1:]])
y_names = [r[cls_col] for r in rows[1:]]
classes = sorted(set(y_names))  # "normal", "tumor": class 0 = normal, 1 = tumor
y = np.array([classes.index(c) for c in y_names])
X = np.log2(np.maximum(X, 1.0))
F = np.array([f_oneway(X[y == 0, j], X[y == 1, j]).statistic for j in range(X.shape[1])])
genes = list(np.argsort(-F, kind="stable")[:20])
train = np.arange(0, len(y), 2)
Z = X[:, genes]
Zt, yt = Z[train], y[train]

def ranks(v):
    order = np.argsort(v, kind="stable")
    r = np.empty(len(v))
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        r[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return r

R = np.array([ranks(z) for z in Zt])
scored = []
for i, j in itertools.combinations(range(len(genes)), 2):
    p = [np.mean(Zt[yt == c, i] < Zt[yt == c, j]) for c in (0, 1)]
    g = abs(np.mean(R[yt == 0, i] - R[yt == 0, j]) - np.mean(R[yt == 1, i] - R[yt == 1, j]))
    scored.append((-abs(p[0] - p[1]), -g, i, j, 1 if p[1] > p[0] else 0))
scored.sort(key=lambda s: (s[0], s[1]))
K = min(9, len(genes) // 2)
if K % 2 == 0:
    K -= 1
used, pairs = set(), []
for d, g, i, j, less in scored:
    if len(pairs) == K:
        break
    if i in used or j in used:
        continue
    used |= {i, j}
    pairs.append((i, j, less))
with open("ktsp_colon.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["genes"] + [head[g] for g in genes])
    for i, j, less in pairs:
        w.writerow(["pair", head[genes[i]], head[genes[j]], classes[less]])
    for s in range(len(y)):
        votes = sum(1 if ((Z[s, i] < Z[s, j]) == (less == 1)) else 0 for i, j, less in pairs)
        w.writerow(["sample", s + 1, votes / len(pairs), classes[1 if votes * 2 > len(pairs) else 0]])
