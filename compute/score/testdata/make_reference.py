# Reference F statistics for TestFStatColonMatchesSklearn.
# Made with: /usr/bin/python3 compute/score/testdata/make_reference.py > compute/score/testdata/colon_fclassif.tsv
# (Debian python3-sklearn 1.2.1, numpy 1.24), run from the repository root.
import csv, numpy as np
from sklearn.feature_selection import f_classif
rows = list(csv.reader(open('../shared/data/colon.csv')))
X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
y = [r[-1] for r in rows[1:]]
X = (X - X.mean(0)) / X.std(0, ddof=1)
F, _ = f_classif(X, y)
for name, f in zip(rows[0][:-1], F):
    print(f"{name}\t{f!r}")
