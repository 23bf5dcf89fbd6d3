# The scikit-learn side of BenchmarkDGFLung (issue 3 closing note).
# Made with:
#   steadfast synth --features 12533 --samples 181 --seed 1 -o /tmp/lung.csv
#   /usr/bin/python3 compute/group/testdata/sklearn_meanshift_lung.py /tmp/lung.csv
# (Debian python3-sklearn 1.2.1; MeanShift with bin_seeding=False, one job.)
import os, sys, time
import numpy as np
from sklearn.cluster import MeanShift
sys.path.insert(0, os.path.dirname(__file__))
from dgf_vs_sklearn_lib import bandwidth
X = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=range(1, 12534))
X = (X - X.mean(0)) / X.std(0, ddof=1)
P = np.ascontiguousarray(X.T)
h = bandwidth(P)
print("h", h, flush=True)
t = time.perf_counter()
ms = MeanShift(bandwidth=h, bin_seeding=False, n_jobs=1).fit(P)
print(f"MeanShift: {time.perf_counter()-t:.1f} s, {len(ms.cluster_centers_)} peaks", flush=True)
