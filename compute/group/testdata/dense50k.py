# A dense 50,000-gene set for DGF's memory figure (issue 8): Chowdary's 22,283 probes, each
# again with 5% multiplicative noise, and 5,434 of them a third time with 10% noise, so that
# every blob of correlated probes is two to three times as dense as on the real array.
# Made with: /usr/bin/python3 compute/group/testdata/dense50k.py > /tmp/dense50k.csv
# then: /usr/bin/time -f "%e s %M KB" steadfast groups --data /tmp/dense50k.csv --method dgf > /dev/null
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(__file__))
from dgf_vs_sklearn_lib import DATA

rows = [l.rstrip("\n").split(",") for l in open(os.path.join(DATA, "chowdary.csv"))]
genes, labels = rows[0][:-1], [r[-1] for r in rows[1:]]
X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
rng = np.random.default_rng(1)
extra = 50000 - 2 * X.shape[1]
X2 = X * (1 + 0.05 * rng.standard_normal(X.shape))
X3 = X[:, :extra] * (1 + 0.10 * rng.standard_normal((X.shape[0], extra)))
Y = np.hstack([X, X2, X3])
names = genes + [g + "_b" for g in genes] + [g + "_c" for g in genes[:extra]]
out = sys.stdout
out.write(",".join(names) + ",class\n")
for i in range(Y.shape[0]):
    out.write(",".join(f"{v:.6g}" for v in Y[i]) + "," + labels[i] + "\n")
