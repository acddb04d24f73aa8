#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer and runs each one in turn.
#
#   scripts/fuzz.sh [--seconds N] [TARGET...]
#
# TARGET is FuzzFeedParser, FuzzHTMLText, FuzzFeedDate, FuzzFeedNumbers or FuzzOPMLReader
# (the "Fuzz" may be left out); all of them by default. Each runs N seconds (default 30) under
# `nice -n 19`, one after the other. Seeds come from SampleFeeds/, ../shared/corpus and
# Tests/FuzzRegressions/ and are copied under the work folder at each run; the corpus each
# target grows is kept there between runs.
#
# Work folder: $FUZZ_DIR, default .build-fuzz/fuzz:
#   corpus/TARGET/    what the fuzzer found interesting (kept between runs)
#   findings/TARGET/  inputs that crashed, leaked, timed out or ran out of memory
#   logs/TARGET.log   libFuzzer's output of the last run
#   runs.tsv          one line per run: date, target, seconds, executions, result
#
# Prints one summary line per target; exits 1 when any target found something (the input
# is left in findings/TARGET/), 2 on a usage error. Replay a finding with the plain build:
#   swift build --product TARGET && .build/debug/TARGET FILE
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(FuzzFeedParser FuzzHTMLText FuzzFeedDate FuzzFeedNumbers FuzzOPMLReader)
seconds=30
targets=()
while (($#)); do
  case "$1" in
  --seconds)
    [[ $# -ge 2 && "$2" =~ ^[0-9]+$ && "$2" -gt 0 ]] || {
      echo "fuzz.sh: --seconds needs a positive whole number" >&2
      exit 2
    }
    seconds=$2
    shift 2
    ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "fuzz.sh: unknown option $1" >&2
    exit 2
    ;;
  *)
    name=$1
    [[ $name == Fuzz* ]] || name=Fuzz$name
    if [[ " ${all_targets[*]} " != *" $name "* ]]; then
      echo "fuzz.sh: unknown target $1 (targets: ${all_targets[*]})" >&2
      exit 2
    fi
    targets+=("$name")
    shift
    ;;
  esac
done
((${#targets[@]})) || targets=("${all_targets[@]}")

scratch=.build-fuzz
work=${FUZZ_DIR:-$scratch/fuzz}
corpus=../shared/corpus
mkdir -p "$work/logs"

# Inputs longer than this are cut: a feed needs room for a few items, a date does not.
max_len() {
  case "$1" in
  FuzzFeedParser) echo 32768 ;;
  FuzzHTMLText) echo 8192 ;;
  FuzzFeedDate) echo 128 ;;
  FuzzFeedNumbers) echo 64 ;;
  FuzzOPMLReader) echo 16384 ;;
  esac
}

# Writes each line of stdin to its own file in folder $1.
lines_to_files() {
  local n=0 line
  while IFS= read -r line; do
    printf '%s' "$line" >"$1/line-$n"
    n=$((n + 1))
  done
}

# The values of the elements and attributes named in $1 (an extended regex), from the corpus
# and the sample feeds.
values_of() {
  grep -rohE "<($1)>[^<]{1,100}<" SampleFeeds "$corpus" 2>/dev/null |
    sed -E 's/^<[^>]*>//; s/<$//' | sort -u | head -n 3000 || true
}

seed() {
  local target=$1 dir=$2 file n=0
  rm -rf "$dir"
  mkdir -p "$dir"
  case "$target" in
  FuzzFeedParser)
    # The first byte of an input says where to cut the document in two (in 255ths).
    while IFS= read -r -d '' file; do
      { printf '\x80'; head -c 32767 "$file"; } >"$dir/feed-$n"
      n=$((n + 1))
    done < <(find SampleFeeds "$corpus/podcasts" "$corpus/feedparser" -type f \
      \( -name '*.xml' -o -name '*.rdf' -o -name '*.atom' \) -print0 2>/dev/null)
    ;;
  FuzzHTMLText)
    python3 - "$dir" <<'EOF'
import json, pathlib, sys
cases = json.loads(pathlib.Path("Tests/FeedViewsTests/Fixtures/html-reference.json").read_text())
for n, case in enumerate(cases):
    pathlib.Path(sys.argv[1], f"html-{n}").write_text(case["input"], encoding="utf-8")
