#!/usr/bin/env python3
"""Describe the machine a benchmark ran on, one `key: value` a line.

    machine.py [PODCASTS-BINARY]
"""
import datetime
import os
import platform
import subprocess
import sys


def run(*cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr).strip() else ""


def first(path, key, sep=":"):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key):
                    return line.split(sep, 1)[1].strip().strip('"')
    except OSError:
        pass
    return "?"


mem_kb = first("/proc/meminfo", "MemTotal")
memory = f"{int(mem_kb.split()[0]) / 1024 / 1024:.1f} GiB" if mem_kb != "?" else "?"
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
commit = run("git", "-C", root, "rev-parse", "--short", "HEAD")
dirty = run("git", "-C", root, "status", "--porcelain", "--untracked-files=no")
lines = {
    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    "cpus (nproc)": str(len(os.sched_getaffinity(0))),
    "cpu": first("/proc/cpuinfo", "model name"),
    "memory": memory,
    "os": first("/etc/os-release", "PRETTY_NAME", "="),
    "kernel": platform.release(),
    "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    "libxml2": run("pkg-config", "--modversion", "libxml-2.0") or run("xmllint", "--version"),
    "sqlite3": run("sqlite3", "--version").split(" ")[0],
    "python": platform.python_version(),
    "hyperfine": run("hyperfine", "--version"),
    "nginx": run("/usr/sbin/nginx", "-v"),
    "newsboat": run("newsboat", "--version"),
    "swift": run("swift", "--version"),
    "commit": commit + (" (with uncommitted changes)" if dirty else ""),
}
if len(sys.argv) > 1 and sys.argv[1]:
    lines["podcasts binary"] = sys.argv[1]
for key, value in lines.items():
    print(f"{key}: {value}")
