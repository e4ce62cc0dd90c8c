#!/usr/bin/env python3
"""Random RCPSP instances for rcpsp.mzn: python3 gen.py N SEED > file.dzn.

Durations 1..10, four resources of capacity 6..10, demands 0..5 (about
half zero), each task preceded by up to two earlier tasks."""
import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
nres = 4
cap = [rng.randint(6, 10) for _ in range(nres)]
dur = [rng.randint(1, 10) for _ in range(n)]
req = [[rng.randint(1, 5) if rng.random() < 0.5 else 0 for _ in range(n)] for _ in range(nres)]
pred = []
for j in range(1, n):
    for i in rng.sample(range(j), min(j, rng.randint(0, 2))):
        pred.append((i + 1, j + 1))
print(f"n = {n};\nnres = {nres};\ncap = {cap};\ndur = {dur};")
print("req = [|" + "\n     |".join(", ".join(map(str, r)) for r in req) + "|];")
print(f"npred = {len(pred)};")
print(f"before = {[p[0] for p in pred]};\nafter = {[p[1] for p in pred]};")
