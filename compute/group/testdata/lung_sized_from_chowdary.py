#!/usr/bin/python3
# A Lung-sized set (181 samples x 12,000 genes) with real arrays' correlation structure,
# from Chowdary (104 x 22,283, MAS5 intensities): the 12,000 most variable genes of the
# log2 values, its 104 samples, and 77 more, each the mean of two random samples of one
# class plus 5% of a third sample's deviation (seed 1). Usage:
#   /usr/bin/python3 compute/group/testdata/lung_sized_from_chowdary.py /tmp/lung_sized.csv
import csv, math, os, random, sys
random.seed(1)
rows = list(csv.reader(open(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'shared', 'data', 'chowdary.csv'))))
head, body = rows[0], rows[1:]
ci = head.index('class') if 'class' in head else len(head) - 1
genes = [j for j in range(len(head)) if j != ci]
X = [[math.log2(max(float(r[j]), 1.0)) for j in genes] for r in body]
y = [r[ci] for r in body]
n = len(X)
def var(j):
    m = sum(x[j] for x in X) / n
    return sum((x[j] - m) ** 2 for x in X) / (n - 1)
keep = sorted(range(len(genes)), key=lambda j: -var(j))[:12000]
keep.sort()
byclass = {}
for i, c in enumerate(y):
    byclass.setdefault(c, []).append(i)
means = [sum(x[j] for x in X) / n for j in range(len(genes))]
out = [([X[i][j] for j in keep], y[i], 's%d' % i) for i in range(n)]
for t in range(77):
    c = random.choice(sorted(byclass))
    a, b = random.sample(byclass[c], 2)
    d = random.randrange(n)
    out.append(([(X[a][j] + X[b][j]) / 2 + 0.05 * (X[d][j] - means[j]) for j in keep], c, 'm%d' % t))
w = csv.writer(open(sys.argv[1], 'w', newline=''))
w.writerow([head[genes[j]] for j in keep] + ['class'])
for v, c, _ in out:
    w.writerow(['%.5f' % x for x in v] + [c])
print(len(out), 'samples', len(keep), 'genes')
