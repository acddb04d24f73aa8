#!/usr/bin/env bash
# What SQLite alone costs to store a large feed, in four layouts, beside `podcasts parse
# --json` of the same feed, interleaved in rounds. Not part of the test run.
#
#   scripts/bench/storage_floors.sh PODCASTS FEED [ROUNDS]
#
# PODCASTS adds FEED once to a catalog in a temporary folder (untimed); its rows are the
# input. Each layout then writes them with the sqlite3 shell into a new file (16 KiB pages,
# synchronous=NORMAL, a 32 MiB cache, as the catalog), in one transaction whose time alone
# is taken (`.timer`): the episodes, their two indexes and the full-text index.
#   html-wal      the catalog's layout: descriptions stored as the feed's HTML, the index
#                 keeping its own copy of their text, in WAL mode (every page written twice)
#   text-wal      descriptions stored as their text, the index reading it from `episodes`
#                 (an external-content FTS5 table), WAL
#   html-rollback the catalog's layout with a rollback journal (every new page written once)
#   text-rollback both
# Prints each layout's median and its ratio to the median of `podcasts parse FEED --json`.
set -euo pipefail

[[ $# -ge 2 ]] || { echo "usage: $0 PODCASTS FEED [ROUNDS]" >&2; exit 2; }
podcasts="$1" feed="$2" rounds="${3:-5}"
command -v sqlite3 >/dev/null || { echo "$0: needs the sqlite3 shell" >&2; exit 1; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

"$podcasts" --db "$dir/source.sqlite3" add "$feed" >/dev/null
sqlite3 "$dir/source.sqlite3" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null

# The catalog's own table and indexes of episodes, as the file made by `podcasts` has them.
schema="$(sqlite3 "$dir/source.sqlite3" \
    "SELECT group_concat(sql, ';' || char(10)) FROM sqlite_schema WHERE tbl_name = 'episodes' AND sql IS NOT NULL")"

# layout_sql JOURNAL INDEX-OPTIONS DESCRIPTION: the script of one layout.
layout_sql() {
    cat <<SQL
PRAGMA page_size = 16384;
PRAGMA journal_mode = $1;
PRAGMA synchronous = NORMAL;
PRAGMA cache_size = -32768;
ATTACH '$dir/source.sqlite3' AS source;
$schema;
CREATE VIRTUAL TABLE episode_search USING fts5 (
    title, description, $2 tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO episode_search (episode_search, rank) VALUES ('hashsize', 16777216);
CREATE TEMP TABLE input AS
    SELECT e.*, s.title AS text_title, s.description AS text_description
    FROM source.episodes AS e JOIN source.episode_search AS s ON s.rowid = e.id;
.timer on
BEGIN IMMEDIATE;
INSERT INTO episodes SELECT id, podcast_id, identity, position, first_seen, guid, title, $3,
    link, published, duration, enclosure_url, enclosure_type, enclosure_length, season,
    episode, episode_type, explicit, image_url, transcripts, chapters_url, chapters_type
    FROM input;
INSERT INTO episode_search (rowid, title, description)
    SELECT id, text_title, text_description FROM input;
COMMIT;
SQL
}

layouts=(html-wal text-wal html-rollback text-rollback)
external="content = 'episodes', content_rowid = 'id',"
layout_sql WAL "" description >"$dir/html-wal.sql"
layout_sql WAL "$external" text_description >"$dir/text-wal.sql"
layout_sql DELETE "" description >"$dir/html-rollback.sql"
layout_sql DELETE "$external" text_description >"$dir/text-rollback.sql"

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

for ((round = 1; round <= rounds; round++)); do
    /usr/bin/time -f '%e' -o "$dir/time" "$podcasts" parse "$feed" --json >/dev/null
    cat "$dir/time" >>"$dir/parse.times"
    for layout in "${layouts[@]}"; do
        rm -f "$dir/floor.sqlite3" "$dir/floor.sqlite3-wal" "$dir/floor.sqlite3-shm" "$dir/floor.sqlite3-journal"
        sqlite3 "$dir/floor.sqlite3" <"$dir/$layout.sql" |
            awk '/^Run Time:/ {s += $4} END {print s}' >>"$dir/$layout.times"
    done
    echo "round $round/$rounds" >&2
done

parse="$(median <"$dir/parse.times")"
printf '%-22s %8s %8s\n' "figure" "median" "× parse"
printf '%-22s %7.2fs %7.2f×\n' "podcasts parse --json" "$parse" 1
for layout in "${layouts[@]}"; do
    value="$(median <"$dir/$layout.times")"
    printf '%-22s %7.2fs %7.2f×\n' "$layout" "$value" "$(awk -v a="$value" -v b="$parse" 'BEGIN {print a / b}')"
done
