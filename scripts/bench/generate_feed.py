#!/usr/bin/env python3
"""Make a large benchmark feed out of a real one.

The channel header and footer are kept byte for byte; the real items are cycled
until there are N of them, and each copy gets its own guid, title, pubDate and
enclosure URL so that a parser (or a catalog) sees N distinct episodes. The work
is done on bytes with precomputed templates: a 50,000-item feed of a few hundred
megabytes takes seconds, not minutes.

    generate_feed.py SOURCE.xml --items 50000 -o bench-data/feeds/1865-50000.xml

With --feed-number K the channel becomes a podcast of its own (its podcast:guid,
self link and title carry K, and so do the guids and enclosure URLs of its
items), so that many generated feeds can share a catalog.
"""

import argparse
import os
import re
import sys
import time
import uuid

ITEM_START = re.compile(rb"<item[\s>]")
ITEM_END = b"</item>"

# Each pattern captures exactly the bytes to rewrite (group "v"). Only the first
# match in an item is rewritten: that is the one a parser takes.
FIELDS = (
    ("guid", re.compile(rb"<guid(?:\s[^>]*)?>(?P<v>.*?)</guid>", re.S)),
    ("title", re.compile(rb"<title(?:\s[^>]*)?>(?P<v>.*?)</title>", re.S)),
    ("pubDate", re.compile(rb"<pubDate(?:\s[^>]*)?>(?P<v>.*?)</pubDate>", re.S)),
    ("url", re.compile(rb"<enclosure\s[^>]*?\burl\s*=\s*([\"'])(?P<v>.*?)\1", re.S)),
)

CHANNEL_OPEN = re.compile(rb"<channel(?:\s[^>]*)?>")
CHANNEL_TITLE = re.compile(rb"(<title(?:\s[^>]*)?>)(?P<v>.*?)(</title>)", re.S)
PODCAST_GUID = re.compile(rb"(<podcast:guid(?:\s[^>]*)?>)(?P<v>.*?)(</podcast:guid>)", re.S)
ATOM_LINK = re.compile(rb"<atom:link\s[^>]*>")
HREF = re.compile(rb"\bhref\s*=\s*([\"'])(?P<v>.*?)\1", re.S)
PODCAST_NS = b"https://podcastindex.org/namespace/1.0"

