# Reference for TestDGFMatchesSklearnMeanShift: scikit-learn's MeanShift on Colon's genes as
# points in sample space (z-scored, n-1 convention), flat kernel, bandwidth h = mean over genes
# of the mean distance to the 5 nearest other genes (SPEC section 2).
# Made with: /usr/bin/python3 compute/group/testdata/make_meanshift_reference.py ../shared/data/colon.csv > compute/group/testdata/colon_meanshift.txt
# (Debian python3-sklearn 1.2.1), run from the repository root. Also prints its time to stderr.
import csv, sys, time
import numpy as np
from sklearn.cluster import MeanShift
rows = list(csv.reader(open(sys.argv[1])))
X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
X = (X - X.mean(0)) / X.std(0, ddof=1)
P = X.T
G = P @ P.T
sq = np.diag(G)
D = np.sqrt(np.maximum(sq[:, None] + sq[None, :] - 2 * G, 0))
np.fill_diagonal(D, np.inf)
h = np.sort(D, 1)[:, :5].mean(1).mean()
t = time.perf_counter()
ms = MeanShift(bandwidth=h, bin_seeding=False, n_jobs=1).fit(P)
print(f"MeanShift on {P.shape[0]} points in {P.shape[1]} dims: {time.perf_counter()-t:.1f} s", file=sys.stderr)
C = ms.cluster_centers_
dens = np.array([(np.linalg.norm(P - c, axis=1) <= h).sum() for c in C])
print("h", repr(h))
print("peaks", len(C))
for i in np.argsort(-dens, kind="stable")[:100]:
    print(dens[i], " ".join(repr(v) for v in C[i]))
