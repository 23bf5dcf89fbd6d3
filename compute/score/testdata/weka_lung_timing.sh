#!/bin/sh
# WEKA 3.6 side of the issue-4 speed comparison on the Lung-sized synthetic set, from the
# repository root:
#   steadfast synth --features 12533 --samples 181 --seed 1 -o /tmp/lung.csv
#   sh compute/score/testdata/weka_lung_timing.sh /tmp/lung.csv
# Prints each evaluator's wall time (including WEKA's ARFF loading, timed separately first).
set -e
tmp=$(mktemp -d)
python3 - "$1" "$tmp/lung.arff" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
with open(sys.argv[2], 'w') as f:
    f.write('@relation lung\n')
    for h in rows[0][1:-1]:
        f.write("@attribute '%s' numeric\n" % h)
    f.write('@attribute class {%s}\n' % ','.join(sorted(set(r[-1] for r in rows[1:]))))
    f.write('@data\n')
    for r in rows[1:]:
        f.write(','.join(r[1:]) + '\n')
PY
t() { s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$(echo "$e - $s" | bc) s"; }
W="java -Xmx8g -cp /usr/share/java/weka.jar"
R='weka.attributeSelection.Ranker -T -1.8E308 -N -1'
echo "load only (CfsSubsetEval is not run; weka.core.converters): $(t $W weka.core.Instances "$tmp/lung.arff")"
echo "InfoGainAttributeEval: $(t $W weka.attributeSelection.InfoGainAttributeEval -i "$tmp/lung.arff" -s "$R")"
echo "ReliefFAttributeEval -M -1 -K 10: $(t $W weka.attributeSelection.ReliefFAttributeEval -M -1 -K 10 -i "$tmp/lung.arff" -s "$R")"
echo "SVMAttributeEval -Y 10 -Z 1 -N 1: $(t $W weka.attributeSelection.SVMAttributeEval -X 1 -Y 10 -Z 1 -N 1 -i "$tmp/lung.arff" -s "$R")"
rm -r "$tmp"
