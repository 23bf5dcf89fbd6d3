#!/bin/sh
# WEKA 3.6 SVM-RFE ranking of Colon for the issue-4 comparison (closing note), from the
# repository root: sh compute/score/testdata/make_weka_svmrfe.sh > /tmp/colon_weka_svmrfe.txt
# SVMAttributeEval: drop 10% of the remaining attributes per round (-Y 10) down to 1 (-Z 1),
# then one at a time; data standardised (-N 1); C = 1.
set -e
tmp=$(mktemp -d)
python3 - "$tmp/colon.arff" <<'PY'
import csv, sys
rows = list(csv.reader(open('../shared/data/colon.csv')))
with open(sys.argv[1], 'w') as f:
    f.write('@relation colon\n')
    for h in rows[0][:-1]:
        f.write("@attribute '%s' numeric\n" % h)
    f.write('@attribute class {%s}\n' % ','.join(sorted(set(r[-1] for r in rows[1:]))))
    f.write('@data\n')
    for r in rows[1:]:
        f.write(','.join(r) + '\n')
PY
java -Xmx2g -cp /usr/share/java/weka.jar weka.attributeSelection.SVMAttributeEval -X 1 -Y 10 -Z 1 -P 1.0E-25 -T 1.0E-10 -C 1.0 -N 1 -i "$tmp/colon.arff" -s "weka.attributeSelection.Ranker -T -1.8E308 -N -1"
rm -r "$tmp"
