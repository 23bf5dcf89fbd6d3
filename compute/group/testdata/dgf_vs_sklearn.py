# DGF against scikit-learn's MeanShift on the real sets, side by side in one run (issue 8).
#
# For each set: Steadfast's `groups --method dgf` as a whole process (starting, reading the
# file, z-scoring, bandwidth, mean shift, peaks, groups and DRAGS relevance) and the part
# after reading the file that it reports on stderr, then scikit-learn's
# MeanShift(bandwidth=h, bin_seeding=False, n_jobs=2).fit on the same z-scored points (n-1
# convention) and the same h (mean over genes of the mean distance to the 5 nearest other
# genes; SPEC section 2), timed for the fit alone. The two alternate, R times each (once
# for scikit-learn where its fit takes over a minute), and the medians are compared, as
# the machine is noisy. The groups are compared exactly: for every scikit-learn peak, the
# set of genes within h of it, against Steadfast's groups.
#
# Run from the repository root (Debian python3-sklearn 1.2.1):
#   go build -o /tmp/steadfast . && /usr/bin/python3 compute/group/testdata/dgf_vs_sklearn.py /tmp/steadfast \
#       colon.csv srbct.csv lymphoma.csv leukemia.gct chowdary.csv | tee compute/group/testdata/dgf_vs_sklearn.txt
import os, re, statistics, subprocess, sys, time
import numpy as np
from sklearn.cluster import MeanShift

sys.path.insert(0, os.path.dirname(__file__))
from dgf_vs_sklearn_lib import DATA, load, bandwidth, members_within

R = 5
steadfast = sys.argv[1]
print("set\tgenes\tsamples\truns\tsteadfast_process_s\tsteadfast_compute_s\tsklearn_fit_s\tratio_process\tratio_compute\tsteadfast_groups\tsklearn_peaks\tsame_groups", flush=True)


def ours(name):
    t = time.perf_counter()
    res = subprocess.run([steadfast, "groups", "--data", os.path.join(DATA, name), "--method", "dgf"],
                         capture_output=True, text=True, check=True)
    return time.perf_counter() - t, float(re.search(r"computed in ([0-9.]+) s", res.stderr).group(1)), res.stdout


def theirs(P, h):
    t = time.perf_counter()
    ms = MeanShift(bandwidth=h, bin_seeding=False, n_jobs=2).fit(P)
    return time.perf_counter() - t, ms


for name in sys.argv[2:]:
    genes, X = load(name)
    X = (X - X.mean(0)) / X.std(0, ddof=1)
    P = np.ascontiguousarray(X.T)
    h = bandwidth(P)
    proc, comp, sk = [], [], []
    for r in range(R):
        a, b, out = ours(name)
        proc.append(a)
        comp.append(b)
        if r == 0 or sk[0] < 60:
            s, ms = theirs(P, h)
            sk.append(s)
    index = {g: i for i, g in enumerate(genes)}
    mine = set(frozenset(index[g] for g in line.split("\t")[4].split(",")) for line in out.splitlines())
    peaks = set(members_within(P, ms.cluster_centers_, h))
    op, oc, sf = statistics.median(proc), statistics.median(comp), statistics.median(sk)
    print(f"{name}\t{P.shape[0]}\t{P.shape[1]}\t{R}/{len(sk)}\t{op:.2f}\t{oc:.2f}\t{sf:.1f}\t{sf / op:.1f}\t{sf / oc:.1f}\t{len(mine)}\t"
          f"{len(ms.cluster_centers_)}\t{mine == peaks}", flush=True)
