# Reference plain L2 logistic regressions from scikit-learn 1.2.1 (NumPy 1.24.2) for
# compute/classify's Logit with a fixed lambda and no standardisation
# (TestLogitEqualsSklearn). Command, in compute/classify/testdata:
#   /usr/bin/python3 logit_sklearn.py
# LogisticRegression(penalty="l2", C=C, solver="newton-cg", tol=1e-10, max_iter=10000)
# minimises 1/2 ||w||^2 + C sum_i log-loss, the intercept unpenalised and the data not
# standardised: glmnet's objective with alpha = 0, lambda = 1/(n C), standardize = FALSE.
# (newton-cg, not the default lbfgs: lbfgs stops on its relative change of the
# objective, here with a gradient of 0.01 and coefficients 3e-3 off the minimum; the
# script prints the largest gradient component at each solution.)
# Data (../../../../shared/data): Colon, log2 with values below 1 raised to 1, its first
# 40 genes without a duplicate probe (as glmnet_ref.R), class tumor (1) against normal,
# C = 0.01, 1, 100; SRBCT's first 30 genes as read, classes BL, EWS, NB, RMS
# (multinomial, sklearn's default for lbfgs), C = 0.1, 10.
# Writes logit_sklearn.csv: case, C, model (0 for two classes, else the class's index),
# feature (0 the intercept, j for gene j), value.
import csv
import numpy as np
from scipy.special import softmax
from sklearn.linear_model import LogisticRegression


def gradient(m, x, y, C):
    """The largest component of the objective's gradient at m's solution."""
    w = np.atleast_2d(m.coef_)
    z = x @ w.T + m.intercept_
    if w.shape[0] == 1:
        r = (1 / (1 + np.exp(-z[:, 0])) - y)[:, None]
    else:
        r = softmax(z, axis=1) - np.eye(w.shape[0])[y]
    return max(np.abs(w + C * (x.T @ r).T).max(), np.abs(C * r.sum(axis=0)).max())


def read(path):
    rows = list(csv.reader(open(path)))
    head, body = rows[0], rows[1:]
    x = np.array([[float(v) for v in r[:-1]] for r in body])
    return head[:-1], x, [r[-1] for r in body]

out = [["case", "C", "model", "feature", "value"]]
names, x, cls = read("../../../../shared/data/colon.csv")
single = [j for j, f in enumerate(names) if "_dup" not in f and f + "_dup1" not in names][:40]
x = np.log2(np.maximum(x[:, single], 1))
y = np.array([1 if c == "tumor" else 0 for c in cls])
for C in (0.01, 1, 100):
    m = LogisticRegression(penalty="l2", C=C, solver="newton-cg", tol=1e-10, max_iter=10000).fit(x, y)
    print("colon40 C = %g: largest gradient %.2g" % (C, gradient(m, x, y, C)))
    vals = [m.intercept_[0]] + list(m.coef_[0])
    out += [["colon40", repr(C), 0, j, repr(float(v))] for j, v in enumerate(vals)]
names, x, cls = read("../../../../shared/data/srbct.csv")
x = x[:, :30]
levels = ["BL", "EWS", "NB", "RMS"]
y = np.array([levels.index(c) for c in cls])
for C in (0.1, 10):
    m = LogisticRegression(penalty="l2", C=C, solver="newton-cg", tol=1e-10, max_iter=10000).fit(x, y)
    print("srbct30 C = %g: largest gradient %.2g" % (C, gradient(m, x, y, C)))
    for k in range(4):
        vals = [m.intercept_[k]] + list(m.coef_[k])
        out += [["srbct30", repr(C), k, j, repr(float(v))] for j, v in enumerate(vals)]
csv.writer(open("logit_sklearn.csv", "w", newline="")).writerows(out)
