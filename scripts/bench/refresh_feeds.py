#!/usr/bin/env python3
"""Write the feeds of the refresh figure, all in one process.

    refresh_feeds.py DIR --feeds 500 --items 100 SOURCE.xml [SOURCE.xml ...]
    refresh_feeds.py DIR --feeds 500 --items 100 --next SOURCE.xml [SOURCE.xml ...]

Feed K (feedK.xml, K = 1..FEEDS) is grown from the sources in turn, as a podcast
of its own (generate_feed.py --feed-number). Its items are the copies G .. G+ITEMS-1,
where G is the generation kept in DIR/generation: --next moves it on by one, so that
every feed has one episode it did not have before and has lost one.

Each file is replaced atomically, so a server never sends half of one, and every
modification time is set one second past the last one written here (and past now):
nginx derives ETag and Last-Modified from it in whole seconds, and two generations
written within the same second must not look the same.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate_feed  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("sources", nargs="+")
    ap.add_argument("--feeds", type=int, required=True)
    ap.add_argument("--items", type=int, required=True)
    ap.add_argument("--next", action="store_true", help="move on to the next generation")
    args = ap.parse_args(argv)

    state = os.path.join(args.dir, "generation")
    generation, stamp = 0, 0
    if os.path.exists(state):
        with open(state) as f:
            generation, stamp = (int(x) for x in f.read().split())
    if args.next:
        generation += 1
    stamp = max(stamp + 1, int(time.time()) + 1)

    data = []
    for path in args.sources:
        with open(path, "rb") as f:
            data.append(f.read())
    os.makedirs(os.path.join(args.dir, "feeds"), exist_ok=True)
    for k in range(1, args.feeds + 1):
        path = os.path.join(args.dir, "feeds", f"feed{k}.xml")
        with open(path + ".tmp", "wb") as out:
            generate_feed.generate(data[k % len(data)], args.items, out, k, first=generation)
        os.utime(path + ".tmp", (stamp, stamp))
        os.replace(path + ".tmp", path)
    with open(state, "w") as f:
        f.write(f"{generation} {stamp}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
