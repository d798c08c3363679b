#!/usr/bin/env python3
"""An outside planner for tflite-arena, in Python with the standard library only.

Reads a placement problem in MiniMalloc's format (id,lower,upper,size: buffer id, the half-open interval of
nodes it is live at, its size), as `tflite-arena plan MODEL --export-buffers PROBLEM.csv` writes it, and
writes a solution in MiniMalloc's output format (id,lower,upper,size,offset), which
`tflite-arena run MODEL --plan SOLUTION.csv` hands to TFLite. The strategy is greedy by size: the largest
buffer first, each at the lowest offset where it fits beside the buffers placed so far that are live at the
same time. Sizes are already rounded up to the tensor alignment, so offsets that are sums of sizes stay aligned.

    python3 greedy_planner.py PROBLEM.csv SOLUTION.csv
"""
import csv
import sys


def place(buffers):
    placed = []
    for b in sorted(buffers, key=lambda b: (-b["size"], b["lower"])):
        offset = 0
        for other in sorted((p for p in placed if p["lower"] < b["upper"] and b["lower"] < p["upper"]),
                            key=lambda p: p["offset"]):
            if other["offset"] >= offset + b["size"]:
                break
            offset = max(offset, other["offset"] + other["size"])
        b["offset"] = offset
        placed.append(b)
    return buffers


def main(problem, solution):
    with open(problem, newline="") as f:
        buffers = [{k: int(v) for k, v in row.items()} for row in csv.DictReader(f)]
    place(buffers)
    with open(solution, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["id", "lower", "upper", "size", "offset"])
        for b in buffers:
            out.writerow([b["id"], b["lower"], b["upper"], b["size"], b["offset"]])
    print(f"{len(buffers)} buffers placed in {max((b['offset'] + b['size'] for b in buffers), default=0)} bytes")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: greedy_planner.py PROBLEM.csv SOLUTION.csv")
    main(sys.argv[1], sys.argv[2])
