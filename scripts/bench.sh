#!/usr/bin/env bash
# The benchmark suite. What each figure means and how to read the table: BENCHMARKS.md.
#
#   scripts/bench.sh [--quick] [--sizes 1000,10000,50000] [--binary PATH]
#                    [--feeds 1865,launched] [--runs N] [--only parse,startup,...]
#                    [--corpus DIR]
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
ONLY="parse,startup,inprocess,add,queries,refresh"
QUICK=0
BINARY=""
ROUNDS=""
PEERS=(fastfeedparser podcastparser feedparser)

usage() {
    sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    cat <<'EOF'
Options:
  --quick          fewer runs, smaller catalog and refresh figures (use while developing)
  --sizes LIST     items per generated feed (default 1000,10000,50000)
  --binary PATH    the podcasts binary to measure (default: swift build -c release,
                   then .build/release/podcasts)
  --feeds LIST     source feeds from CORPUS/podcasts (default 1865,launched)
  --runs N         interleaved rounds per figure (default 5, --quick 3)
  --only LIST      figures: parse,startup,inprocess,add,queries,refresh (default all)
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
REFRESH_ITEMS=50      # per refreshed feed
NEWSBOAT_THREADS=4
CATALOG_FEEDS=(1865 launched) # the catalog's podcasts cycle through these
SEARCH_WORD="Cincinnatus"     # in the title of one 1865 item in 61

IFS=, read -r -a SIZE_LIST <<<"$SIZES"
IFS=, read -r -a FEED_LIST <<<"$FEEDS"
for n in "${SIZE_LIST[@]}"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "bench: --sizes: '$n' is not a positive number" >&2; exit 2; }
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "bench: --runs: '$ROUNDS' is not a positive number" >&2; exit 2; }

OUT="$DATA/results/$(date -u +%Y%m%dT%H%M%SZ)"
TMP="$OUT/tmp"
mkdir -p "$OUT" "$TMP" "$DATA/bin" "$DATA/feeds"
: >"$OUT/groups.tsv"
: >"$OUT/figures.tsv"
: >"$OUT/samples.tsv"

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

