#!/usr/bin/python3
# scikit-learn 1.2.1 one-vs-rest AUCs of the pooled out-of-fold SVM scores of an SRBCT study
# (F-statistic, DRAGS 2008, k = 10; the scores written from cv_test.go's study into
# testdata/cv_srbct_fstat_k10.csv). Run from compute/signature:
#   /usr/bin/python3 testdata/cv_ovr.py
import csv, numpy as np
from sklearn.metrics import roc_auc_score
rows=list(csv.DictReader(open('testdata/cv_srbct_fstat_k10.csv')))
out=csv.writer(open('testdata/cv_srbct_ovr.csv','w')); out.writerow(['repetition','auc_class0','auc_class1','auc_class2','auc_class3','macro_ovr'])
for r in sorted(set(int(x['repetition']) for x in rows)):
    s=[x for x in rows if int(x['repetition'])==r]
    y=np.array([int(x['class']) for x in s]); sc=np.array([[float(x['s%d'%c]) for c in range(4)] for x in s])
    per=[roc_auc_score((y==c).astype(int), sc[:,c]) for c in range(4)]
    out.writerow([r]+['%.17g'%a for a in per]+['%.17g'%np.mean(per)])
