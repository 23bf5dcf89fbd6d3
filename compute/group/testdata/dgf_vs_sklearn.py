# DGF against scikit-learn's MeanShift on the real sets, side by side in one run (issue 8).
#
# For each set: Steadfast's `groups --method dgf` as a whole process (starting, reading the
# file, z-scoring, bandwidth, mean shift, peaks, groups and DRAGS relevance) and the part
# after reading the file that it reports on stderr, then scikit-learn's
# MeanShift(bandwidth=h, bin_seeding=False, n_jobs=2).fit on the same z-scored points (n-1
# convention) and the same h (mean over genes of the mean distance to the 5 nearest other
# genes; SPEC section 2), timed for the fit alone. The groups are compared exactly: for
# every scikit-learn peak, the set of genes within h of it, against Steadfast's groups.
#
# Run from the repository root (Debian python3-sklearn 1.2.1):
#   go build -o /tmp/steadfast . && /usr/bin/python3 compute/group/testdata/dgf_vs_sklearn.py /tmp/steadfast \
#       colon.csv srbct.csv lymphoma.csv leukemia.gct chowdary.csv | tee compute/group/testdata/dgf_vs_sklearn.txt
import os, re, subprocess, sys, time
import numpy as np
from sklearn.cluster import MeanShift

sys.path.insert(0, os.path.dirname(__file__))
from dgf_vs_sklearn_lib import DATA, load, bandwidth, members_within

steadfast = sys.argv[1]
print("set\tgenes\tsamples\tsteadfast_process_s\tsteadfast_compute_s\tsklearn_fit_s\tratio_process\tratio_compute\tsteadfast_groups\tsklearn_peaks\tsame_groups", flush=True)
for name in sys.argv[2:]:
    t = time.perf_counter()
    res = subprocess.run([steadfast, "groups", "--data", os.path.join(DATA, name), "--method", "dgf"],
                         capture_output=True, text=True, check=True)
    ours_s = time.perf_counter() - t
    compute_s = float(re.search(r"computed in ([0-9.]+) s", res.stderr).group(1))
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
    print(f"{name}\t{P.shape[0]}\t{P.shape[1]}\t{ours_s:.2f}\t{compute_s:.2f}\t{sk_s:.1f}\t{sk_s / ours_s:.1f}\t{sk_s / compute_s:.1f}\t{len(ours)}\t"
          f"{len(ms.cluster_centers_)}\t{ours == theirs}", flush=True)
