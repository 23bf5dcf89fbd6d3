# The scikit-learn side of the speed comparison in the issue-2 closing note.
# Made with:
#   steadfast synth --features 12533 --samples 181 --seed 1 -o /tmp/lung.csv
#   /usr/bin/python3 compute/experiment/testdata/sklearn_lung.py /tmp/lung.csv [--study [REPEATS]]
# (Debian python3-sklearn 1.2.1, numpy 1.24; single process, as scikit-learn's liblinear is.)
import sys, time
import numpy as np
from sklearn.feature_selection import f_classif, RFE
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import LinearSVC

def best(f, reps=3):
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); out = f(); ts.append(time.perf_counter() - t)
    return min(ts), out

path = sys.argv[1]
t, X = best(lambda: np.loadtxt(path, delimiter=",", skiprows=1, usecols=range(1, 12534)), reps=1)
print(f"numpy.loadtxt           {t*1000:10.1f} ms")
labels = np.loadtxt(path, delimiter=",", skiprows=1, usecols=[12534], dtype=str)
y = (labels == labels[0]).astype(int)
t, Z = best(lambda: (X - X.mean(0)) / X.std(0, ddof=1))
print(f"z-score                 {t*1000:10.1f} ms")
t, _ = best(lambda: f_classif(Z, y))
print(f"f_classif               {t*1000:10.1f} ms")
t, _ = best(lambda: LinearSVC(C=1.0).fit(Z, y))
print(f"LinearSVC fit           {t*1000:10.1f} ms")
t, _ = best(lambda: RFE(LinearSVC(C=1.0), n_features_to_select=1, step=0.1).fit(Z, y), reps=1)
print(f"RFE step=0.1 (of start) {t*1000:10.1f} ms")

def rfe_remaining(Z, y):
    # Steadfast's schedule: drop 10% of the *remaining* features each round
    remaining = np.arange(Z.shape[1])
    while len(remaining) > 1:
        w = LinearSVC(C=1.0).fit(Z[:, remaining], y).coef_[0] ** 2
        drop = max(1, int(0.1 * len(remaining)))
        remaining = remaining[np.sort(np.argsort(w, kind="stable")[drop:])]
    return remaining
t, _ = best(lambda: rfe_remaining(Z, y), reps=1)
print(f"RFE 10% of remaining    {t*1000:10.1f} ms")

if "--study" in sys.argv:
    # 10 x stratified 10-fold CV: z-score on the training fold, RFE with Steadfast's schedule,
    # test accuracy of LinearSVC on the top k for k = 1..50.
    i = sys.argv.index("--study")
    reps = int(sys.argv[i + 1]) if len(sys.argv) > i + 1 else 10
    t0 = time.perf_counter()
    for r in range(reps):
        for tr, te in StratifiedKFold(10, shuffle=True, random_state=r).split(X, y):
            m, s = X[tr].mean(0), X[tr].std(0, ddof=1)
            s[s == 0] = 1
            Ztr, Zte = (X[tr] - m) / s, (X[te] - m) / s
            remaining = np.arange(X.shape[1]); order = []
            while len(remaining) > 1:
                w = LinearSVC(C=1.0).fit(Ztr[:, remaining], y[tr]).coef_[0] ** 2
                drop = max(1, int(0.1 * len(remaining)))
                idx = np.argsort(w, kind="stable")
                order = list(remaining[idx[:drop]]) + order
                remaining = remaining[np.sort(idx[drop:])]
            order = list(remaining) + order
            for k in range(1, 51):
                sel = order[:k]
                LinearSVC(C=1.0).fit(Ztr[:, sel], y[tr]).score(Zte[:, sel], y[te])
    print(f"{reps}x10 CV SVM-RFE study  {(time.perf_counter()-t0)*1000:10.1f} ms")
