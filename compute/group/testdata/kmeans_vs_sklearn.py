# K-means feature groups side by side (issue 25): Steadfast before and after the rewrite of
# K-means, and scikit-learn's KMeans, on the real sets, in one run.
#
# Each Steadfast binary runs `groups --method kmeans --clusters 100` (50 k-means++
# restarts, Lloyd to convergence, the least within-cluster sum of squares kept) as a whole
# process; scikit-learn runs KMeans(n_clusters=100, n_init=50, init="k-means++",
# algorithm="lloyd", max_iter=100, tol=0) on the same points (the genes, z-scored with the
# n-1 convention), timed for the fit alone, on its OpenMP threads (both cores). The three
# alternate, R times each, and medians are compared, as the machine is noisy. Quality:
# the within-cluster sum of squares of each final clustering, computed here in numpy from
# the groups Steadfast prints and from scikit-learn's labels. The two Steadfast binaries
# must print the same groups.
#
# Run from the repository root (Debian python3-sklearn 1.2.1):
#   /usr/bin/python3 compute/group/testdata/kmeans_vs_sklearn.py /tmp/steadfast-before /tmp/steadfast \
#       colon.csv leukemia.gct | tee compute/group/testdata/kmeans_vs_sklearn.txt
import os, statistics, subprocess, sys, time
import numpy as np
from sklearn.cluster import KMeans

sys.path.insert(0, os.path.dirname(__file__))
from dgf_vs_sklearn_lib import DATA, load

R = 3
before, after = sys.argv[1], sys.argv[2]


def ours(binary, name):
    t = time.perf_counter()
    res = subprocess.run([binary, "groups", "--data", os.path.join(DATA, name), "--method", "kmeans",
                          "--clusters", "100"], capture_output=True, text=True, check=True)
    return time.perf_counter() - t, res.stdout


def names(genes):
    # Steadfast's names for repeated ids: the second is ID_dup1, the third ID_dup2, ...
    seen, out = {}, []
    for g in genes:
        k = seen.get(g, 0)
        out.append(g if k == 0 else "%s_dup%d" % (g, k))
        seen[g] = k + 1
    return out


def wcss(P, labels):
    return sum(((P[labels == c] - P[labels == c].mean(0)) ** 2).sum() for c in np.unique(labels))


print("set\tgenes\tsamples\truns\tbefore_s\tafter_s\tsklearn_fit_s\tafter/before\tsklearn/after\tsame_groups\twcss_steadfast\twcss_sklearn", flush=True)
for name in sys.argv[3:]:
    genes, X = load(name)
    Z = (X - X.mean(0)) / X.std(0, ddof=1)
    P = np.ascontiguousarray(Z.T)
    index = {g: j for j, g in enumerate(names(genes))}
    tb, ta, ts = [], [], []
    for r in range(R):
        t, out_b = ours(before, name)
        tb.append(t)
        t, out_a = ours(after, name)
        ta.append(t)
        t = time.perf_counter()
        km = KMeans(n_clusters=100, n_init=50, init="k-means++", algorithm="lloyd", max_iter=100, tol=0,
                    random_state=r + 1).fit(P)
        ts.append(time.perf_counter() - t)
    labels = np.empty(len(genes), dtype=int)
    for c, line in enumerate(out_a.splitlines()):
        for g in line.split("\t")[4].split(","):
            labels[index[g]] = c
    mb, ma, ms = statistics.median(tb), statistics.median(ta), statistics.median(ts)
    print("%s\t%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%.1f\t%.1f" % (
        name, P.shape[0], P.shape[1], R, mb, ma, ms, ma / mb, ms / ma, out_a == out_b,
        wcss(P, labels), km.inertia_), flush=True)
