#!/usr/bin/env python3
"""Turn benchmark results into a Markdown summary.

    report.py bench-data/results/<date> [more result folders...]

Reads what scripts/bench.sh leaves in a results folder: groups.tsv (one line a
group of figures measured on the same input), figures.tsv (one line a figure:
peak RSS, how it was measured), the hyperfine exports GROUP.roundN.*.json,
samples.tsv (times measured outside hyperfine), machine.txt, peers.txt and
skipped.txt. With several folders (say, one run per size) their groups are put
together; a group measured in more than one keeps the last folder's figures.
"""
import glob
import json
import os
import re
import statistics
import sys

PARSE_GROUP = re.compile(r"^parse-(?P<feed>.+)-(?P<items>\d+)$")
LIMIT = "sax_limit"


def read_tsv(path, width):
    rows = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if len(fields) >= width:
                    rows.append(fields)
    return rows


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def duration(seconds):
    if seconds >= 10:
        return f"{seconds:.1f} s"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 0.01:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds * 1000:.1f} ms"


def ratio(value, reference):
    if value is None or reference is None or reference <= 0:
        return ""
    r = value / reference
    return f"{r:.1f}×" if r < 100 else f"{r:.0f}×"


def median(values):
    return statistics.median(values) if values else None


class Group:
    """The figures of one group, as measured in one results folder."""

    def __init__(self, gid, title, reference, items, size, folder):
        self.gid, self.title, self.reference = gid, title, reference
        self.items, self.size, self.folder = int(items or 0), int(size or 0), folder
        self.figures = []  # (label, rss_kb, how, note)
        self.wall, self.cpu = {}, {}

    def median_wall(self, label):
        return median(self.wall.get(label, []))

    def median_cpu(self, label):
        return median(self.cpu.get(label, []))


def load(folder):
    groups = {}
    for gid, title, reference, items, size in read_tsv(os.path.join(folder, "groups.tsv"), 5):
        groups[gid] = Group(gid, title, reference, items, size, folder)
    for gid, label, rss, how, note, _cmd in read_tsv(os.path.join(folder, "figures.tsv"), 6):
        if gid in groups:
            groups[gid].figures.append((label, rss, how, note))
    for row in read_tsv(os.path.join(folder, "samples.tsv"), 3):
        if row[0] in groups:
            groups[row[0]].wall.setdefault(row[1], []).append(float(row[2]))
            if len(row) > 3 and row[3]:
                groups[row[0]].cpu.setdefault(row[1], []).append(float(row[3]))
    for path in sorted(glob.glob(os.path.join(folder, "*.round*.json"))):
        group = groups.get(os.path.basename(path).rsplit(".round", 1)[0])
        if group is None:
            continue
        with open(path, encoding="utf-8") as f:
            for result in json.load(f)["results"]:
                group.wall.setdefault(result["command"], []).extend(result["times"])
                # hyperfine exports only the mean CPU time of an invocation's runs.
                group.cpu.setdefault(result["command"], []).append(result["user"] + result["system"])
    return groups


