#!/bin/sh
# WEKA 3.6 references: TestInfoGainMatchesWEKA, TestReliefFMatchesWEKA, and the SVM-RFE
# ranking compared in the issue-4 note (SVMAttributeEval: 10% of the remaining attributes
# per round (-Y 10) down to 1 (-Z 1), data standardised (-N 1), C = 1; svmrfe_formulations.py
# explains its differences from Steadfast).
# Made with (Debian package weka 3.6.14), from the repository root:
#   sh compute/score/testdata/make_weka_reference.sh
set -e
out=compute/score/testdata
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
java -Xmx2g -cp /usr/share/java/weka.jar weka.attributeSelection.InfoGainAttributeEval -i "$tmp/colon.arff" -s "weka.attributeSelection.Ranker -T -1.8E308 -N -1" > "$out/colon_weka_infogain.txt"
java -Xmx2g -cp /usr/share/java/weka.jar weka.attributeSelection.ReliefFAttributeEval -M -1 -D 1 -K 10 -i "$tmp/colon.arff" -s "weka.attributeSelection.Ranker -T -1.8E308 -N -1" > "$out/colon_weka_relieff.txt"
java -Xmx2g -cp /usr/share/java/weka.jar weka.attributeSelection.SVMAttributeEval -X 1 -Y 10 -Z 1 -P 1.0E-25 -T 1.0E-10 -C 1.0 -N 1 -i "$tmp/colon.arff" -s "weka.attributeSelection.Ranker -T -1.8E308 -N -1" > "$out/colon_weka_svmrfe.txt"
rm -r "$tmp"