PODCASTS=""
BENCH_TARGET=""
build_binary() {
    if [[ -z "$BINARY" ]]; then
        if command -v swift >/dev/null; then
            say "swift build -c release"
            (cd "$ROOT" && swift build -c release --product podcasts) >"$OUT/build.log" 2>&1 ||
                say "swift build failed (see $OUT/build.log)"
            if grep -q '"podcasts-bench"' "$ROOT/Package.swift" 2>/dev/null; then
                (cd "$ROOT" && swift build -c release --product podcasts-bench) >>"$OUT/build.log" 2>&1 ||
                    say "swift build of podcasts-bench failed (see $OUT/build.log)"
            fi
        else
            say "no swift toolchain: give --binary PATH"
        fi
        BINARY="$ROOT/.build/release/podcasts"
    fi
    if [[ -x "$BINARY" ]]; then
        PODCASTS="$(cd "$(dirname "$BINARY")" && pwd)/$(basename "$BINARY")"
        [[ -x "$(dirname "$PODCASTS")/podcasts-bench" ]] && BENCH_TARGET="$(dirname "$PODCASTS")/podcasts-bench"
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
        ((${#C_FLAGS[@]})) || C_FLAGS=($(pkg-config --cflags --libs libxml-2.0 2>/dev/null))
        cc -O2 -o "$exe" "$src" "${C_FLAGS[@]}" 2>"$TMP/cc.log" || {
            skip "$1: does not compile ($(head -1 "$TMP/cc.log"); needs cc and libxml2-dev)"
            return 1
        }
    fi
}

VENV="$DATA/venv"
setup_peers() {
    local stamp="$VENV/.installed"
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

# feed FEED ITEMS [NUMBER [DIR]]: path of a generated feed, made when missing or stale.
feed() {
    local src out dir="${4:-$DATA/feeds}"
    src="$(source_of "$1")" || { echo "bench: no feed '$1' in $CORPUS/podcasts (give --corpus)" >&2; return 1; }
    out="$dir/$(basename "$1" .xml)-$2${3:+-feed$3}.xml"
    if [[ ! -s "$out" || "$src" -nt "$out" || "$HERE/generate_feed.py" -nt "$out" ]]; then
        python3 "$HERE/generate_feed.py" "$src" --items "$2" ${3:+--feed-number "$3"} -o "$out" 2>"$TMP/gen.log" ||
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

G=""; G_LABELS=(); G_CMDS=(); G_CHECKS=(); G_RUNS=(); G_PREPARE=""
group_begin() { # group_begin ID TITLE REFERENCE-LABEL ITEMS BYTES
    G="$1"; G_LABELS=(); G_CMDS=(); G_CHECKS=(); G_RUNS=(); G_PREPARE=""
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$OUT/groups.tsv"
    say "== $2"
}
# group_add LABEL CHECK COMMAND...   CHECK: none | count:N (first number printed) |
# episodes:N (JSON object with N episodes) | json (any JSON) | nonempty
group_add() {
    G_LABELS+=("$1"); G_CHECKS+=("$2"); shift 2
    G_CMDS+=("$(cmdline "$@")")
}
figure() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$G" "$1" "$2" "$3" "$4" "$5" >>"$OUT/figures.tsv"; }

check_output() { # check_output CHECK FILE -> prints a note, fails when the output is unusable
    local check="$1" file="$2" got
    case "$check" in
    none) return 0 ;;
    nonempty) [[ -s "$file" ]] || { echo "printed nothing"; return 1; } ;;
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

group_run() {
    local i label cmd wall cpu rss status note timed=()
    for i in "${!G_CMDS[@]}"; do
        label="${G_LABELS[$i]}"; cmd="${G_CMDS[$i]}"
        [[ -n "$G_PREPARE" ]] && eval "$G_PREPARE" >/dev/null 2>&1
        /usr/bin/time -v -o "$TMP/time" bash -c "exec $cmd" >"$TMP/stdout" 2>"$TMP/stderr"
        status=$?
        rss="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time")"
        wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s}' "$TMP/time")"
        cpu="$(awk -F': ' '/(User|System) time \(seconds\)/ {s += $2} END {print s}' "$TMP/time")"
        if ((status != 0)); then
            skip "$label ($G): exit $status: $(grep -v '^\s*$' "$TMP/stderr" | head -1 | cut -c1-200)"
            continue
        fi
        if ! note="$(check_output "${G_CHECKS[$i]}" "$TMP/stdout")"; then
            skip "$label ($G): $note"
            continue
        fi
        [[ -n "$note" ]] && say "warning: $label ($G): $note"
        if [[ "$(awk -v w="$wall" -v s="$SLOW_SECONDS" 'BEGIN {print (w > s)}')" == 1 ]]; then
            figure "$label" "$rss" "single" "$note" "$cmd"
            printf '%s\t%s\t%s\t%s\n' "$G" "$label" "$wall" "$cpu" >>"$OUT/samples.tsv"
            say "$label: ${wall}s (slow: measured by this run only)"
        else
            figure "$label" "$rss" "timed" "$note" "$cmd"
            timed+=("$i")
            G_RUNS[i]="$(awk -v w="$wall" -v b="$ROUND_BUDGET" 'BEGIN {k = w > 0 ? int(b / w) : 20; print (k < 1 ? 1 : (k > 20 ? 20 : k))}')"
        fi
    done
    rm -f "$TMP/stdout"
    ((${#timed[@]})) || return 0
    local r k n=${#timed[@]} args
    for ((r = 1; r <= ROUNDS; r++)); do
        say "round $r/$ROUNDS"
        for ((k = 0; k < n; k++)); do
            i="${timed[$(((k + r - 1) % n))]}"
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

# Start-up: `podcasts --help` against the cost of starting any process.
fig_startup() {
    [[ -n "$PODCASTS" ]] || { skip "startup: no podcasts binary"; return; }
    has_command || { skip "startup: '$(basename "$PODCASTS") --help' fails or prints nothing"; return; }
    group_begin "startup" "start-up: podcasts --help" "true" 0 0
    group_add "true" none /bin/true
    group_add "podcasts --help" nonempty "$PODCASTS" --help
    group_run
}

# In-process stages, measured inside a benchmark executable so that process
# start-up and file reading do not count. Contract for `podcasts-bench` (built
# beside the podcasts binary): `podcasts-bench STAGE FILE --iterations N` runs
# one stage N times and prints one JSON object {"stage": ..., "items": ...,
# "seconds": [one per iteration]}. Stages: models (parse to models only), text
# (HTML to text of every description only), json (JSON writing of parsed
# models only), save (catalog save of parsed models into an empty catalog only).
fig_inprocess() {
    [[ -n "$BENCH_TARGET" ]] || { skip "in-process stages: no podcasts-bench executable beside the podcasts binary"; return; }
    local feedname n file bytes stage
    for feedname in "${FEED_LIST[@]}"; do
        for n in "${SIZE_LIST[@]}"; do
            file="$(feed "$feedname" "$n")" || continue
            bytes="$(stat -c %s "$file")"
            group_begin "stages-$feedname-$n" "in-process stages, $feedname, $n items" "" "$n" "$bytes"
            for stage in models text json save; do
                if ! "$BENCH_TARGET" "$stage" "$file" --iterations "$ROUNDS" >"$TMP/stage.json" 2>"$TMP/stderr"; then
                    skip "stage $stage ($G): $(head -1 "$TMP/stderr")"
                    continue
                fi
                python3 - "$OUT/samples.tsv" "$G" "stage: $stage" "$TMP/stage.json" <<'EOF' || skip "stage $stage ($G): output is not the expected JSON"
import json, sys
out, group, label, path = sys.argv[1:]
seconds = json.load(open(path))["seconds"]
with open(out, "a") as f:
    for s in seconds:
        f.write(f"{group}\t{label}\t{float(s)}\n")
EOF
                figure "stage: $stage" "" "inprocess" "" "$BENCH_TARGET $stage"
            done
        done
    done
}

# `podcasts add` of the largest generated feed into an empty catalog.
fig_add() {
    lacks add add && return
    local n="${SIZE_LIST[-1]}" feedname="${FEED_LIST[0]}" file db="$TMP/add.sqlite3"
    file="$(feed "$feedname" "$n")" || return
    group_begin "add-$feedname-$n" "podcasts add, $feedname, $n items, empty catalog" "sax_limit" "$n" "$(stat -c %s "$file")"
    compile_c sax_limit && group_add "sax_limit" none "$DATA/bin/sax_limit" "$file"
    group_add "podcasts add" none env "PODCASTS_DB=$db" "$PODCASTS" add "$file"
    G_PREPARE="$(cmdline rm -f "$db" "$db-wal" "$db-shm")"
    group_run
}

# A catalog of CATALOG_PODCASTS podcasts with CATALOG_EPISODES episodes each,
# made with `podcasts add` and kept in bench-data for as long as the binary is
# the same one (a new binary may have a new schema).
catalog_db() {
    local binary_sum db k src file
    binary_sum="$(sha1sum "$PODCASTS" | cut -c1-12)"
    db="$DATA/catalog-${CATALOG_PODCASTS}x$CATALOG_EPISODES-$binary_sum.sqlite3"
    [[ -s "$db" ]] && { printf '%s' "$db"; return 0; }
    say "building $db (${CATALOG_PODCASTS} feeds of $CATALOG_EPISODES items; once)"
    rm -f "$db.tmp" "$db.tmp-wal" "$db.tmp-shm"
    for ((k = 1; k <= CATALOG_PODCASTS; k++)); do
        src="${CATALOG_FEEDS[$((k % ${#CATALOG_FEEDS[@]}))]}"
        file="$(feed "$src" "$CATALOG_EPISODES" "$k" "$TMP")" || return 1
        PODCASTS_DB="$db.tmp" "$PODCASTS" add "$file" >/dev/null 2>"$TMP/stderr" ||
            { skip "catalog: podcasts add failed: $(head -1 "$TMP/stderr")"; return 1; }
        rm -f "$file"
    done
    sqlite3 "$db.tmp" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null 2>&1
    mv "$db.tmp" "$db" && rm -f "$db.tmp-wal" "$db.tmp-shm"
    printf '%s' "$db"
}

# Catalog queries against the sqlite3 CLI running the equivalent SQL. The SQL
# follows the catalog's schema: adjust it here when the schema changes.
fig_queries() {
    lacks queries add list episodes search && return
    need sqlite3 sqlite3 || { skip "queries: no sqlite3 CLI"; return; }
    local db id
    db="$(catalog_db)" || return
    id="$(python3 -c 'import uuid; print(uuid.uuid5(uuid.NAMESPACE_URL, "bench-feed-1"))')"
    local total=$((CATALOG_PODCASTS * CATALOG_EPISODES))
    local sql_list="SELECT * FROM podcasts ORDER BY title;"
    local sql_episodes="SELECT * FROM episodes WHERE podcast_id = '$id' ORDER BY published DESC LIMIT 20;"
    local sql_search="SELECT * FROM episodes WHERE title LIKE '%$SEARCH_WORD%' OR description LIKE '%$SEARCH_WORD%';"

    group_begin "list-$CATALOG_PODCASTS" "list --json, $CATALOG_PODCASTS podcasts / $total episodes" "sqlite3" "$CATALOG_PODCASTS" 0
    group_add "sqlite3" nonempty sqlite3 -readonly -json "$db" "$sql_list"
    group_add "podcasts list --json" json env "PODCASTS_DB=$db" "$PODCASTS" list --json
    group_run
    group_begin "episodes-$CATALOG_PODCASTS" "episodes ID --limit 20, $CATALOG_PODCASTS podcasts / $total episodes" "sqlite3" 20 0
    group_add "sqlite3" nonempty sqlite3 -readonly "$db" "$sql_episodes"
    group_add "podcasts episodes --limit 20" nonempty env "PODCASTS_DB=$db" "$PODCASTS" episodes "$id" --limit 20
    group_run
    group_begin "search-$CATALOG_PODCASTS" "search $SEARCH_WORD, $CATALOG_PODCASTS podcasts / $total episodes" "sqlite3" 0 0
    group_add "sqlite3" none sqlite3 -readonly "$db" "$sql_search"
    group_add "podcasts search" none env "PODCASTS_DB=$db" "$PODCASTS" search "$SEARCH_WORD"
    group_run
}

# Refresh of REFRESH_FEEDS feeds served by nginx on 127.0.0.1, unchanged (304s)
# and changed (every file's modification time moved on, so 200s with the full
# body), against `newsboat -x reload` on the same URLs.
fig_refresh() {
    lacks refresh add refresh && return
    local nginx=/usr/sbin/nginx
    [[ -x "$nginx" ]] || apt_install nginx-light || apt_install nginx
    [[ -x "$nginx" ]] || { skip "refresh: nginx not installed (apt-get install nginx-light)"; return; }
    local dir="$TMP/refresh" port k src file db urls
    mkdir -p "$dir/feeds" "$dir/nginx" "$dir/home"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    for ((k = 1; k <= REFRESH_FEEDS; k++)); do
        src="${FEED_LIST[$((k % ${#FEED_LIST[@]}))]}"
        feed "$src" "$REFRESH_ITEMS" "$((100000 + k))" "$dir/feeds" >/dev/null || return
    done
    cat >"$dir/nginx/nginx.conf" <<EOF
worker_processes 1;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
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
    : >"$urls"
    for file in "$dir"/feeds/*.xml; do echo "http://127.0.0.1:$port/$(basename "$file")" >>"$urls"; done

    db="$dir/catalog.sqlite3"
    say "subscribing to $REFRESH_FEEDS feeds"
    while read -r url; do
        PODCASTS_DB="$db" "$PODCASTS" add "$url" >/dev/null 2>"$TMP/stderr" ||
            { skip "refresh: podcasts add $url failed: $(head -1 "$TMP/stderr")"; return; }
    done <"$urls"
    local have_newsboat=0
    if need newsboat newsboat; then
        printf 'reload-threads %s\n' "$NEWSBOAT_THREADS" >"$dir/newsboat.conf"
        HOME="$dir/home" newsboat -u "$urls" -c "$dir/newsboat.db" -C "$dir/newsboat.conf" -x reload \
            >/dev/null 2>&1 && have_newsboat=1
        ((have_newsboat)) || skip "refresh: newsboat -x reload fails"
    else
        skip "refresh: newsboat not installed (apt-get install newsboat)"
    fi
    local nb=(env "HOME=$dir/home" newsboat -u "$urls" -c "$dir/newsboat.db" -C "$dir/newsboat.conf" -x reload)

    group_begin "refresh-304-$REFRESH_FEEDS" "refresh, $REFRESH_FEEDS unchanged feeds (304)" "newsboat" "$REFRESH_FEEDS" 0
    ((have_newsboat)) && group_add "newsboat" none "${nb[@]}"
    group_add "podcasts refresh" none env "PODCASTS_DB=$db" "$PODCASTS" refresh
    group_run
    group_begin "refresh-200-$REFRESH_FEEDS" "refresh, $REFRESH_FEEDS changed feeds ($REFRESH_ITEMS items each)" "newsboat" "$REFRESH_FEEDS" 0
    ((have_newsboat)) && group_add "newsboat" none "${nb[@]}"
    group_add "podcasts refresh" none env "PODCASTS_DB=$db" "$PODCASTS" refresh
    G_PREPARE="$(cmdline python3 "$HERE/bump_mtime.py" "$dir/feeds")"
    group_run
}

# --- run ----------------------------------------------------------------------

build_binary
python3 "$HERE/machine.py" "$PODCASTS" >"$OUT/machine.txt"
for f in parse startup inprocess add queries refresh; do
    wants "$f" && "fig_$f"
done
python3 "$HERE/report.py" "$OUT" >"$OUT/summary.md"
cat "$OUT/summary.md"
say "results in $OUT"
