#!/usr/bin/env bash
# Agreement with Python's feedparser on ../shared/corpus/podcasts: runs compare.py (from
# ../shared/conformance) against the built binary, with the excuses in conformance/excuses.tsv.
# Fails when a file crashes, hangs or fails, or when agreement drops below the bar.
#   scripts/conformance.sh [--bar PERCENT] [DIR...]
set -euo pipefail
cd "$(dirname "$0")/.."
bar=99
if [ "${1:-}" = "--bar" ]; then bar=$2; shift 2; fi
shared=${PODCASTS_SHARED:-../shared}
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=("$shared/corpus/podcasts")
venv=.build/conformance-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet feedparser==6.0.14
fi
swift build --product podcasts
binary=$(swift build --show-bin-path)/podcasts
report=.build/conformance-report.json
set +e
"$venv/bin/python" "$shared/conformance/compare.py" --cmd "$binary parse {file} --json" \
  --excuses conformance/excuses.tsv --report "$report" "${dirs[@]}" | tee .build/conformance.txt
set -e
"$venv/bin/python" - "$report" "$bar" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
bar = float(sys.argv[2])
bad = {s: n for s, n in report['statuses'].items() if s in ('crash', 'timeout', 'fail', 'tool-error')}
passed, failed = report['passed'], report['failed']
share = 100.0 * passed / max(1, passed + failed)
print('conformance: %.2f%% of compared fields agree (bar %.2f%%); runs that failed: %s' % (share, bar, bad or 'none'))
sys.exit(0 if share >= bar and not bad else 1)
PY
