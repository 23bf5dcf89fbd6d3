# Shared by dgf_vs_sklearn.py and make_meanshift_groups.py: reading the real sets, the
# bandwidth of SPEC section 2, and the genes within h of each peak.
import os
import numpy as np

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


