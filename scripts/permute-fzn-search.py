#!/usr/bin/env python3
"""Permute the variables of a FlatZinc model's search annotation.

usage: scripts/permute-fzn-search.py IN.fzn SEED OUT.fzn ARRAY...

Each ARRAY names an array of the same length whose name the solve item's
`int_search(ARRAY, ...)` uses (for the multi-mode RCPSP model:
`adur start`). The script shuffles the positions with Python's
random.Random(SEED), the same shuffle for every ARRAY (so a task's
duration and start keep the same rank), and writes the solve item with the
shuffled arrays as literals. Only the order of ties changes: `smallest`
still picks the smallest minimum, now breaking ties in another order.
Used to tell a solver's systematic gap from its tie-breaking luck
(docs/benchmarks.md, "Multi-mode j30_1_1 against Huub: where the
failures go").
"""
import random
import re
import sys

src, seed, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = sys.argv[4:]
text = open(src).read()
arrays = {}
for name in names:
    m = re.search(r"^array \[1\.\.(\d+)\] of var int: %s\b[^=]*= \[([^\]]*)\];" % re.escape(name),
                  text, re.M)
    if not m:
        sys.exit(f"no array {name} in {src}")
    arrays[name] = m.group(2).split(",")
lengths = {len(a) for a in arrays.values()}
if len(lengths) != 1:
    sys.exit("the arrays differ in length")
perm = list(range(lengths.pop()))
random.Random(seed).shuffle(perm)
for name, items in arrays.items():
    literal = "[" + ",".join(items[i] for i in perm) + "]"
    text = text.replace(f"int_search({name},", f"int_search({literal},")
open(out, "w").write(text)
