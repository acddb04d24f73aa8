"""Parse a feed file with podcastparser, touch every episode, dump JSON to /dev/null.

    python podcastparser_parse.py FEED.xml   # prints "N entries"
"""
import json
import sys

import podcastparser

with open(sys.argv[1], "rb") as f:
    # podcastparser needs a URL to resolve relative links against.
    result = podcastparser.parse("https://example.invalid/feed.xml", f)
entries = result.get("episodes", [])
for entry in entries:
    for key in entry:
        entry[key]
with open("/dev/null", "w", encoding="utf-8") as null:
    json.dump(result, null, default=str, ensure_ascii=False)
print(f"{len(entries)} entries")
