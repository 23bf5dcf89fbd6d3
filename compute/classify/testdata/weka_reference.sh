#!/bin/sh
# Weka's predictions for TestWekaClassifiersMatchWeka: Colon's first 30 genes, the
# first 40 samples for training and the other 22 for testing; Weka 3.6.14 from Debian
# (apt-get install weka), its classifiers at their defaults: SMO (C = 1, linear kernel,
# attributes normalised to [0,1] on the training data) and IBk (k = 1, Euclidean
# distance on attributes scaled by their training range).
# Made with: sh compute/classify/testdata/weka_reference.sh > compute/classify/testdata/colon30_weka.tsv
# run from the repository root.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" <<'PY'
import csv, sys
rows = list(csv.reader(open('../shared/data/colon.csv')))
data = rows[1:]
classes = []
for r in data:
    if r[-1] not in classes:
        classes.append(r[-1])
def arff(name, part):
    with open(sys.argv[1] + '/' + name, 'w') as f:
        f.write('@relation colon30\n')
        for j in range(30):
            f.write('@attribute g%d numeric\n' % j)
        f.write('@attribute class {%s}\n@data\n' % ','.join(classes))
        for r in part:
            f.write(','.join(r[:30] + [r[-1]]) + '\n')
arff('train.arff', data[:40])
arff('test.arff', data[40:])
PY
for c in weka.classifiers.functions.SMO weka.classifiers.lazy.IBk; do
  java -cp /usr/share/java/weka.jar "$c" -t "$tmp/train.arff" -T "$tmp/test.arff" -p 0 |
    awk -v c="$c" '$1 ~ /^[0-9]+$/ { split($3, a, ":"); print c "\t" $1 "\t" a[2] }'
done
