#!/usr/bin/env python3
"""Split a labelled CSV (one row per sample, a header, the class in a column named
"class") into two stratified halves: within each class the rows are shuffled with a
fixed seed and the first half (rounded down) goes to the training file, the rest to
the cohort file. Standard library only.

    python3 scripts/stratified-halves.py DATA.csv TRAIN.csv COHORT.csv [SEED]
"""
import csv
import random
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    src, train_path, cohort_path = sys.argv[1:4]
    seed = int(sys.argv[4]) if len(sys.argv) == 5 else 2026
    with open(src, newline="") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    if "class" not in head:
        sys.exit(f"{src}: no column named class")
    ci = head.index("class")
    rng = random.Random(seed)
    train, cohort = [], []
    for cls in sorted({r[ci] for r in body}):
        members = [r for r in body if r[ci] == cls]
        rng.shuffle(members)
        half = len(members) // 2
        train += members[:half]
        cohort += members[half:]
    for path, part in ((train_path, train), (cohort_path, cohort)):
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(head)
            w.writerows(part)
    print(f"{len(train)} training samples in {train_path}, {len(cohort)} in {cohort_path}")


if __name__ == "__main__":
    main()
