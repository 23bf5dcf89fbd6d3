# Reference for TestDGFGroupsEqualSklearn: scikit-learn's MeanShift groups on a real set,
# one line per peak: the 0-based indices of the genes within h of it, ascending (genes as
# points in sample space, z-scored with the n-1 convention; flat kernel; h = mean over
# genes of the mean distance to the 5 nearest other genes, SPEC section 2).
# Made with (Debian python3-sklearn 1.2.1), from the repository root:
#   /usr/bin/python3 compute/group/testdata/make_meanshift_groups.py colon.csv > compute/group/testdata/colon_meanshift_groups.txt
#   /usr/bin/python3 compute/group/testdata/make_meanshift_groups.py leukemia.gct > compute/group/testdata/leukemia_meanshift_groups.txt
import os, sys
import numpy as np
from sklearn.cluster import MeanShift
sys.path.insert(0, os.path.dirname(__file__))
from dgf_vs_sklearn_lib import load, bandwidth, members_within

genes, X = load(sys.argv[1])
X = (X - X.mean(0)) / X.std(0, ddof=1)
P = np.ascontiguousarray(X.T)
h = bandwidth(P)
ms = MeanShift(bandwidth=h, bin_seeding=False, n_jobs=2).fit(P)
for m in sorted(sorted(g) for g in members_within(P, ms.cluster_centers_, h)):
    print(" ".join(str(i) for i in m))
