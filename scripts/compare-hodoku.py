#!/usr/bin/env python3
"""Compare `csp sudoku --rate` with HoDoKu 2.2.0's ratings on puzzle files.

    scripts/compare-hodoku.py [-n N] [--csp PATH] FILE...
    scripts/compare-hodoku.py --time R [--explain] [-n N] [--csp PATH] FILE...

For each file, rates its first N puzzles (81-character lines; other lines
are skipped) with both programs and prints a Markdown table row: how many
puzzles got the same level, the confusion of levels, the Spearman rank
correlation of the scores, and the median score ratio (ours / HoDoKu's).
HoDoKu runs through ../shared/reference/hodoku/run.sh (Java 17). Puzzles
that HoDoKu solves only by guessing or templates, or that we leave to
search, are counted apart.

With --time R it times the two instead, on the same files, R rounds: in
each round HoDoKu's batch rating (`run.sh FILE`) and `csp sudoku FILE
--rate` (with --explain: HoDoKu's solution path, `run.sh --path FILE`, and
`csp sudoku FILE --explain`), each pinned to core 0 (`taskset -c 0`), one
after the other, the order alternating between rounds. Each program also
rates a file of the first puzzle alone, and a puzzle's time is
(time of the file - time of the one-puzzle file) / (puzzles - 1): this
takes out the JVM's start-up (about 0.5 s) and csp's. Times are CPU
times (user + system of the process and all it started: the JVM's JIT
and GC threads count), which other processes on a loaded machine change
less than wall time; the wall times go to stderr. Every run must print
one answer per puzzle. Prints a Markdown table: per-puzzle mean, best
and median of the R rounds, for each program, and the ratio HoDoKu /
csp; the load average before and after each file on stderr.
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

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


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, cwd, answers, pattern):
    """Runs `cmd` pinned to core 0; its CPU time (user + system, of every
    process it started: the JVM's threads, csp) and its wall time, in
    seconds. Fails unless stdout has `answers` lines matching `pattern`."""
    c, t = cpu_children(), time.perf_counter()
    out = subprocess.run(["taskset", "-c", "0"] + cmd, cwd=cwd, capture_output=True, text=True)
    dt, dc = time.perf_counter() - t, cpu_children() - c
    got = sum(1 for line in out.stdout.splitlines() if re.match(pattern, line))
    if out.returncode != 0 or got != answers:
        sys.exit(f"{' '.join(cmd)}: exit {out.returncode}, {got} answers of {answers}\n{out.stderr[-2000:]}")
    return dc, dt


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def speed(a, root):
    run = os.path.join(root, "..", "shared", "reference", "hodoku", "run.sh")
    csp = os.path.abspath(a.csp)
    mode = "--explain" if a.explain else "--rate"
    # One answer line per puzzle: HoDoKu's rating line (also with --path),
    # csp's rating, or the last line of an explanation.
    theirs_answer = r"^\d{81} #\d+ "
    ours_answer = r"^(Solved \(|No technique|no solution)" if a.explain else r"^\w+: score"
    what = "solution path (`run.sh --path`) vs `csp sudoku --explain`" if a.explain \
        else "batch rating (`run.sh`) vs `csp sudoku --rate`"
    print(f"{what}; CPU ms per puzzle, best / median of {a.time} rounds, pinned to one core")
    print()
    print("| file | puzzles | HoDoKu best | HoDoKu median | csp best | csp median "
          "| HoDoKu / csp (best) | HoDoKu / csp (median) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in a.files:
        ps = puzzles(path, a.n)
        n = len(ps)
        if n < 2:
            sys.exit(f"{path}: fewer than two puzzles")
        before = load()
        per = {"hodoku": [], "csp": []}
        wall = {"hodoku": [], "csp": []}
        with tempfile.TemporaryDirectory() as d:
            for name, rows in (("p.txt", ps), ("one.txt", ps[:1])):
                with open(os.path.join(d, name), "w") as f:
                    f.write("\n".join(rows) + "\n")
            hodoku_cmd = ["bash", run] + (["--path"] if a.explain else [])
            sides = {
                "hodoku": lambda name, k: timed(hodoku_cmd + [os.path.join(d, name)], d, k, theirs_answer),
                "csp": lambda name, k: timed([csp, "sudoku", name, mode], d, k, ours_answer),
            }
            for r in range(a.time):
                order = ["hodoku", "csp"] if r % 2 == 0 else ["csp", "hodoku"]
                for side in order:
                    c_all, w_all = sides[side]("p.txt", n)
                    c_one, w_one = sides[side]("one.txt", 1)
                    per[side].append((c_all - c_one) / (n - 1))
                    wall[side].append((w_all - w_one) / (n - 1))
        after = load()
        ms = {k: [1000 * x for x in v] for k, v in per.items()}
        wms = {k: [round(1000 * x, 2) for x in v] for k, v in wall.items()}
        hb, hm = min(ms["hodoku"]), statistics.median(ms["hodoku"])
        cb, cm = min(ms["csp"]), statistics.median(ms["csp"])
        print(f"| `{os.path.basename(path)}` | {n} | {hb:.2f} | {hm:.2f} | {cb:.2f} | {cm:.2f} "
              f"| {hb / cb:.1f} | {hm / cm:.1f} |")
        print(f"{os.path.basename(path)}: load {before} before, {after} after; rounds (ms/puzzle), "
              f"CPU: HoDoKu {[round(x, 2) for x in ms['hodoku']]}, csp {[round(x, 2) for x in ms['csp']]}; "
              f"wall: HoDoKu {wms['hodoku']}, csp {wms['csp']}",
              file=sys.stderr)
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--csp", default="target/release/csp")
    ap.add_argument("--time", type=int, metavar="R", help="time the two programs, R rounds")
    ap.add_argument("--explain", action="store_true", help="with --time: the solution paths")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if a.time:
        speed(a, root)
        return
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