EOF
    values_of 'description|itunes:summary|content:encoded|title' | lines_to_files "$dir"
    ;;
  FuzzFeedDate)
    values_of 'pubDate|lastBuildDate|dc:date|published|updated|modified|issued|created' |
      lines_to_files "$dir"
    ;;
  FuzzFeedNumbers)
    {
      values_of 'itunes:duration|itunes:season|itunes:episode|itunes:explicit'
      grep -rohE 'length="[^"]{1,30}"' SampleFeeds "$corpus" 2>/dev/null |
        sed -E 's/^length="//; s/"$//' | sort -u | head -n 1000 || true
    } | lines_to_files "$dir"
    ;;
  FuzzOPMLReader)
    find "$corpus/opml" -type f -name '*.opml' -exec cp {} "$dir"/ \; 2>/dev/null || true
    ;;
  esac
  if [[ -d Tests/FuzzRegressions/$target ]]; then
    cp Tests/FuzzRegressions/"$target"/* "$dir"/ 2>/dev/null || true
  fi
}

# One dictionary line; backslash escapes such as \x1b are libFuzzer's to read.
entry() {
  printf '"%s"\n' "${1//\"/\\\"}"
}

# Tokens worth trying together; libFuzzer would find them slowly one byte at a time.
dictionary() {
  case "$1" in
  FuzzFeedParser)
    for token in '<?xml version="1.0"' ' encoding="' 'UTF-16' 'ISO-8859-1' 'windows-1252' \
      '<rss version="2.0">' '<channel>' '<item>' '</item>' '<title>' '<description>' \
      '<enclosure url="' ' length="' ' type="' '<guid isPermaLink="false">' '<pubDate>' \
      '<link>' '<feed xmlns="http://www.w3.org/2005/Atom">' '<entry>' '<link rel="' ' href="' \
      '<rdf:RDF' 'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"' '<itunes:duration>' \
      'xmlns:podcast="https://podcastindex.org/namespace/1.0"' '<podcast:guid>' \
      '<podcast:transcript url="' '<![CDATA[' ']]>' '<!--' '-->' '<!DOCTYPE' '<!ENTITY' \
      '&amp;' '&nbsp;' '&#x' '&#' 'xml:base="' 'xml:lang="' '<content:encoded>' '<itunes:image href="'; do
      entry "$token"
    done
    ;;
  FuzzHTMLText)
    for token in '<p>' '</p>' '<br>' '<br/>' '<script>' '</script>' '<style>' '</style>' \
      '<!--' '-->' '<![CDATA[' ']]>' '<div class="' '&amp;' '&nbsp;' '&#x' '&#' '&lt' \
      '\x1b[' '\x1b]' '\x07' '\xc2\x9b' '\xc2\x85' '\xe2\x80\xae' '\xe2\x81\xa6' '\xe2\x80\xa8'; do
      entry "$token"
    done
    ;;
  FuzzFeedDate)
    for token in 'Tue, ' 'Thurs' 'March' ' GMT' ' +0000' 'Z' 'T' '-' ':' ' PST' ' EDT' 'UTC-05:00' \
      'AM' 'PM' '(GMT)' '2024' '24:00' ':60' '.123'; do
      entry "$token"
    done
    ;;
  FuzzOPMLReader)
    for token in '<?xml version="1.0"' ' encoding="' '<opml version="2.0">' '</opml>' '<head>' \
      '<title>' '<body>' '</body>' '<outline ' '</outline>' ' type="rss"' ' xmlUrl="' ' url="' \
      ' htmlUrl="' ' text="' ' title="' '/>' 'http://' 'https://' 'feed://' 'itpc://' \
      'feed:https://' 'user:secret@' '&amp;' '&nbsp;' '&#x' '<!ENTITY' '<![CDATA['; do
      entry "$token"
    done
    ;;
  FuzzFeedNumbers)
    for token in ':' '.' ',' '\xc2\xa0' 'yes' 'explicit' 'clean' '9223372036854775807'; do
      entry "$token"
    done
    ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  log=$work/logs/$target.log
  findings=$work/findings/$target
  mkdir -p "$work/corpus/$target" "$findings"
  if ! nice -n 19 swift build -c release --product "$target" --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING >"$log" 2>&1; then
    echo "$target: build failed, see $log" >&2
    exit 1
  fi
  seed "$target" "$work/seeds/$target"
  dictionary "$target" >"$work/$target.dict"
  start=$(date +%s)
  # Swift's backtracer would fight the sanitizer's own report for a crash.
  set +e
  SWIFT_BACKTRACE=enable=no nice -n 19 "$scratch/release/$target" \
    -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -dict="$work/$target.dict" \
    -artifact_prefix="$findings/" "$work/corpus/$target" "$work/seeds/$target" >>"$log" 2>&1
  code=$?
  set -e
  elapsed=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  execs=${execs:-0}
  found=$(find "$findings" -type f -newer "$work/$target.dict" | sort)
  if ((code == 0)); then
    result=none
  elif [[ -n $found ]]; then
    result="$(basename -a $found | sed 's/-.*//' | sort -u | paste -sd, -) in $(echo "$found" | paste -sd' ' -)"
    status=1
  else
    result="libFuzzer exited with status $code, see $log"
    status=1
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$elapsed" "$execs" \
    "${result%% *}" >>"$work/runs.tsv"
  printf '%-16s %5d s %10d execs %6d/s  corpus %5d  found: %s\n' "$target" "$elapsed" \
    "$execs" "$((execs / (elapsed > 0 ? elapsed : 1)))" \
    "$(find "$work/corpus/$target" -type f | wc -l)" "$result"
done
exit $status
