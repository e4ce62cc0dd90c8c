#!/usr/bin/env python3
"""Compare `csp sudoku --rate` with HoDoKu 2.2.0's ratings on puzzle files.

    scripts/compare-hodoku.py [-n N] [--csp PATH] FILE...

For each file, rates its first N puzzles (81-character lines; other lines
are skipped) with both programs and prints a Markdown table row: how many
puzzles got the same level, the confusion of levels, the Spearman rank
correlation of the scores, and the median score ratio (ours / HoDoKu's).
HoDoKu runs through ../shared/reference/hodoku/run.sh (Java 17). Puzzles
that HoDoKu solves only by guessing or templates, or that we leave to
search, are counted apart.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]


def puzzles(path, n):
    out = []
    with open(path) as f:
        for line in f:
            s = line.strip().split()[0] if line.strip() else ""
            s = s.replace(".", "0")
            if len(s) == 81 and s.isdigit():
                out.append(s)
                if len(out) == n:
                    break
    return out


def hodoku(folder, name, root):
    run = os.path.join(root, "..", "shared", "reference", "hodoku", "run.sh")
    text = subprocess.run(
        ["bash", run, os.path.join(folder, name)], capture_output=True, text=True, check=True
    ).stdout
    rated = {}
    for line in text.splitlines():
        m = re.match(r"^\d{81} #(\d+) (\w+) \((\d+)\)", line)
        if m:
            rated[int(m.group(1))] = (m.group(2).lower(), int(m.group(3)))
    return rated


def ours(csp, path):
    text = subprocess.run(
        [csp, "sudoku", path, "--rate", "--format", "json"], capture_output=True, text=True
    ).stdout
    rated = {}
    for line in text.splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "level" in r and "score" in r:
            rated[r["puzzle"]] = (r["level"], r["score"])
    return rated


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--csp", default="target/release/csp")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print("| file | puzzles | same level | levels (HoDoKu → ours, where they differ) "
          "| Spearman (scores) | median score ratio | not rated |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for path in a.files:
        ps = puzzles(path, a.n)
        with tempfile.TemporaryDirectory() as d:
            name = "p.txt"
            with open(os.path.join(d, name), "w") as f:
                f.write("\n".join(ps) + "\n")
            theirs = hodoku(d, name, root)
            mine = ours(a.csp, os.path.join(d, name))
        both = [k for k in range(1, len(ps) + 1) if k in theirs and k in mine]
        same = sum(1 for k in both if theirs[k][0] == mine[k][0])
        diff = {}
        for k in both:
            if theirs[k][0] != mine[k][0]:
                key = f"{theirs[k][0]} → {mine[k][0]}"
                diff[key] = diff.get(key, 0) + 1
        rho = spearman([theirs[k][1] for k in both], [mine[k][1] for k in both]) if both else float("nan")
        ratios = sorted(mine[k][1] / theirs[k][1] for k in both if theirs[k][1])
        med = ratios[len(ratios) // 2] if ratios else float("nan")
        dtext = ", ".join(f"{k}: {v}" for k, v in sorted(diff.items(), key=lambda kv: -kv[1])) or "—"
        print(f"| `{os.path.basename(path)}` | {len(both)} | {same} ({100 * same / max(1, len(both)):.0f} %) "
              f"| {dtext} | {rho:.3f} | {med:.2f} | {len(ps) - len(both)} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
