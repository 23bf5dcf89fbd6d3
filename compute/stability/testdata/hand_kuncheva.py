# Kuncheva and Nogueira at k = 5, 10, 20, 50 from a saved run's resampled top-k lists,
# computed from the papers' formulas (Kuncheva 2007; Nogueira et al. 2018, eq. 4 with
# equal set sizes), next to Steadfast's stability-kuncheva.csv and stability-nogueira.csv.
import json, sys, csv
from itertools import combinations
d = json.load(open(sys.argv[1] + "/result.json"))["result"]
p = len(d["data"]["features"])
def table(name):
    rows = list(csv.reader(open(f"{sys.argv[1]}/stability-{name}.csv")))
    return {(r[0], int(r[1])): float(r[4]) for r in rows[1:] if r[3] != "expected"}
kt, nt = table("kuncheva"), table("nogueira")
print("method k kuncheva(hand) kuncheva(steadfast) nogueira(hand) nogueira(steadfast)")
for m in d["methods"]:
    runs = m["runs"]
    for k in (5, 10, 20, 50):
        ks = []
        for a, b in combinations(runs, 2):
            if a["group"] != b["group"]:
                continue
            c = len(set(a["order"][:k]) & set(b["order"][:k]))
            ks.append((c * p - k * k) / (k * (p - k)))
        kun = sum(ks) / len(ks)
        M = len(runs)
        h = {}
        for r in runs:
            for f in r["order"][:k]:
                h[f] = h.get(f, 0) + 1
        s2 = sum(M / (M - 1) * (x / M) * (1 - x / M) for x in h.values()) / p
        nog = 1 - s2 / (k / p * (1 - k / p))
        print(f"{m['label']} {k} {kun:.4f} {kt[(m['label'], k)]:.4f} {nog:.4f} {nt[(m['label'], k)]:.4f}")
