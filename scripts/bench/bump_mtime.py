#!/usr/bin/env python3
"""Move the modification time of every file in a folder one second past the
newest one (and past now), so that a web server's ETag and Last-Modified change
even when two calls fall within the same second.

    bump_mtime.py DIR
"""
import os
import sys
import time

folder = sys.argv[1]
paths = [os.path.join(folder, name) for name in os.listdir(folder)]
newest = max([os.stat(p).st_mtime for p in paths] + [time.time()])
stamp = int(newest) + 1
for p in paths:
    os.utime(p, (stamp, stamp))
