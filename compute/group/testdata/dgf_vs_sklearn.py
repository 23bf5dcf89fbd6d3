# DGF against scikit-learn's MeanShift on the real sets, side by side in one run (issue 8).
#
# For each set: Steadfast's `groups --method dgf` as a whole process (reading the file,
# z-scoring, bandwidth, mean shift, peaks, groups and DRAGS relevance), then scikit-learn's
# MeanShift(bandwidth=h, bin_seeding=False, n_jobs=2).fit on the same z-scored points (n-1
# convention) and the same h (mean over genes of the mean distance to the 5 nearest other
# genes; SPEC section 2), timed for the fit alone. The groups are compared exactly: for
# every scikit-learn peak, the set of genes within h of it, against Steadfast's groups.
#
# Run from the repository root (Debian python3-sklearn 1.2.1):
#   go build -o /tmp/steadfast . && /usr/bin/python3 compute/group/testdata/dgf_vs_sklearn.py /tmp/steadfast \
#       colon.csv srbct.csv lymphoma.csv leukemia.gct chowdary.csv | tee compute/group/testdata/dgf_vs_sklearn.txt
import os, subprocess, sys, time
import numpy as np
from sklearn.cluster import MeanShift

DATA = os.path.join("..", "shared", "data")


def load(name):
    path = os.path.join(DATA, name)
    if name.endswith(".gct"):
        rows = [l.rstrip("\n").split("\t") for l in open(path)][2:]
        genes = [r[0] for r in rows[1:]]
        X = np.array([[float(v) for v in r[2:]] for r in rows[1:]]).T
    else:
        rows = [l.rstrip("\n").split(",") for l in open(path)]
        genes = rows[0][:-1]
        X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
    return genes, X


def bandwidth(P, K=5):
    sq = (P * P).sum(1)
    knn = np.empty(len(P))
    for lo in range(0, len(P), 1024):
        G = P[lo:lo + 1024] @ P.T
        D = np.sqrt(np.maximum(sq[lo:lo + 1024, None] + sq[None, :] - 2 * G, 0))
        for r in range(D.shape[0]):
            D[r, lo + r] = np.inf
        knn[lo:lo + 1024] = np.sort(D, 1)[:, :K].mean(1)
    return knn.mean()


def members_within(P, C, h):
    sq = (P * P).sum(1)
    out = []
    for lo in range(0, len(C), 256):
        c = C[lo:lo + 256]
        D2 = (c * c).sum(1)[:, None] + sq[None, :] - 2 * c @ P.T
        for r in range(len(c)):
            out.append(frozenset(np.nonzero(D2[r] <= h * h)[0]))
    return out


steadfast = sys.argv[1]
print("set\tgenes\tsamples\tsteadfast_s\tsklearn_fit_s\tratio\tsteadfast_groups\tsklearn_peaks\tsame_groups", flush=True)
for name in sys.argv[2:]:
    t = time.perf_counter()
    res = subprocess.run([steadfast, "groups", "--data", os.path.join(DATA, name), "--method", "dgf"],
                         capture_output=True, text=True, check=True)
    ours_s = time.perf_counter() - t
    genes, X = load(name)
    index = {g: i for i, g in enumerate(genes)}
    ours = set()
    for line in res.stdout.splitlines():
        ours.add(frozenset(index[g] for g in line.split("\t")[4].split(",")))
    X = (X - X.mean(0)) / X.std(0, ddof=1)
    P = np.ascontiguousarray(X.T)
    h = bandwidth(P)
    t = time.perf_counter()
    ms = MeanShift(bandwidth=h, bin_seeding=False, n_jobs=2).fit(P)
    sk_s = time.perf_counter() - t
    theirs = set(members_within(P, ms.cluster_centers_, h))
    print(f"{name}\t{P.shape[0]}\t{P.shape[1]}\t{ours_s:.2f}\t{sk_s:.1f}\t{sk_s / ours_s:.1f}\t{len(ours)}\t"
          f"{len(ms.cluster_centers_)}\t{ours == theirs}", flush=True)
