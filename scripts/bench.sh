#!/usr/bin/env bash
# The benchmark suite. What each figure means and how to read the table: BENCHMARKS.md.
#
#   scripts/bench.sh [--quick] [--sizes 1000,10000,50000] [--binary PATH]
#                    [--feeds 1865,launched] [--peers LIST] [--runs N]
#                    [--only parse,inprocess,...] [--corpus DIR]
#
# Not part of the test run. A figure whose tool, binary or subcommand is missing
# is skipped with a message; the others still run.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HERE="$ROOT/scripts/bench"
DATA="${BENCH_DATA:-$ROOT/bench-data}"
CORPUS="${PODCASTS_CORPUS:-$ROOT/../shared/corpus}"
SIZES="1000,10000,50000"
FEEDS="1865,launched"
PEER_LIST="fastfeedparser,podcastparser,feedparser"
ONLY="parse,inprocess,add,queries,refresh,startup"
QUICK=0
BINARY=""
ROUNDS=""
INVOCATION="$0${*:+ $*}"

usage() {
    sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    cat <<'EOF'
Options:
  --quick          fewer runs, smaller catalog and refresh figures (use while developing)
  --sizes LIST     items per generated feed (default 1000,10000,50000)
  --binary PATH    the podcasts binary to measure (default: swift build -c release
                   --static-swift-stdlib, then .build/release/podcasts); PodcastsBench
                   and CatalogHarness are taken from the same folder
  --feeds LIST     source feeds from CORPUS/podcasts (default 1865,launched)
  --peers LIST     Python parsers to compare with (default
                   fastfeedparser,podcastparser,feedparser; none for none)
  --runs N         interleaved rounds per figure (default 5, --quick 3)
  --only LIST      figures: parse,inprocess,add,queries,refresh,startup (default all)
  --corpus DIR     the shared corpus (default ../shared/corpus from the repo root,
                   or $PODCASTS_CORPUS)
Results: bench-data/results/<date>/summary.md (and the raw hyperfine JSON beside it).
EOF
}

while (($#)); do
    case "$1" in
    --quick) QUICK=1 ;;
    --sizes) SIZES="${2:?--sizes needs a list}"; shift ;;
    --sizes=*) SIZES="${1#*=}" ;;
    --binary) BINARY="${2:?--binary needs a path}"; shift ;;
    --binary=*) BINARY="${1#*=}" ;;
    --feeds) FEEDS="${2:?--feeds needs a list}"; shift ;;
    --feeds=*) FEEDS="${1#*=}" ;;
    --peers) PEER_LIST="${2:?--peers needs a list}"; shift ;;
    --peers=*) PEER_LIST="${1#*=}" ;;
    --runs) ROUNDS="${2:?--runs needs a number}"; shift ;;
    --runs=*) ROUNDS="${1#*=}" ;;
    --only) ONLY="${2:?--only needs a list}"; shift ;;
    --only=*) ONLY="${1#*=}" ;;
    --corpus) CORPUS="${2:?--corpus needs a folder}"; shift ;;
    --corpus=*) CORPUS="${1#*=}" ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bench: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

if ((QUICK)); then
    : "${ROUNDS:=3}"
    SLOW_SECONDS=10      # slower than this once: measured by that single run only
    ROUND_BUDGET=0.3     # seconds of runs per command per round, for fast commands
    CATALOG_PODCASTS=100 # queries figure: podcasts x episodes in the catalog
    REFRESH_FEEDS=100
else
    : "${ROUNDS:=5}"
    SLOW_SECONDS=60
    ROUND_BUDGET=1
    CATALOG_PODCASTS=1000
    REFRESH_FEEDS=500
fi
CATALOG_EPISODES=1000 # per podcast
REFRESH_ITEMS=100     # per refreshed feed
REFRESH_SOURCES=(1865 launched)
# `podcasts refresh --jobs` (8 is its default); newsboat gets as many reload threads.
JOBS=8

IFS=, read -r -a SIZE_LIST <<<"$SIZES"
IFS=, read -r -a FEED_LIST <<<"$FEEDS"
PEERS=()
[[ "$PEER_LIST" == none ]] || IFS=, read -r -a PEERS <<<"$PEER_LIST"
for n in "${SIZE_LIST[@]}"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "bench: --sizes: '$n' is not a positive number" >&2; exit 2; }
done
for p in "${PEERS[@]}"; do
    [[ -f "$ROOT/bench/peers/${p}_parse.py" ]] || { echo "bench: --peers: no bench/peers/${p}_parse.py" >&2; exit 2; }
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "bench: --runs: '$ROUNDS' is not a positive number" >&2; exit 2; }

OUT="$DATA/results/$(date -u +%Y%m%dT%H%M%SZ)"
TMP="$OUT/tmp"
mkdir -p "$OUT" "$TMP" "$DATA/bin" "$DATA/feeds"
: >"$OUT/groups.tsv"
: >"$OUT/figures.tsv"
: >"$OUT/samples.tsv"
printf '%s\n' "$INVOCATION" >"$OUT/command.txt"

