# The scikit-learn side of BenchmarkDGFLung (issue 3 closing note).
# Made with:
#   steadfast synth --features 12533 --samples 181 --seed 1 -o /tmp/lung.csv
#   /usr/bin/python3 compute/group/testdata/sklearn_meanshift_lung.py /tmp/lung.csv
# (Debian python3-sklearn 1.2.1; MeanShift with bin_seeding=False, one job.)
import sys, time
import numpy as np
from sklearn.cluster import MeanShift
X = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=range(1, 12534))
X = (X - X.mean(0)) / X.std(0, ddof=1)
P = X.T
sq = (P * P).sum(1)
knn = np.empty(len(P))
for lo in range(0, len(P), 1024):
    G = P[lo:lo+1024] @ P.T
    D = np.sqrt(np.maximum(sq[lo:lo+1024, None] + sq[None, :] - 2 * G, 0))
    for r in range(D.shape[0]):
        D[r, lo + r] = np.inf
    knn[lo:lo+1024] = np.sort(D, 1)[:, :5].mean(1)
h = knn.mean()
print("h", h, flush=True)
t = time.perf_counter()
ms = MeanShift(bandwidth=h, bin_seeding=False, n_jobs=1).fit(P)
print(f"MeanShift: {time.perf_counter()-t:.1f} s, {len(ms.cluster_centers_)} peaks", flush=True)