# Copies are dated an hour apart, newest first, from a fixed moment, so the
# output is the same on every run.
NEWEST = 1_700_000_000
DAYS = (b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun")
MONTHS = (b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun",
          b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec")


def split_feed(data):
    """Return (header, [item bytes], separator, footer)."""
    first = ITEM_START.search(data)
    last = data.rfind(ITEM_END)
    if first is None or last < first.start():
        raise ValueError("no <item> elements found")
    header = data[: first.start()]
    footer = data[last + len(ITEM_END):]
    items = []
    # The whitespace between the first two items keeps the output indented
    # like the source.
    separator = b"\n    "
    pos = first.start()
    while True:
        end = data.find(ITEM_END, pos)
        if end < 0:
            break
        end += len(ITEM_END)
        items.append(data[pos:end])
        nxt = ITEM_START.search(data, end)
        if nxt is None:
            break
        if len(items) == 1 and data[end:nxt.start()].strip() == b"":
            separator = data[end:nxt.start()]
        pos = nxt.start()
    return header, items, separator, footer


def template(item):
    """Split one item into literal pieces and the (kind, original value) slots between them."""
    spans = []
    for kind, pattern in FIELDS:
        m = pattern.search(item)
        if m is not None and m.group("v").strip():
            spans.append((m.start("v"), m.end("v"), kind, m.group("v")))
    spans.sort()
    pieces, slots, pos = [], [], 0
    for start, end, kind, value in spans:
        if start < pos:  # overlapping matches cannot happen in a sane feed; skip
            continue
        pieces.append(item[pos:start])
        slots.append((kind, value))
        pos = end
    pieces.append(item[pos:])
    return pieces, slots


def rfc822(ts):
    t = time.gmtime(ts)
    return b"%s, %02d %s %04d %02d:%02d:%02d +0000" % (
        DAYS[t.tm_wday], t.tm_mday, MONTHS[t.tm_mon - 1], t.tm_year,
        t.tm_hour, t.tm_min, t.tm_sec)


def rewrite(kind, value, n, tag):
    if kind == "guid":
        return value.strip() + b"-bench-%s" % tag
    if kind == "title":
        return value.rstrip() + b" (copy %d)" % n
    if kind == "pubDate":
        return rfc822(NEWEST - n * 3600)
    return with_query(value, b"bench=%s" % tag)


def with_query(url, param):
    """Append a query parameter to a URL as written in XML (ampersand escaped)."""
    return url + (b"&amp;" if b"?" in url else b"?") + param


def distinct_channel(header, number):
    """Give the channel header its own podcast:guid, self link and title."""
    guid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench-feed-{number}")).encode()
    if PODCAST_GUID.search(header):
        header = PODCAST_GUID.sub(lambda m: m.group(1) + guid + m.group(3), header, count=1)
    else:
        opening = CHANNEL_OPEN.search(header)
        if opening is None:
            raise ValueError("no <channel> element found")
        element = b'\n    <podcast:guid xmlns:podcast="%s">%s</podcast:guid>' % (PODCAST_NS, guid)
        header = header[: opening.end()] + element + header[opening.end():]

    def relink(m):
        link = m.group(0)
        if not re.search(rb"\brel\s*=\s*[\"']self[\"']", link):
            return link
        return HREF.sub(lambda h: h.group(0).replace(
            h.group("v"), with_query(h.group("v"), b"bench-feed=%d" % number)), link, count=1)

    header = ATOM_LINK.sub(relink, header)
    opening = CHANNEL_OPEN.search(header)
    title = CHANNEL_TITLE.search(header, opening.end())
    if title is not None:
        header = (header[: title.end("v")] + b" #%d" % number + header[title.end("v"):])
    return header


def generate(data, count, out, feed_number=None, first=0):
    """Write copies first .. first+count-1 of the items of `data`, the header and the footer."""
    header, items, separator, footer = split_feed(data)
    if feed_number is not None:
        header = distinct_channel(header, feed_number)
    templates = [template(item) for item in items]
    out.write(header)
    batch = []
    for n in range(first, first + count):
        pieces, slots = templates[n % len(templates)]
        # Guids and enclosure URLs differ between feeds too: a reader that keys
        # items by guid alone (newsboat does) must not take them for one another.
        tag = b"%d" % n if feed_number is None else b"%d-%d" % (feed_number, n)
        if n > first:
            batch.append(separator)
        for i, (kind, value) in enumerate(slots):
            batch.append(pieces[i])
            batch.append(rewrite(kind, value, n, tag))
        batch.append(pieces[-1])
        if len(batch) >= 20000:
            out.write(b"".join(batch))
            batch.clear()
    out.write(b"".join(batch))
    out.write(footer)
    return len(items)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="a real RSS feed (file)")
    ap.add_argument("--items", "-n", type=int, required=True, help="number of items to write")
    ap.add_argument("--output", "-o", required=True, help="file to write")
    ap.add_argument("--feed-number", type=int, help="make the channel a distinct podcast number K")
    args = ap.parse_args(argv)
    if args.items < 1:
        ap.error("--items must be at least 1")
    try:
        with open(args.source, "rb") as f:
            data = f.read()
    except OSError as e:
        print(f"generate_feed: cannot read {args.source}: {e.strerror}", file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    tmp = args.output + ".tmp"
    started = time.monotonic()
    try:
        with open(tmp, "wb", buffering=1 << 20) as out:
            real = generate(data, args.items, out, args.feed_number)
    except ValueError as e:
        print(f"generate_feed: {args.source}: {e}", file=sys.stderr)
        os.unlink(tmp)
        return 1
    os.replace(tmp, args.output)
    size = os.path.getsize(args.output)
    print(f"generate_feed: {args.output}: {args.items} items from {real} real ones, "
          f"{size / 1e6:.1f} MB in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