say() { printf 'bench: %s\n' "$*" >&2; }
skip() { printf 'bench: skip %s\n' "$*" >&2; printf '%s\n' "$*" >>"$OUT/skipped.txt"; }
wants() { [[ ",$ONLY," == *",$1,"* ]]; }

CLEANUP=()
cleanup() {
    local c
    for c in "${CLEANUP[@]}"; do eval "$c"; done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- tools --------------------------------------------------------------------

APT_UPDATED=0
apt_install() { # apt_install PACKAGE: install a Debian package when we may
    command -v apt-get >/dev/null && ((EUID == 0)) || return 1
    say "installing $1 (apt)"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >"$TMP/apt.log" 2>&1; then
        ((APT_UPDATED)) && return 1
        APT_UPDATED=1
        apt-get update -qq >>"$TMP/apt.log" 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >>"$TMP/apt.log" 2>&1 || return 1
    fi
}
need() { # need COMMAND PACKAGE
    command -v "$1" >/dev/null || apt_install "$2"
    command -v "$1" >/dev/null
}

need hyperfine hyperfine || { echo "bench: hyperfine is required (apt-get install hyperfine)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || apt_install time
[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time is required (apt-get install time)" >&2; exit 1; }
need python3 python3 || { echo "bench: python3 is required" >&2; exit 1; }

q() { # quote one word for hyperfine's command splitting and for eval
    if [[ "$1" =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then printf '%s' "$1"; else printf "'%s'" "${1//\'/\'\\\'\'}"; fi
}
cmdline() { local w s=""; for w in "$@"; do s+="${s:+ }$(q "$w")"; done; printf '%s' "$s"; }

# --- build --------------------------------------------------------------------

PODCASTS=""    # the podcasts binary
BENCH_EXE=""   # PodcastsBench: the in-process figures
HARNESS=""     # CatalogHarness: builds the large catalog of the queries figure
build_binary() {
    local product dir
    if [[ -z "$BINARY" ]]; then
        if command -v swift >/dev/null; then
            for product in podcasts PodcastsBench CatalogHarness; do
                # As README builds it: the static Swift runtime halves start-up time.
                say "swift build -c release --static-swift-stdlib --product $product"
                (cd "$ROOT" && swift build -c release --static-swift-stdlib --product "$product") \
                    >>"$OUT/build.log" 2>&1 ||
                    say "swift build of $product failed (see $OUT/build.log)"
            done
        else
            say "no swift toolchain: give --binary PATH"
        fi
        BINARY="$ROOT/.build/release/podcasts"
    fi
    if [[ -x "$BINARY" ]]; then
        dir="$(cd "$(dirname "$BINARY")" && pwd)"
        PODCASTS="$dir/$(basename "$BINARY")"
        [[ -x "$dir/PodcastsBench" ]] && BENCH_EXE="$dir/PodcastsBench"
        [[ -x "$dir/CatalogHarness" ]] && HARNESS="$dir/CatalogHarness"
        # Built beside the binary but not with it: its figures would be an older version's.
        local sibling
        for sibling in "$BENCH_EXE" "$HARNESS"; do
            [[ -n "$sibling" && "$sibling" -ot "$PODCASTS" ]] &&
                say "warning: $sibling is older than $PODCASTS; build it again for current figures"
        done
    else
        skip "podcasts figures: no binary at $BINARY (build it, or give --binary PATH)"
    fi
}

# has_command NAME...: the binary answers `podcasts NAME... --help` with text and status 0.
has_command() {
    [[ -n "$PODCASTS" ]] || return 1
    local text
    text="$("$PODCASTS" "$@" --help 2>&1)" && [[ -n "$text" ]]
}
# lacks FIGURE NAME...: skip FIGURE unless the binary has every subcommand NAME.
lacks() {
    local figure="$1" name
    shift
    [[ -n "$PODCASTS" ]] || { skip "$figure: no podcasts binary"; return 0; }
    for name in "$@"; do
        has_command "$name" || {
            skip "$figure: '$(basename "$PODCASTS") $name --help' fails or prints nothing (no $name subcommand yet)"
            return 0
        }
    done
    return 1
}

C_FLAGS=()
compile_c() { # compile_c NAME: bench/NAME.c -> bench-data/bin/NAME
    local src="$ROOT/bench/$1.c" exe="$DATA/bin/$1"
    if [[ ! -x "$exe" || "$src" -nt "$exe" ]]; then
        # shellcheck disable=SC2207
        if ! ((${#C_FLAGS[@]})); then
            need pkg-config pkg-config
            C_FLAGS=($(pkg-config --cflags --libs libxml-2.0 2>/dev/null))
        fi
        cc -O2 -o "$exe" "$src" "${C_FLAGS[@]}" 2>"$TMP/cc.log" || {
            skip "$1: does not compile ($(head -1 "$TMP/cc.log"); needs cc and libxml2-dev)"
            return 1
        }
    fi
}

VENV="$DATA/venv"
setup_peers() {
    local stamp
    ((${#PEERS[@]})) || return 1
    stamp="$VENV/.installed-$(IFS=-; echo "${PEERS[*]}")"
    if [[ ! -f "$stamp" ]]; then
        say "creating $VENV with ${PEERS[*]} (PyPI)"
        if ! { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q --disable-pip-version-check "${PEERS[@]}"; } \
            >"$TMP/venv.log" 2>&1; then
            skip "peers: cannot set up the virtualenv ($(tail -1 "$TMP/venv.log"))"
            return 1
        fi
        touch "$stamp"
    fi
    "$VENV/bin/pip" list --format=freeze --disable-pip-version-check 2>/dev/null |
        grep -iE "^($(IFS='|'; echo "${PEERS[*]}")|lxml)==" >"$OUT/peers.txt"
}

# --- inputs -------------------------------------------------------------------

source_of() { # source_of FEED: the real feed a name stands for
    local f
    for f in "$CORPUS/podcasts/partytime-$1.xml" "$CORPUS/podcasts/$1.xml" "$CORPUS/podcasts/$1" "$1"; do
        [[ -f "$f" ]] && { printf '%s' "$f"; return 0; }
    done
    return 1
}

# feed FEED ITEMS: path of a generated feed, made when missing or stale.
feed() {
    local src out
    src="$(source_of "$1")" || { echo "bench: no feed '$1' in $CORPUS/podcasts (give --corpus)" >&2; return 1; }
    out="$DATA/feeds/$(basename "$1" .xml)-$2.xml"
    if [[ ! -s "$out" || "$src" -nt "$out" || "$HERE/generate_feed.py" -nt "$out" ]]; then
        python3 "$HERE/generate_feed.py" "$src" --items "$2" -o "$out" 2>"$TMP/gen.log" ||
            { cat "$TMP/gen.log" >&2; return 1; }
    fi
    printf '%s' "$out"
}

# --- groups of figures timed together ----------------------------------------
# A group is a set of commands measured on the same input. Each command is run
# once under /usr/bin/time -v (peak RSS, and a check of what it printed), then
# the group runs ROUNDS rounds; in each round every command goes through
# hyperfine once (with a warm-up run in the first round), the order rotated
# every round, so the commands are interleaved and drift in the machine's load
# is shared among them. A fast command gets several runs per round (about
# ROUND_BUDGET seconds' worth, at most 20) so that its median rests on enough
# runs. A command slower than SLOW_SECONDS is measured by its first run alone.
#
# An in-process command (PodcastsBench) is not timed by hyperfine: it is given
# the number of runs as its last argument, times them itself and prints their
# median, which is that round's sample.

G=""; G_LABELS=(); G_CMDS=(); G_CHECKS=(); G_KINDS=(); G_RUNS=(); G_PREPARE=""; G_LOG=""
group_begin() { # group_begin ID TITLE REFERENCE-LABEL ITEMS BYTES
    G="$1"; G_LABELS=(); G_CMDS=(); G_CHECKS=(); G_KINDS=(); G_RUNS=(); G_PREPARE=""; G_LOG=""
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$OUT/groups.tsv"
    say "== $2"
}
# group_add LABEL CHECK COMMAND...   CHECK: none | count:N (first number printed) |
# episodes:N (JSON object with N episodes) | json (any JSON) | nonempty |
# contains:TEXT | result:N (the result of an in-process figure)
group_add() {
    G_LABELS+=("$1"); G_CHECKS+=("$2"); G_KINDS+=(process); shift 2
    G_CMDS+=("$(cmdline "$@")")
}
# group_add_inprocess LABEL CHECK COMMAND...: COMMAND RUNS prints a PodcastsBench line.
group_add_inprocess() {
    group_add "$@"
    G_KINDS[-1]=inprocess
}
figure() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$G" "$1" "$2" "$3" "$4" "$5" >>"$OUT/figures.tsv"; }

# inprocess_median FILE: seconds from "median X s" in a PodcastsBench line.
inprocess_median() { awk -F'\t' '{for (i = 1; i <= NF; i++) if ($i ~ /^median /) {split($i, w, " "); print w[2]}}' "$1"; }

check_output() { # check_output CHECK FILE -> prints a note, fails when the output is unusable
    local check="$1" file="$2" got
    case "$check" in
    none) return 0 ;;
    nonempty) [[ -s "$file" ]] || { echo "printed nothing"; return 1; } ;;
    contains:*)
        grep -qF -- "${check#contains:}" "$file" || { echo "did not print '${check#contains:}'"; return 1; }
        ;;
    result:*)
        got="$(awk -F'\t' '{for (i = 1; i <= NF; i++) if ($i ~ /^result /) {split($i, w, " "); print w[2]}}' "$file")"
        [[ -n "$got" ]] || { echo "printed no result"; return 1; }
        [[ "$got" == "${check#result:}" ]] || echo "result ${got}, expected ${check#result:}"
        ;;
    count:*)
        got="$(grep -o -m1 '[0-9]\+' "$file" | head -1)"
        [[ "$got" == "${check#count:}" ]] || echo "read ${got:-no} of ${check#count:} items"
        ;;
    json | episodes:*)
        [[ -s "$file" ]] || { echo "printed nothing"; return 1; }
        got="$(python3 - "$file" <<'EOF'
import json, sys
try:
    with open(sys.argv[1], "rb") as f:
        doc = json.load(f)
except ValueError as e:
    print("bad", e); sys.exit()
print(len(doc["episodes"]) if isinstance(doc, dict) and isinstance(doc.get("episodes"), list) else "json")
EOF
)"
        [[ "$got" == bad* ]] && { echo "printed invalid JSON (${got#bad })"; return 1; }
        [[ "$check" == json || "$got" == "${check#episodes:}" ]] || echo "JSON with ${got} of ${check#episodes:} episodes"
        ;;
    esac
    return 0
}

# The HTTP statuses a server logged (one status a line in G_LOG), as "500×304".
log_statuses() { sort "$G_LOG" | uniq -c | awk '{printf "%s%d×%s", (NR > 1 ? ", " : ""), $1, $2}'; }

group_run() {
    local i label cmd wall cpu rss status note served timed=()
    for i in "${!G_CMDS[@]}"; do
        label="${G_LABELS[$i]}"; cmd="${G_CMDS[$i]}"
        [[ "${G_KINDS[$i]}" == inprocess ]] && cmd+=" 1"
        [[ -n "$G_PREPARE" ]] && eval "$G_PREPARE" >/dev/null 2>&1
        [[ -n "$G_LOG" ]] && : >"$G_LOG"
        /usr/bin/time -v -o "$TMP/time" bash -c "exec $cmd" >"$TMP/stdout" 2>"$TMP/stderr"
        status=$?
        rss="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time")"
        wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s}' "$TMP/time")"
        cpu="$(awk -F': ' '/(User|System) time \(seconds\)/ {s += $2} END {print s}' "$TMP/time")"
        if [[ "${G_KINDS[$i]}" == inprocess ]]; then
            wall="$(inprocess_median "$TMP/stdout")"
            cpu=""
        fi
        if ((status != 0)); then
            skip "$label ($G): exit $status: $(grep -v '^\s*$' "$TMP/stderr" | head -1 | cut -c1-200)"
            continue
        fi
        if ! note="$(check_output "${G_CHECKS[$i]}" "$TMP/stdout")"; then
            skip "$label ($G): $note"
            continue
        fi
        [[ -n "$note" ]] && say "warning: $label ($G): $note"
        if [[ -n "$G_LOG" ]]; then
            served="$(log_statuses)"
            say "$label: the server answered ${served:-nothing}"
            note="${note:+$note; }server: ${served:-nothing}"
        fi
        if [[ "$(awk -v w="${wall:-0}" -v s="$SLOW_SECONDS" 'BEGIN {print (w > s)}')" == 1 ]]; then
            figure "$label" "$rss" "single" "$note" "$cmd"
            printf '%s\t%s\t%s\t%s\n' "$G" "$label" "$wall" "$cpu" >>"$OUT/samples.tsv"
            say "$label: ${wall}s (slow: measured by this run only)"
        else
            figure "$label" "$rss" "$([[ "${G_KINDS[$i]}" == inprocess ]] && echo inprocess || echo timed)" "$note" "$cmd"
            timed+=("$i")
            G_RUNS[i]="$(awk -v w="${wall:-0}" -v b="$ROUND_BUDGET" 'BEGIN {k = w > 0 ? int(b / w) : 20; print (k < 1 ? 1 : (k > 20 ? 20 : k))}')"
        fi
    done
    rm -f "$TMP/stdout"
    ((${#timed[@]})) || return 0
    local r k n=${#timed[@]} args
    for ((r = 1; r <= ROUNDS; r++)); do
        say "round $r/$ROUNDS"
        for ((k = 0; k < n; k++)); do
            i="${timed[$(((k + r - 1) % n))]}"
            if [[ "${G_KINDS[$i]}" == inprocess ]]; then
                if eval "${G_CMDS[$i]} ${G_RUNS[$i]}" >"$TMP/line" 2>>"$OUT/inprocess.log"; then
                    printf '%s\t%s\t%s\n' "$G" "${G_LABELS[$i]}" "$(inprocess_median "$TMP/line")" >>"$OUT/samples.tsv"
                else
                    skip "${G_LABELS[$i]} ($G) round $r: failed (see $OUT/inprocess.log)"
                fi
                continue
            fi
            args=(-N --style none --runs "${G_RUNS[$i]}" --warmup "$((r == 1 ? 1 : 0))"
                --export-json "$OUT/$G.round$r.$i.json" -n "${G_LABELS[$i]}")
            [[ -n "$G_PREPARE" ]] && args+=(--prepare "$G_PREPARE")
            hyperfine "${args[@]}" "${G_CMDS[$i]}" >>"$OUT/hyperfine.log" 2>&1 ||
                skip "${G_LABELS[$i]} ($G) round $r: hyperfine failed (see $OUT/hyperfine.log)"
        done
    done
}

# --- figures ------------------------------------------------------------------

# Parsing one file: the libxml2 floor, the peers, and `podcasts parse FILE --json`.
fig_parse() {
    local have_limit=0 have_fields=0 have_peers=0 have_parse=0 feedname n file bytes p
    compile_c sax_limit && have_limit=1
    compile_c sax_fields && have_fields=1
    setup_peers && have_peers=1
    need xmllint libxml2-utils || skip "xmllint --stream: not installed (apt-get install libxml2-utils)"
    lacks "podcasts parse" parse || have_parse=1
    for feedname in "${FEED_LIST[@]}"; do
        for n in "${SIZE_LIST[@]}"; do
            file="$(feed "$feedname" "$n")" || continue
            bytes="$(stat -c %s "$file")"
            group_begin "parse-$feedname-$n" "parse $feedname, $n items" "sax_limit" "$n" "$bytes"
            ((have_limit)) && group_add "sax_limit" none "$DATA/bin/sax_limit" "$file"
            ((have_fields)) && group_add "sax_fields" "count:$n" "$DATA/bin/sax_fields" "$file"
            command -v xmllint >/dev/null && group_add "xmllint --stream" none xmllint --stream --noout "$file"
            ((have_parse)) && group_add "podcasts parse --json" "episodes:$n" "$PODCASTS" parse "$file" --json
            if ((have_peers)); then
                for p in "${PEERS[@]}"; do
                    group_add "$p" "count:$n" "$VENV/bin/python" "$ROOT/bench/peers/${p}_parse.py" "$file"
                done
            fi
            group_run
        done
    done
}

# In-process stages, timed inside PodcastsBench (Sources/PodcastsBench) so that
# process start-up does not count, beside sax_limit on the same file:
# `PodcastsBench FIGURE FILE RUNS` prints "FIGURE<TAB>FILE<TAB>median X s<TAB>
# min Y s<TAB>result N". parse-models reads the file and parses it to models;
# the others time only their stage, on a feed parsed beforehand.
fig_inprocess() {
    [[ -n "$BENCH_EXE" ]] || { skip "in-process stages: no PodcastsBench beside the podcasts binary"; return; }
    local have_limit=0 feedname n file
    compile_c sax_limit && have_limit=1
    for feedname in "${FEED_LIST[@]}"; do
        for n in "${SIZE_LIST[@]}"; do
            file="$(feed "$feedname" "$n")" || continue
            group_begin "stages-$feedname-$n" "in-process stages, $feedname, $n items" "sax_limit" "$n" "$(stat -c %s "$file")"
            ((have_limit)) && group_add "sax_limit" none "$DATA/bin/sax_limit" "$file"
            group_add_inprocess "parse-models" "result:$n" "$BENCH_EXE" parse-models "$file"
            group_add_inprocess "html-text" nonempty "$BENCH_EXE" html-text "$file"
            group_add_inprocess "json" nonempty "$BENCH_EXE" json "$file"
            group_add_inprocess "catalog-save" "result:$n" "$BENCH_EXE" catalog-save "$file"
            group_run
        done
    done
}

# `podcasts add` of the largest generated feed of the first --feeds into an
# empty catalog, beside `podcasts parse --json` of the same file.
fig_add() {
    lacks add add parse && return
    local n="${SIZE_LIST[-1]}" feedname="${FEED_LIST[0]}" file db="$TMP/add.sqlite3"
    file="$(feed "$feedname" "$n")" || return
    group_begin "add-$feedname-$n" "podcasts add, $feedname, $n items, empty catalog" "podcasts parse --json" "$n" "$(stat -c %s "$file")"
    compile_c sax_limit && group_add "sax_limit" none "$DATA/bin/sax_limit" "$file"
    group_add "podcasts parse --json" "episodes:$n" "$PODCASTS" parse "$file" --json
    group_add "podcasts add" "contains:$n new episodes" "$PODCASTS" --db "$db" add "$file"
    G_PREPARE="$(cmdline rm -f "$db" "$db-wal" "$db-shm")"
    sqlite_floor "$file" "$n" "$db"
    group_run
}

# sqlite_floor FILE ITEMS DB: adds to the add group the sqlite3 shell writing into an
# empty catalog the rows and index that `podcasts add` leaves (copied from a catalog it
# made, untimed), in one transaction with the same page size, journal and sync mode:
# SQLite's own share of the add, with no parsing at all. (`WHERE true` keeps SQLite from
# copying the rows as whole records from one file to the other, which `podcasts` cannot.)
sqlite_floor() {
    local file="$1" n="$2" db="$3" source="$TMP/floor-source.sqlite3" empty="$TMP/floor-empty.sqlite3"
    local floor="$TMP/floor.sqlite3" sql="$TMP/floor.sql"
    command -v sqlite3 >/dev/null || { skip "add: no sqlite3 shell for the SQLite floor"; return; }
    rm -f "$source" "$source-wal" "$source-shm" "$empty" "$empty-wal" "$empty-shm"
    if ! "$PODCASTS" --db "$source" add "$file" >/dev/null 2>"$TMP/floor.log" ||
        ! "$PODCASTS" --db "$empty" list >/dev/null 2>>"$TMP/floor.log"; then
        skip "add: the SQLite floor's catalogs could not be made: $(tail -1 "$TMP/floor.log")"
        return
    fi
    sqlite3 "$source" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
    sqlite3 "$empty" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
    cat >"$sql" <<SQL
PRAGMA synchronous = NORMAL;
PRAGMA cache_size = -32768;
ATTACH '$source' AS source;
BEGIN IMMEDIATE;
INSERT INTO main.podcasts SELECT * FROM source.podcasts;
INSERT INTO main.subscriptions SELECT * FROM source.subscriptions;
INSERT INTO main.podcast_search (rowid, podcast_id, title, description)
    SELECT rowid, podcast_id, title, description FROM source.podcast_search;
INSERT INTO main.episodes SELECT * FROM source.episodes WHERE true;
INSERT INTO main.episode_search (rowid, title, description)
    SELECT rowid, title, description FROM source.episode_search;
COMMIT;
SELECT count(*) FROM main.episodes;
SQL
    group_add "sqlite3 shell, same rows and index" "count:$n" sqlite3 "$floor" ".read $sql"
    G_PREPARE="$(cmdline bash -c "$(cmdline rm -f "$db" "$db-wal" "$db-shm" "$floor" "$floor-wal" "$floor-shm") && $(cmdline cp "$empty" "$floor")")"
}

# A catalog of CATALOG_PODCASTS podcasts with CATALOG_EPISODES episodes each,
# made through the Catalog module by `CatalogHarness populate` (generated titles
# and descriptions of words drawn with a Zipf-like skew) and kept in bench-data
# for as long as CatalogHarness is the same binary.
catalog_db() {
    [[ -n "$HARNESS" ]] || { skip "queries: no CatalogHarness beside the podcasts binary"; return 1; }
    local sum db
    sum="$(sha1sum "$HARNESS" | cut -c1-12)"
    db="$DATA/catalog-${CATALOG_PODCASTS}x$CATALOG_EPISODES-$sum.sqlite3"
    [[ -s "$db" ]] && { printf '%s' "$db"; return 0; }
    say "building $db (${CATALOG_PODCASTS} podcasts of $CATALOG_EPISODES episodes; once)"
    rm -f "$db.tmp" "$db.tmp-wal" "$db.tmp-shm"
    "$HARNESS" populate "$db.tmp" "$CATALOG_PODCASTS" "$CATALOG_EPISODES" >"$TMP/populate.log" 2>&1 ||
        { skip "queries: CatalogHarness populate failed: $(tail -1 "$TMP/populate.log")"; return 1; }
    sqlite3 "$db.tmp" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
    mv "$db.tmp" "$db" && rm -f "$db.tmp-wal" "$db.tmp-shm"
    printf '%s' "$db"
}

# search_words DB: "KIND WORD EPISODES" lines: the words of the most and of the
# fewest episodes, and one in about 0.5% of them, from the full-text index (kept
# beside the catalog: reading the whole index takes a while).
search_words() {
    local db="$1" total
    if [[ ! -s "$db.words" ]]; then
        total="$(sqlite3 -readonly "$db" 'SELECT count(*) FROM episodes')"
        sqlite3 -readonly -separator ' ' "$db" "
            CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, episode_search, row);
            CREATE TEMP TABLE words AS SELECT term, doc FROM temp.vocabulary
                WHERE term GLOB '[a-z][a-z][a-z][a-z]*';
            SELECT 'common', term, doc FROM (SELECT * FROM words ORDER BY doc DESC LIMIT 1);
            SELECT 'medium', term, doc FROM (SELECT * FROM words ORDER BY abs(doc - $total * 0.005), term LIMIT 1);
            SELECT 'rare', term, doc FROM (SELECT * FROM words ORDER BY doc, term LIMIT 1);
        " >"$db.words.tmp" && mv "$db.words.tmp" "$db.words"
    fi
    cat "$db.words"
}

# What `podcasts` selects, from Sources/Catalog (PodcastColumns, EpisodeColumns,
# CatalogQueries, Search): keep these in step with it.
SQL_PODCAST_COLUMNS="p.id, p.feed_url, p.format, p.title, p.author, p.description, p.link, p.language,
    p.image_url, p.categories, p.explicit, p.new_feed_url, p.next_page_url,
    p.etag, p.last_modified, p.added, p.last_checked, p.last_updated, p.last_error,
    p.last_error_at, p.episode_count, p.latest_episode, s.subscribed"
sql_episode_columns() { # sql_episode_columns PREFIX
    local c s=""
    for c in guid title description link published duration enclosure_url enclosure_type \
        enclosure_length season episode episode_type explicit image_url transcripts \
        chapters_url chapters_type; do s+="${s:+, }$1$c"; done
    printf '%s' "$s"
}

# Catalog queries beside the sqlite3 CLI running the same SQL on the same file.
fig_queries() {
    lacks queries list episodes search && return
    need sqlite3 sqlite3 || { skip "queries: no sqlite3 CLI"; return; }
    local db id line kind word count words=() total=$((CATALOG_PODCASTS * CATALOG_EPISODES))
    db="$(catalog_db)" || return
    id="$(sqlite3 -readonly "$db" "SELECT podcast_id FROM subscriptions ORDER BY podcast_id LIMIT 1 OFFSET $((CATALOG_PODCASTS / 2))")"
    local on="$CATALOG_PODCASTS podcasts / $total episodes"

    # list: subscriptions(orderedBy: .title), written as JSON.
    group_begin "list-$CATALOG_PODCASTS" "list --json, $on" "sqlite3 -json" "$CATALOG_PODCASTS" 0
    group_add "sqlite3 -json" json sqlite3 -readonly -json "$db" "
        SELECT $SQL_PODCAST_COLUMNS
        FROM subscriptions AS s JOIN podcasts AS p ON p.id = s.podcast_id
        ORDER BY p.title IS NULL, p.title COLLATE NOCASE, p.id;"
    group_add "podcasts list --json" json "$PODCASTS" --db "$db" list --json
    group_run

    # episodes: the podcast by its full id, then its 20 newest episodes.
    group_begin "episodes-$CATALOG_PODCASTS" "episodes ID --limit 20, $on" "sqlite3" 20 0
    group_add "sqlite3" nonempty sqlite3 -readonly "$db" "
        SELECT $SQL_PODCAST_COLUMNS
        FROM podcasts AS p LEFT JOIN subscriptions AS s ON s.podcast_id = p.id WHERE p.id = '$id';
        SELECT podcast_id, first_seen, $(sql_episode_columns '')
        FROM episodes WHERE podcast_id = '$id'
        ORDER BY published DESC, position, id DESC LIMIT 20 OFFSET 0;"
    group_add "podcasts episodes --limit 20" nonempty "$PODCASTS" --db "$db" episodes "$id" --limit 20
    group_run

    # search: the 20 best podcasts (with their records) and the 20 best of the
    # 5,000 newest matching episodes.
    mapfile -t words < <(search_words "$db")
    ((${#words[@]})) || skip "search: no words read from the full-text index"
    for line in "${words[@]}"; do
        read -r kind word count <<<"$line"
        group_begin "search-$CATALOG_PODCASTS-$kind" "search $word (a $kind word: in $count episodes), $on" "sqlite3" 0 0
        group_add "sqlite3" none sqlite3 -readonly "$db" "
            SELECT $SQL_PODCAST_COLUMNS
            FROM (
              SELECT podcast_id, bm25(podcast_search, 0.0, 4.0, 1.0) AS rank
              FROM podcast_search WHERE podcast_search MATCH '\"$word\"'
              ORDER BY rank LIMIT 20
            ) AS hit
            JOIN podcasts AS p ON p.id = hit.podcast_id
            LEFT JOIN subscriptions AS s ON s.podcast_id = p.id
            ORDER BY hit.rank;
            SELECT e.podcast_id, p.title, hit.rank, $(sql_episode_columns e.)
            FROM (
              SELECT episode_id, rank FROM (
                SELECT rowid AS episode_id, bm25(episode_search, 4.0, 1.0) AS rank
                FROM episode_search WHERE episode_search MATCH '\"$word\"'
                ORDER BY rowid DESC LIMIT 5000
              ) ORDER BY rank LIMIT 20
            ) AS hit
            JOIN episodes AS e ON e.id = hit.episode_id
            JOIN podcasts AS p ON p.id = e.podcast_id
            ORDER BY hit.rank;"
        group_add "podcasts search" nonempty "$PODCASTS" --db "$db" search "$word"
        group_run
    done
}

# Refresh of REFRESH_FEEDS feeds of REFRESH_ITEMS items served by nginx on
# 127.0.0.1, unchanged (nginx answers 304) and changed (every feed rewritten
# before each run with one new episode, so new validators and full 200 bodies),
# beside `newsboat -x reload` on the same URLs with its own cache.
fig_refresh() {
    lacks refresh add refresh && return
    local nginx=/usr/sbin/nginx
    [[ -x "$nginx" ]] || apt_install nginx-light || apt_install nginx
    [[ -x "$nginx" ]] || { skip "refresh: nginx not installed (apt-get install nginx-light)"; return; }
    local dir="$TMP/refresh" port k src sources=() db urls
    mkdir -p "$dir/nginx" "$dir/home"
    for k in "${REFRESH_SOURCES[@]}"; do
        src="$(source_of "$k")" || { skip "refresh: no feed $k in $CORPUS/podcasts"; return; }
        sources+=("$src")
    done
    local write_feeds=(python3 "$HERE/refresh_feeds.py" "$dir" --feeds "$REFRESH_FEEDS" --items "$REFRESH_ITEMS" "${sources[@]}")
    "${write_feeds[@]}" || { skip "refresh: cannot write the feeds"; return; }
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    cat >"$dir/nginx/nginx.conf" <<EOF
worker_processes 1;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log;
events { worker_connections 1024; }
http {
    log_format status '\$status';
    access_log $dir/nginx/access.log status;
    types { application/rss+xml xml; }
    client_body_temp_path $dir/nginx/body;
    proxy_temp_path $dir/nginx/proxy;
    fastcgi_temp_path $dir/nginx/fastcgi;
    uwsgi_temp_path $dir/nginx/uwsgi;
    scgi_temp_path $dir/nginx/scgi;
    server {
        listen 127.0.0.1:$port;
        root $dir/feeds;
        etag on;
    }
}
EOF
    "$nginx" -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -g 'daemon off;' 2>"$dir/nginx/stderr" &
    local nginx_pid=$!
    CLEANUP+=("kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null")
    for k in 1 2 3 4 5 6 7 8 9 10; do
        python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
        sleep 0.3
    done
    urls="$dir/urls"
    for ((k = 1; k <= REFRESH_FEEDS; k++)); do echo "http://127.0.0.1:$port/feed$k.xml"; done >"$urls"

    db="$dir/catalog.sqlite3"
    say "subscribing to $REFRESH_FEEDS feeds"
    xargs -n 100 "$PODCASTS" --db "$db" --quiet add <"$urls" >/dev/null 2>"$TMP/stderr" ||
        { skip "refresh: podcasts add failed: $(head -1 "$TMP/stderr")"; return; }
    local have_newsboat=0
    if need newsboat newsboat; then
        printf 'reload-threads %s\n' "$JOBS" >"$dir/newsboat.conf"
        # Twice: newsboat sends no conditional request on its second fetch of a
        # feed it did not know, only from the third on.
        for k in 1 2; do
            if HOME="$dir/home" newsboat -u "$urls" -c "$dir/newsboat.db" -C "$dir/newsboat.conf" -x reload \
                >/dev/null 2>&1; then
                have_newsboat=1
            else
                have_newsboat=0
                break
            fi
        done
        ((have_newsboat)) || skip "refresh: newsboat -x reload fails"
    else
        skip "refresh: newsboat not installed (apt-get install newsboat)"
    fi
    local nb=(env "HOME=$dir/home" newsboat -u "$urls" -c "$dir/newsboat.db" -C "$dir/newsboat.conf" -x reload)
    local ours=("$PODCASTS" --db "$db" refresh --jobs "$JOBS")

    group_begin "refresh-304-$REFRESH_FEEDS" "refresh, $REFRESH_FEEDS unchanged feeds (304)" "newsboat" "$REFRESH_FEEDS" 0
    ((have_newsboat)) && group_add "newsboat" none "${nb[@]}"
    group_add "podcasts refresh" none "${ours[@]}"
    G_LOG="$dir/nginx/access.log"
    group_run
    group_begin "refresh-200-$REFRESH_FEEDS" "refresh, $REFRESH_FEEDS changed feeds ($REFRESH_ITEMS items each, one of them new)" "newsboat" "$REFRESH_FEEDS" 0
    ((have_newsboat)) && group_add "newsboat" none "${nb[@]}"
    group_add "podcasts refresh" none "${ours[@]}"
    G_PREPARE="$(cmdline "${write_feeds[@]}" --next)"
    G_LOG="$dir/nginx/access.log"
    group_run
}

# Start-up: `podcasts --help`, and `podcasts list` on a catalog of a few real
# podcasts, against the cost of starting any process.
fig_startup() {
    lacks startup list add && return
    local db="$TMP/small.sqlite3" f file files=()
    for f in 1865 launched no-agenda; do
        file="$(source_of "$f")" || { skip "startup: no feed $f in $CORPUS/podcasts"; return; }
        files+=("$file")
    done
    "$PODCASTS" --db "$db" --quiet add "${files[@]}" >/dev/null 2>"$TMP/stderr" ||
        { skip "startup: podcasts add failed: $(head -1 "$TMP/stderr")"; return; }
    group_begin "startup" "start-up: podcasts --help, podcasts list (${#files[@]} podcasts)" "true" 0 0
    group_add "true" none /bin/true
    group_add "podcasts --help" nonempty "$PODCASTS" --help
    group_add "podcasts list" nonempty "$PODCASTS" --db "$db" list
    group_run
}

# --- run ----------------------------------------------------------------------

build_binary
python3 "$HERE/machine.py" "$PODCASTS" >"$OUT/machine.txt"
for f in parse inprocess add queries refresh startup; do
    wants "$f" && "fig_$f"
done
printf 'load average at end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"
python3 "$HERE/report.py" "$OUT" >"$OUT/summary.md"
cat "$OUT/summary.md"
say "results in $OUT"
