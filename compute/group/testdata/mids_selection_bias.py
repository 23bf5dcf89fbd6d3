#!/usr/bin/python3
# MIDS paper Table 3 (Colon): does ranking the genes once on all samples explain the
# paper's 0.94 for SVM-RFE + MIDS? The genes are ranked on all 62 samples, labels
# included, by `steadfast rank`; only the classifier is then cross-validated
# (10 x stratified 10-fold, z-scored on the training folds, LinearSVC C = 1): the
# "selection bias" protocol of Ambroise & McLachlan (PNAS 2002), which Steadfast's
# studies never use. Prints the best accuracy over k = 1..50 and its k.
#
#   go build -o /tmp/steadfast . && /usr/bin/python3 compute/group/testdata/mids_selection_bias.py /tmp/steadfast ../shared/data/colon.csv
#
# Output kept in mids_selection_bias.txt.
import csv, subprocess, sys

import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

binary, data = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(data)))
head = rows[0][:-1]
y = np.array([r[-1] for r in rows[1:]])
raw = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
col = {g: j for j, g in enumerate(head)}

for values in ("raw", "log2"):
    X = raw if values == "raw" else np.log2(np.maximum(raw, 1))
    for method in ("svmrfe", "svmrfe+mids"):
        cmd = [binary, "rank", "--data", data, "--method", method, "--seed", "1"] + (["--log2"] if values == "log2" else [])
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, env={"LANG": "C.UTF-8"}).stdout
        order = [l.split("\t")[1] for l in out.splitlines() if l and l[0].isdigit()]
        best = (0.0, 0)
        for k in range(1, 51):
            cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=1)
            model = make_pipeline(StandardScaler(), LinearSVC(C=1, max_iter=100000))
            acc = cross_val_score(model, X[:, [col[g] for g in order[:k]]], y, cv=cv).mean()
            best = max(best, (acc, k), key=lambda t: t[0])
        print(f"{values}\t{method}\tbest accuracy {best[0]:.3f} at k = {best[1]}", flush=True)
