#!/usr/bin/env bash
# Regenerates the command outputs the docs show (DOCS_BLESS=1, see
# tests/docs.rs), then masks again the figures that vary from run to run:
# the `time:` and `(wall …)` fields of statistics lines in console blocks.
# Review the diff afterwards: other masks and `...` elisions the bless
# dropped must be put back by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
DOCS_BLESS=1 cargo test --test docs || true
python3 - <<'PY'
import glob, re
for p in ['README.md'] + sorted(glob.glob('docs/*.md')):
    s = open(p).read()
    out, inside = [], False
    for line in s.split('\n'):
        st = line.strip()
        if st.startswith('```'):
            inside = (st == '```console') if not inside else False
        elif inside and not st.startswith('$ '):
            line = re.sub(r'time: \d+\.\d+ ms', 'time: [..]', line)
            line = re.sub(r'\(wall \d+\.\d+ s\)', '(wall [..])', line)
        out.append(line)
    t = '\n'.join(out)
    if t != s:
        open(p, 'w').write(t)
        print('masked times in', p)
PY
cargo test --test docs
