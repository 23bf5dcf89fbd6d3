#!/usr/bin/python3
"""Reference values for compute/signature's tests, from SciPy, scikit-learn and R.

Run from compute/signature:  /usr/bin/python3 testdata/make_refs.py
Needs Debian's python3-scipy, python3-sklearn, r-base-core and r-cran-proc, and
../../../shared/data (Colon, SRBCT). Writes testdata/*.csv; the tests read them.
Versions used: see testdata/versions.txt (written by this script).
"""
import csv, subprocess, sys
import numpy as np
import scipy, sklearn
from scipy import stats
from scipy.cluster.hierarchy import linkage, leaves_list
from scipy.spatial.distance import squareform
from sklearn.metrics import roc_curve

DATA = "../../../shared/data/"

def read(name):
    with open(DATA + name) as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    x = np.array([[float(v) for v in r[:-1]] for r in body])
    y = [r[-1] for r in body]
    return head[:-1], x, y

out = "testdata/"
genes, x, y = read("colon.csv")
lx = np.log2(np.maximum(x, 1))  # Steadfast's log2: values below 1 raised to 1
tumor = np.array([c == "tumor" for c in y])

# 1. Welch's t-test per gene (tumor vs normal) and BH over all genes (R's p.adjust)
t, p = stats.ttest_ind(lx[tumor], lx[~tumor], equal_var=False)
q = subprocess.run(["Rscript", "-e", "p <- scan('stdin', quiet=TRUE); cat(sprintf('%.17g', p.adjust(p, method='BH')), sep='\\n')"],
                   input="\n".join("%.17g" % v for v in p), capture_output=True, text=True, check=True).stdout.split()
with open(out + "welch_colon.csv", "w") as f:
    w = csv.writer(f); w.writerow(["gene", "t", "p", "q"])
    for g, a, b, c in zip(genes, t, p, q):
        w.writerow([g, "%.17g" % a, "%.17g" % b, c])

# 1b. the log2 fold change between the class means (log2 values), and the higher class
mt, mn = lx[tumor].mean(0), lx[~tumor].mean(0)
with open(out + "foldchange_colon.csv", "w") as f:
    w = csv.writer(f); w.writerow(["gene", "higher_in", "log2_fold_change"])
    for g, a, b in zip(genes, mt, mn):
        w.writerow([g, "tumor" if a > b else "normal", "%.17g" % abs(a - b)])

# 2. one-way ANOVA on SRBCT (4 classes), the first 50 genes
sg, sx, sy = read("srbct.csv")
cls = sorted(set(sy), key=sy.index)
with open(out + "anova_srbct.csv", "w") as f:
    w = csv.writer(f); w.writerow(["gene", "F", "p"])
    for j in range(50):
        F, pv = stats.f_oneway(*[sx[[c == k for c in sy], j] for k in cls])
        w.writerow([sg[j], "%.17g" % F, "%.17g" % pv])

# 3. ROC points of a gene's log2 values rounded to 1 decimal (ties), tumor positive
s = np.round(lx[:, genes.index("Hsa.8147")], 1)
fpr, tpr, thr = roc_curve(tumor.astype(int), s, drop_intermediate=False)
with open(out + "roc_colon_Hsa.8147.csv", "w") as f:
    w = csv.writer(f); w.writerow(["threshold", "fpr", "tpr"])
    for a, b, c in zip(thr, fpr, tpr):
        w.writerow(["%.17g" % a, "%.17g" % b, "%.17g" % c])

# 4. AUC, DeLong variance and 95% CI from R's pROC for five genes (raw and rounded)
picks = ["Hsa.8147", "Hsa.37937", "Hsa.627", "Hsa.692_dup2", "Hsa.3306"]
rows = []
for g in picks:
    for rnd in (False, True):
        v = lx[:, genes.index(g)]
        if rnd:
            v = np.round(v, 1)
        rows.append((g, rnd, v))
script = """
suppressMessages(library(pROC))
d <- read.csv(file('stdin'))
for (k in unique(d$key)) {
  s <- d[d$key == k, ]
  r <- roc(s$class, s$score, levels = c('normal', 'tumor'), direction = '<', quiet = TRUE)
  ci <- ci.auc(r, method = 'delong')
  cat(sprintf('%s,%.17g,%.17g,%.17g,%.17g\\n', k, as.numeric(auc(r)), var(r, method = 'delong'), ci[1], ci[3]))
}
"""
buf = "key,class,score\n" + "".join("%s_%d,%s,%.17g\n" % (g, rnd, c, v) for g, rnd, vals in rows for c, v in zip(y, vals))
res = subprocess.run(["Rscript", "-e", script], input=buf, capture_output=True, text=True, check=True).stdout
with open(out + "delong_colon.csv", "w") as f:
    f.write("key,auc,var,low,high\n" + res)

# 5. average linkage on 1 - Pearson r: the first 30 genes (over the 62 samples) and
# the 62 samples (over those 30 genes), with the leaf order
def link(m, name):
    d = 1 - np.corrcoef(m)
    np.fill_diagonal(d, 0)
    Z = linkage(squareform(d, checks=False), method="average")
    with open(out + name, "w") as f:
        w = csv.writer(f); w.writerow(["a", "b", "dist", "size"])
        for a, b, dd, n in Z:
            w.writerow([int(a), int(b), "%.17g" % dd, int(n)])
        w.writerow(["order"] + [int(i) for i in leaves_list(Z)])
sub = lx[:, :30]
link(sub.T, "linkage_genes_colon30.csv")
link(sub, "linkage_samples_colon30.csv")

with open(out + "versions.txt", "w") as f:
    r = subprocess.run(["Rscript", "-e", "cat(R.version.string, 'pROC', as.character(packageVersion('pROC')))"], capture_output=True, text=True).stdout
    f.write("python %s, numpy %s, scipy %s, scikit-learn %s; %s\n" % (sys.version.split()[0], np.__version__, scipy.__version__, sklearn.__version__, r))
