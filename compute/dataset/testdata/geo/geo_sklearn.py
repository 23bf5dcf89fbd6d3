# F-statistic of GDS507 (RCC vs normal) on log2 values, and the GPL97 symbol count:
# the expected values of TestReadGDS507 and TestRankCommandGDS507.
# Run: /usr/bin/python3 geo_sklearn.py   (scikit-learn 1.2.1, numpy 1.24)
import gzip
import numpy as np
from sklearn.feature_selection import f_classif

ls = gzip.open('GDS507.soft.gz', 'rt').read().split('\n')
b, e = ls.index('!dataset_table_begin'), ls.index('!dataset_table_end')
samples = ls[b + 1].split('\t')[2:]
rows = [l.split('\t') for l in ls[b + 2:e]]
ids = [r[0] for r in rows]
X = np.array([[float(v) for v in r[2:]] for r in rows]).T
subset = [l for l in ls if l.startswith('!subset_sample_id')][0]
rcc = subset.split('=')[1].strip().split(',')
y = np.array([0 if s in rcc else 1 for s in samples])
print('samples x probes', X.shape, 'RCC', (y == 0).sum(), 'normal', (y == 1).sum())
L = np.log2(np.maximum(X, 1))
keep = np.ptp(L, axis=0) > 0
F, _ = f_classif(L[:, keep], y)
for i in np.argsort(-F)[:3]:
    print(np.array(ids)[keep][i], '%.7f' % F[i])
al = gzip.open('GPL97.annot.gz', 'rt').read().split('\n')
b, e = al.index('!platform_table_begin'), al.index('!platform_table_end')
col = al[b + 1].split('\t').index('Gene symbol')
sym = {r.split('\t')[0]: r.split('\t')[col] for r in al[b + 2:e]}
print('probes with a symbol', sum(1 for i in ids if sym.get(i, '') != ''))
