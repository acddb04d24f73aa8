"""Parse a feed file with fastfeedparser, touch every entry, dump JSON to /dev/null.

    python fastfeedparser_parse.py FEED.xml   # prints "N entries"
"""
import json
import sys

import fastfeedparser

with open(sys.argv[1], "rb") as f:
    result = fastfeedparser.parse(f.read())
entries = result["entries"]
for entry in entries:
    for key in entry:
        entry[key]
with open("/dev/null", "w", encoding="utf-8") as null:
    json.dump(result, null, default=str, ensure_ascii=False)
print(f"{len(entries)} entries")
