# Reference LinearSVC weights for TestLinearSVMMatchesSklearn: Colon, z-scored, first 40 genes.
# Made with: /usr/bin/python3 compute/classify/testdata/make_reference.py > compute/classify/testdata/colon40_linearsvc.tsv
# (Debian python3-sklearn 1.2.1), run from the repository root. Labels: class 1 = "normal"
# (second class in file order) is the positive class, as in Steadfast.
import csv, numpy as np
from sklearn.svm import LinearSVC
rows = list(csv.reader(open('../shared/data/colon.csv')))
X = np.array([[float(v) for v in r[:40]] for r in rows[1:]])
labs = [r[-1] for r in rows[1:]]
first = labs[0]
y = np.array([0 if l == first else 1 for l in labs])
X = (X - X.mean(0)) / X.std(0, ddof=1)
for C in (1.0, 0.01):
    m = LinearSVC(C=C, loss="squared_hinge", tol=1e-10, max_iter=1000000, intercept_scaling=1).fit(X, y)
    print("C", C, "bias", repr(m.intercept_[0]))
    print("\t".join(repr(w) for w in m.coef_[0]))
