# MIDS sizes of Leukemia under Golub/Dudoit-style preprocessing (issue 4 note): values
# floored at FLOOR and capped at 16000, optionally only genes with max/min > 5 and
# max - min > 500 (--filter), then log10. From the repository root:
#   python3 compute/group/testdata/leukemia_floor.py 100 /tmp/leuk100.csv [--filter]
#   steadfast mids --data /tmp/leuk100.csv --epsilon 0.6
import math, os, sys
here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(here, '../../../../shared/data/')
floor, out_path = float(sys.argv[1]), sys.argv[2]
lines = open(data + 'leukemia.gct').read().splitlines()
classes = open(data + 'leukemia.cls').read().split('\n')[2].split()
samples = lines[2].split('\t')[2:]
rows = []
for l in lines[3:]:
    if not l.strip():
        continue
    f = l.split('\t')
    v = [min(max(float(x), floor), 16000) for x in f[2:]]
    if '--filter' in sys.argv and not (max(v) / min(v) > 5 and max(v) - min(v) > 500):
        continue
    rows.append((f[0], [math.log10(x) for x in v]))
with open(out_path, 'w') as out:
    out.write(','.join(['sample'] + [name for name, _ in rows] + ['class']) + '\n')
    for i, s in enumerate(samples):
        out.write(','.join([s] + ['%.6g' % v[i] for _, v in rows] + [classes[i]]) + '\n')
