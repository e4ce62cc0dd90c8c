#!/usr/bin/env python3
"""Random multi-mode RCPSP instances for mrcpsp.mzn:
python3 gen.py N SEED > file.dzn.

Three modes per task, durations 1..10, three resources of capacity 6..10;
a task's modes trade time for resources (a shorter mode demands more),
demands 0..6 (about a third zero); each task preceded by up to two
earlier tasks."""
import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
nres, nmodes = 3, 3
cap = [rng.randint(6, 10) for _ in range(nres)]
mdur, mreq = [], [[] for _ in range(nres)]
for i in range(n):
    base = rng.randint(2, 8)
    durs = sorted({max(1, min(10, base + rng.randint(-2, 2))) for _ in range(nmodes)})
    while len(durs) < nmodes:
        durs.append(durs[-1] + 1)
    mdur.append(durs)
    for k in range(nres):
        if rng.random() < 1 / 3:
            mreq[k].append([0] * nmodes)
        else:
            top = rng.randint(2, 6)
            # Longer modes demand less.
            mreq[k].append([max(1, top - m) for m in range(nmodes)])
pred = []
for j in range(1, n):
    for i in rng.sample(range(j), min(j, rng.randint(0, 2))):
        pred.append((i + 1, j + 1))
print(f"n = {n};\nnres = {nres};\nnmodes = {nmodes};\ncap = {cap};")
print("mdur = [|" + "\n      |".join(", ".join(map(str, r)) for r in mdur) + "|];")
flat = [v for k in range(nres) for i in range(n) for v in mreq[k][i]]
print(f"mreq = array3d(1..{nres}, 1..{n}, 1..{nmodes}, {flat});")
print(f"npred = {len(pred)};")
print(f"before = {[p[0] for p in pred]};\nafter = {[p[1] for p in pred]};")
