#!/usr/bin/env python3
"""Turn one benchmark run's raw results into a Markdown summary.

    report.py bench-data/results/<date>   # prints the summary

Reads what scripts/bench.sh leaves there: groups.tsv (one line a group of
figures measured on the same input), figures.tsv (one line a figure: peak RSS,
how it was measured), the hyperfine exports GROUP.roundN.json, samples.tsv
(times measured outside hyperfine), machine.txt, peers.txt and skipped.txt.
"""
import glob
import json
import os
import statistics
import sys


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
    if reference is None or reference <= 0:
        return ""
    r = value / reference
    return f"{r:.1f}×" if r < 100 else f"{r:.0f}×"


def main(folder):
    groups = read_tsv(os.path.join(folder, "groups.tsv"), 5)
    figures = read_tsv(os.path.join(folder, "figures.tsv"), 6)
    samples, cpu = {}, {}
    for row in read_tsv(os.path.join(folder, "samples.tsv"), 3):
        samples.setdefault((row[0], row[1]), []).append(float(row[2]))
        if len(row) > 3 and row[3]:
            cpu.setdefault((row[0], row[1]), []).append(float(row[3]))
    for path in sorted(glob.glob(os.path.join(folder, "*.round*.json"))):
        group = os.path.basename(path).rsplit(".round", 1)[0]
        with open(path, encoding="utf-8") as f:
            for result in json.load(f)["results"]:
                key = (group, result["command"])
                samples.setdefault(key, []).extend(result["times"])
                # hyperfine exports only the mean CPU time of a round's runs.
                cpu.setdefault(key, []).append(result["user"] + result["system"])

    out = ["# Benchmark results", ""]
    machine = read_lines(os.path.join(folder, "machine.txt"))
    if machine:
        out += [f"- {line}" for line in machine]
    peers = read_lines(os.path.join(folder, "peers.txt"))
    if peers:
        out.append("- peers: " + ", ".join(peers))
    out.append("")
    out.append("median: wall time of all runs; CPU: user + system time (median of the rounds' "
               "means), steadier than wall time on a busy machine; each × column divides by "
               "the same figure of the group's reference (for parsing: `sax_limit`, libxml2's "
               "push parser with empty callbacks, on the same file); MB/s from the median; "
               "peak RSS from `/usr/bin/time -v`.")

    for gid, title, reference, items, size in groups:
        rows = [f for f in figures if f[0] == gid]
        if not rows:
            continue
        size = int(size or 0)
        ref_samples = samples.get((gid, reference)) if reference else None
        ref_median = statistics.median(ref_samples) if ref_samples else None
        ref_cpu = cpu.get((gid, reference)) if reference else None
        ref_cpu_median = statistics.median(ref_cpu) if ref_cpu else None
        heading = title + (f" ({size / 1e6:.1f} MB)" if size else "")
        out += ["", f"## {heading}", ""]
        ref_title = f"× {reference}" if reference else "×"
        out.append(f"| figure | median | {ref_title} | CPU | {ref_title} | MB/s | peak RSS | runs | note |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for _, label, rss, how, note, _cmd in rows:
            times = samples.get((gid, label), [])
            if not times:
                out.append(f"| {label} | — | | | | | | 0 | no time recorded |")
                continue
            med = statistics.median(times)
            rate = f"{size / 1e6 / med:.0f}" if size and how != "inprocess" else ""
            memory = f"{int(rss) / 1024:.0f} MiB" if rss else ""
            notes = [n for n in (note, "measured by one run (slow)" if how == "single" else "",
                                 "in-process" if how == "inprocess" else "") if n]
            cpu_times = cpu.get((gid, label))
            cpu_med = statistics.median(cpu_times) if cpu_times else None
            cpu_cells = (f"{duration(cpu_med)} | {ratio(cpu_med, ref_cpu_median)}"
                         if cpu_med is not None else " | ")
            out.append(f"| {label} | {duration(med)} | {ratio(med, ref_median)} | {cpu_cells} | "
                       f"{rate} | {memory} | {len(times)} | {'; '.join(notes)} |")

    skipped = read_lines(os.path.join(folder, "skipped.txt"))
    if skipped:
        out += ["", "## Skipped", ""] + [f"- {line}" for line in skipped]
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: report.py RESULTS-FOLDER", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
