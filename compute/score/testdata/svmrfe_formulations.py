# Why Steadfast's SVM-RFE ranking of Colon differs from WEKA's SVMAttributeEval
# (colon_weka_svmrfe.txt, made by make_weka_reference.sh), and the reference ranking of
# TestSVMRFEMatchesSklearn. Run from the repository root, with steadfast built:
#   steadfast rank --data ../shared/data/colon.csv --method svmrfe > /tmp/ours.tsv
#   /usr/bin/python3 compute/score/testdata/svmrfe_formulations.py /tmp/ours.tsv
# (scikit-learn 1.2.1, Debian python3-sklearn). It writes colon_sklearn_svmrfe.txt and
# prints, for six SVM/schedule combinations, the top-50 overlap with WEKA and with
# Steadfast and the first position where the rankings part.
#
# Both rankings run RFE on standardised genes (sd with n - 1) with C = 1 and eliminate
# the genes of smallest w^2 (ties: lower index). They differ in two choices:
#   WEKA: SMO, hinge loss, bias not regularised (libsvm's SVC solves the same problem);
#         floor(0.1 (remaining + 1)) genes per round (the class attribute is counted).
#   Steadfast: LIBLINEAR's dual CD, squared hinge, bias regularised (LinearSVC);
#         max(1, floor(0.1 remaining)) genes per round.
import csv, os, sys
import numpy as np
from sklearn.svm import SVC, LinearSVC

here = os.path.dirname(os.path.abspath(__file__))
rows = list(csv.reader(open(os.path.join(here, '../../../../shared/data/colon.csv'))))
names = rows[0][:-1]
X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
classes = sorted(set(r[-1] for r in rows[1:]))
y = np.array([classes.index(r[-1]) for r in rows[1:]])
X = (X - X.mean(0)) / X.std(0, ddof=1)


def rfe(fit, schedule):
    remaining, left = list(range(X.shape[1])), X.shape[1]
    ranks = [None] * left
    while left > 0:
        w2 = fit(X[:, remaining]) ** 2
        drop = sorted(range(len(remaining)), key=lambda i: (w2[i], i))[:schedule(left)]
        for i in drop:
            left -= 1
            ranks[left] = remaining[i]
        gone = set(drop)
        remaining = [f for i, f in enumerate(remaining) if i not in gone]
    return [names[f] for f in ranks]


def weka_schedule(left):
    k = max(1, int((left + 1) * 0.1))
    return left - 1 if left > 1 and left - k <= 1 else k


def steadfast_schedule(left):
    return max(1, int(0.1 * left))


def smo(Z):
    return SVC(kernel='linear', C=1.0, tol=1e-6).fit(Z, y).coef_[0]


def liblinear(loss):
    return lambda Z: LinearSVC(loss=loss, C=1.0, tol=1e-8, max_iter=1000000).fit(Z, y).coef_[0]


weka = [l.split()[2] for l in open(os.path.join(here, 'colon_weka_svmrfe.txt'))
        if len(l.split()) == 3 and l.split()[0].isdigit()]
ours = [l.split('\t')[1] for l in open(sys.argv[1]).read().splitlines()]


def compare(a, b):
    parted = next((i + 1 for i in range(len(a)) if a[i] != b[i]), None)
    return '%2d/50, parts at %s' % (len(set(a[:50]) & set(b[:50])), parted or 'never')


for label, fit, schedule in [
        ('SMO (hinge, free bias), WEKA schedule', smo, weka_schedule),
        ('SMO (hinge, free bias), Steadfast schedule', smo, steadfast_schedule),
        ('LIBLINEAR hinge, WEKA schedule', liblinear('hinge'), weka_schedule),
        ('LIBLINEAR squared hinge, WEKA schedule', liblinear('squared_hinge'), weka_schedule),
        ('LIBLINEAR hinge, Steadfast schedule', liblinear('hinge'), steadfast_schedule),
        ('LIBLINEAR squared hinge, Steadfast schedule', liblinear('squared_hinge'), steadfast_schedule)]:
    r = rfe(fit, schedule)
    print('%-45s  vs WEKA %s;  vs Steadfast %s' % (label, compare(r, weka), compare(r, ours)))
    if fit is not smo and schedule is steadfast_schedule and 'squared' in label:
        with open(os.path.join(here, 'colon_sklearn_svmrfe.txt'), 'w') as f:
            f.write('# SVM-RFE of Colon by LinearSVC (squared hinge, C = 1, tol 1e-8), max(1, floor(0.1 remaining)) per round; best first\n')
            f.write('\n'.join(r) + '\n')