def group_table(g):
    out = ["", f"## {g.title}" + (f" ({g.size / 1e6:.1f} MB)" if g.size else ""), ""]
    ref_wall = g.median_wall(g.reference) if g.reference else None
    ref_cpu = g.median_cpu(g.reference) if g.reference else None
    x = f"× {g.reference}" if g.reference else "×"
    out.append(f"| figure | median | {x} | CPU | {x} | MB/s | peak RSS | runs | note |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for label, rss, how, note in g.figures:
        times = g.wall.get(label, [])
        if not times:
            out.append(f"| {label} | — | | | | | | 0 | no time recorded |")
            continue
        wall, cpu = median(times), g.median_cpu(label)
        rate = f"{g.size / 1e6 / wall:.0f}" if g.size and how != "inprocess" else ""
        memory = f"{int(rss) / 1024:.0f} MiB" if rss else ""
        notes = [n for n in (note, "measured by one run (slow)" if how == "single" else "",
                             "in-process" if how == "inprocess" else "") if n]
        cpu_cells = f"{duration(cpu)} | {ratio(cpu, ref_cpu)}" if cpu is not None else " | "
        out.append(f"| {label} | {duration(wall)} | {ratio(wall, ref_wall)} | {cpu_cells} | "
                   f"{rate} | {memory} | {len(times)} | {'; '.join(notes)} |")
    return out


def parse_overview(groups):
    """One table per feed: every tool against every size, the limit's ratios and memory."""
    by_feed = {}
    for g in groups:
        m = PARSE_GROUP.match(g.gid)
        if m:
            by_feed.setdefault(m.group("feed"), []).append(g)
    out = []
    for feed, gs in by_feed.items():
        gs.sort(key=lambda g: g.items)
        labels = []
        for g in gs:
            labels += [f[0] for f in g.figures if f[0] not in labels]
        out += ["", f"## parse {feed}: median wall time (× {LIMIT}, × {LIMIT} in CPU time), peak RSS", ""]
        out.append("| figure | " + " | ".join(f"{g.items:,} items ({g.size / 1e6:.0f} MB)" for g in gs) + " |")
        out.append("|---|" + "---:|" * len(gs))
        for label in labels:
            cells = []
            for g in gs:
                fig = next((f for f in g.figures if f[0] == label), None)
                wall = g.median_wall(label)
                if fig is None or wall is None:
                    cells.append("—")
                    continue
                rs = [r for r in (ratio(wall, g.median_wall(LIMIT)),
                                  ratio(g.median_cpu(label), g.median_cpu(LIMIT))) if r]
                rss = f", {int(fig[1]) / 1024:.0f} MiB" if fig[1] else ""
                once = ", 1 run" if fig[2] == "single" else ""
                cells.append(f"{duration(wall)} ({', '.join(rs)}){rss}{once}")
            out.append(f"| {label} | " + " | ".join(cells) + " |")
    return out


FLOOR = "sqlite3 shell, same rows and index"


def figure_rss(g, label):
    """Peak RSS of a figure in bytes, or None."""
    fig = next((f for f in g.figures if f[0] == label), None)
    return int(fig[1]) * 1024 if fig and fig[1] else None


def targets(groups):
    """The targets of the performance issue, each checked against the medians measured."""
    rows = []

    def row(number, target, measured, ok):
        verdict = "—" if ok is None else ("PASS" if ok else "**MISS**")
        rows.append(f"| {number} | {target} | {measured} | {verdict} |")

    def under(number, target, g, label, seconds):
        value = g.median_wall(label)
        if value is None:
            row(number, target, "not measured", None)
        else:
            row(number, target, duration(value), value < seconds)

    def at_most(number, target, g, label, reference, factor):
        value, ref = g.median_wall(label), g.median_wall(reference)
        if value is None or ref is None:
            row(number, target, "not measured", None)
        else:
            row(number, target, f"{duration(value)} / {duration(ref)} = {value / ref:.2f}×",
                value <= factor * ref)

    for g in groups:
        if g.gid.startswith("parse-"):
            at_most(1, f"{g.title}: `podcasts parse --json` ≤ 2.0× sax_limit", g,
                    "podcasts parse --json", LIMIT, 2.0)
            ours, peer = g.median_wall("podcasts parse --json"), g.median_wall("fastfeedparser")
            if ours is None or peer is None:
                row(1, f"{g.title}: faster than fastfeedparser", "not measured", None)
            else:
                row(1, f"{g.title}: faster than fastfeedparser",
                    f"{duration(ours)} vs {duration(peer)} ({ours / peer:.2f}×)", ours < peer)
    for g in groups:
        if g.gid.startswith("stages-"):
            at_most(2, f"{g.title}: parse-models (in-process) ≤ 1.3× sax_limit", g,
                    "parse-models", LIMIT, 1.3)
    for g in groups:
        if g.gid.startswith("add-"):
            rss = figure_rss(g, "podcasts add")
            if rss is None:
                row(3, f"{g.title}: peak RSS < 150 MB", "not measured", None)
            else:
                row(3, f"{g.title}: peak RSS < 150 MB",
                    f"{rss / 1e6:.0f} MB ({rss / 2**20:.0f} MiB)", rss < 150e6)
            at_most(3, f"{g.title}: wall time ≤ 1.5× `podcasts parse --json`", g,
                    "podcasts add", "podcasts parse --json", 1.5)
            floor, parse = g.median_wall(FLOOR), g.median_wall("podcasts parse --json")
            if floor is not None and parse is not None:
                row(3, f"{g.title}: (not a target) SQLite's share alone, {FLOOR}",
                    f"{duration(floor)} / {duration(parse)} = {floor / parse:.2f}×", None)
    for g in groups:
        if g.gid.startswith("list-"):
            under(4, f"{g.title}: < 50 ms", g, "podcasts list --json", 0.050)
            at_most(4, f"{g.title}: ≤ 2× sqlite3", g, "podcasts list --json", g.reference, 2.0)
        elif g.gid.startswith("episodes-"):
            under(4, f"{g.title}: < 20 ms", g, "podcasts episodes --limit 20", 0.020)
        elif g.gid.startswith("search-"):
            under(4, f"{g.title}: < 100 ms", g, "podcasts search", 0.100)
    for g in groups:
        if g.gid.startswith("refresh-304-"):
            under(5, f"{g.title}: < 1 s", g, "podcasts refresh", 1.0)
        elif g.gid.startswith("refresh-200-"):
            at_most(5, f"{g.title}: ≥ 2× faster than newsboat (≤ 0.5×)", g, "podcasts refresh",
                    "newsboat", 0.5)
    for g in groups:
        if g.gid == "startup":
            under(6, "start-up: `podcasts --help` < 10 ms", g, "podcasts --help", 0.010)
            under(6, "start-up: `podcasts list` (small catalog) < 10 ms", g, "podcasts list", 0.010)
    if not rows:
        return []
    return ["", "## Targets", "", "| # | target | measured (median) | result |", "|---|---|---|---|"] + rows


def main(folders):
    merged = {}
    for folder in folders:
        merged.update(load(folder))
    groups = list(merged.values())

    out = ["# Benchmark results", ""]
    for folder in folders:
        machine = read_lines(os.path.join(folder, "machine.txt"))
        if len(folders) > 1:
            out.append(f"Run {os.path.basename(os.path.normpath(folder))}:")
        out += [f"- {line}" for line in machine]
        peers = read_lines(os.path.join(folder, "peers.txt"))
        if peers:
            out.append("- peers: " + ", ".join(peers))
        out.append("")
    out.append("median: wall time of all runs; CPU: user + system time (median of the rounds' "
               "means), steadier than wall time on a busy machine; each × divides by the same "
               "figure of the group's reference (for parsing: `sax_limit`, libxml2's push parser "
               "with empty callbacks, on the same file); MB/s from the median; peak RSS from "
               "`/usr/bin/time -v`.")
    out += targets(groups)
    out += parse_overview(groups)
    for g in groups:
        if g.figures:
            out += group_table(g)

    skipped = []
    for folder in folders:
        skipped += [s for s in read_lines(os.path.join(folder, "skipped.txt")) if s not in skipped]
    if skipped:
        out += ["", "## Skipped", ""] + [f"- {line}" for line in skipped]
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: report.py RESULTS-FOLDER...", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1:])
