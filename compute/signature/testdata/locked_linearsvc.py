#!/usr/bin/python3
# scikit-learn's LinearSVC on the genes of Colon's F-statistic signature (k = 10, the
# all-sample ranking of cv_test.go's colonStudy; listed below), log2 (values below 1 raised
# to 1) and z-scored over all samples (n-1 sd): the decision values a locked linear SVM must
# give. Run from compute/signature (Debian python3-sklearn 1.2.1):
#   /usr/bin/python3 testdata/locked_linearsvc.py > testdata/locked_linearsvc.csv
import csv, numpy as np
from sklearn.svm import LinearSVC
genes = "Hsa.37937 Hsa.8147 Hsa.627 Hsa.6814 Hsa.3306 Hsa.549 Hsa.1832 Hsa.601 Hsa.36689 Hsa.692_dup2".split()
rows = list(csv.reader(open("../../../shared/data/colon.csv")))
head = rows[0]
X = np.array([[float(r[head.index(g)]) for g in genes] for r in rows[1:]])
X = np.log2(np.maximum(X, 1))
X = (X - X.mean(0)) / X.std(0, ddof=1)
labs = [r[-1] for r in rows[1:]]
y = np.array([0 if l == labs[0] else 1 for l in labs])  # the second class in file order is class 1
m = LinearSVC(C=1.0, loss="squared_hinge", tol=1e-10, max_iter=1000000, intercept_scaling=1).fit(X, y)
print("sample,decision")
for i, d in enumerate(m.decision_function(X)):
    print("%d,%.17g" % (i, d))
