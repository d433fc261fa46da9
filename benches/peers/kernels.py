#!/usr/bin/env python3
"""Graph kernels beside the GAP Benchmark Suite, SuiteSparse GraphBLAS and NetworKit,
on the same graphs in one run (outside CI: it builds GAPBS and takes minutes).

    benches/peers/kernels.py [--nodes 100000,1000000] [--trials 8] [--no-real] [--dir DIR] [--huge-pages]

Needs the release examples (`cargo build --release --example bench_kernels`), `make`
and a C++ compiler with OpenMP, and `pip install python-graphblas networkit numpy`.

- Graphs: the benchmark workload (`bench_kernels -g N`: N nodes, about 5N uniform random
  edges, no self-loops or repeated pairs) for each `--nodes`, and one real graph: the
  `Depends` of Debian's main archive on this machine (`/var/lib/apt/lists`, the first
  alternative of each dependency). Weights are integers drawn from 1..=255, as GAPBS
  weighs an unweighted graph; every engine reads the same `.wel` file.
- ours: `examples/bench_kernels.rs` (each answer verified), on one thread and on two
  (`-t 2`): `bfs` the depth of every node, `sssp` delta-stepping distances, `pr` PageRank
  until the ranks move by less than 1e-4 (L1), `cc` weak components (a label per node, as
  GAPBS's `cc` answers); `build` adds the nodes and edges by string id and then builds
  the compact rows (on one thread). Paging as the server's default: transparent huge
  pages off (`--huge-pages` leaves ours with the kernel's setting, as the server's flag
  of that name does; GAPBS, on glibc's allocator, gets huge pages only where the kernel
  gives them unasked).
- GAPBS (vendored in `benches/peers/gapbs`, built here with `make`): `bfs`
  (direction-optimizing), `sssp` (delta-stepping, `-d 8`), `pr` (`-i 20 -t 1e-4`), `cc`
  (Afforest); serial (`SERIAL=1`) and with OpenMP on two threads. Its build is from the
  integer pairs to CSR both ways. The copy built here prints its times to 8 decimals
  instead of 5 (`PrintTime` in `src/util.h`, nothing else changed), so that kernels of a
  few microseconds compare.
- SuiteSparse GraphBLAS (`python-graphblas`, one thread): BFS levels (`any_pair`), and
  PageRank as the same power iteration in `vxm` (plus_second), both written here; its
  build is `Matrix.from_coo` from NumPy arrays.
- NetworKit (one thread): `BFS`, `Dijkstra`, `PageRank` (its own stopping rule),
  `WeaklyConnectedComponents`; its build is `Graph.addEdges` from NumPy arrays.

Every time is the mean of `--trials` trials (BFS and SSSP from random sources with
out-edges), in seconds; the table also gives ours ÷ GAPBS serial and, on two threads,
ours ÷ GAPBS.
"""

import argparse
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNEL_NAMES = ["build", "bfs", "sssp", "pr", "cc"]


def run(cmd, env=None) -> str:
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(f"kernels.py: {' '.join(map(str, cmd))} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return out.stdout


def build_gapbs(directory: pathlib.Path) -> dict:
    built = {}
    for name, serial in (("serial", True), ("omp", False)):
        target = directory / f"gapbs-{name}"
        if not (target / "pr").exists():
            subprocess.run(["rm", "-rf", str(target)])
            subprocess.run(["cp", "-r", str(ROOT / "benches/peers/gapbs"), str(target)], check=True)
            util = target / "src/util.h"
            text = util.read_text().replace('"%-21s%3.5lf\\n"', '"%-21s%3.8lf\\n"')
            if "%3.8lf" not in text:
                sys.exit("kernels.py: GAPBS's PrintTime format changed; update build_gapbs")
            util.write_text(text)
            flags = ["SERIAL=1"] if serial else []
            run(["make", "-C", str(target), "-j2", "bfs", "sssp", "pr", "cc", *flags])
        built[name] = target
    return built


def debian_graph(path: pathlib.Path) -> int:
    """Writes the Depends graph of Debian's main archive as a .wel file; its node count."""
    lists = sorted(pathlib.Path("/var/lib/apt/lists").glob("*_main_binary-*_Packages*"))
    if not lists:
        return 0
    text = []
    for f in lists:
        helper = "/usr/lib/apt/apt-helper"
        text.append(run([helper, "cat-file", str(f)]) if os.path.exists(helper) else f.read_text())
    packages, depends = [], {}
    for stanza in "\n".join(text).split("\n\n"):
        name = re.search(r"^Package: (\S+)", stanza, re.M)
        if not name:
            continue
        name = name.group(1)
        if name in depends:
            continue
        packages.append(name)
        deps = []
        for field in re.findall(r"^(?:Pre-)?Depends: (.*)$", stanza, re.M):
            for item in field.split(","):
                first = item.split("|")[0].strip().split(" ")[0].split(":")[0]
                if first:
                    deps.append(first)
        depends[name] = deps
    number = {p: i for i, p in enumerate(packages)}
    rng = random.Random(7)
    with open(path, "w") as out:
        for p in packages:
            for d in depends[p]:
                if d in number:
                    out.write(f"{number[p]} {number[d]} {rng.randint(1, 255)}\n")
    return len(packages)


def ours(args, source: list, trials: int, threads: int = 1) -> dict:
    binary = ROOT / "target/release/examples/bench_kernels"
    paging = ["--huge-pages"] if args.huge_pages else []
    out = run([str(binary), *source, "-n", str(trials), "-k", "bfs,sssp,pr,cc", "-t", str(threads), "--json", *paging])
    times = {}
    build = re.search(r"Build Time:\s+([0-9.]+)", out)
    rows = re.search(r"Rows Time:\s+([0-9.]+)", out)
    times["build"] = float(build.group(1)) + float(rows.group(1))
    for line in out.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            times[record["kernel"]] = record["mean_s"]
    return times


def gapbs(binaries: pathlib.Path, graph: pathlib.Path, trials: int, threads: int) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    times = {}
    for kernel, extra in (("bfs", []), ("sssp", ["-d", "8"]), ("pr", ["-i", "20", "-t", "1e-4"]), ("cc", [])):
        out = run([str(binaries / kernel), "-f", str(graph), "-n", str(trials), *extra], env=env)
        times[kernel] = float(re.search(r"Average Time:\s+([0-9.]+)", out).group(1))
        if kernel == "bfs":
            times["build"] = float(re.search(r"Build Time:\s+([0-9.]+)", out).group(1))
    return times


def read_wel(path: pathlib.Path):
    import numpy as np

    data = np.loadtxt(path, dtype=np.int64, ndmin=2)
    n = int(data[:, :2].max()) + 1
    return n, data[:, 0], data[:, 1], data[:, 2].astype(np.float64)


def sources(n, src, trials):
    import numpy as np

    has_out = np.zeros(n, dtype=bool)
    has_out[src] = True
    candidates = np.flatnonzero(has_out)
    return np.random.default_rng(5).choice(candidates, size=trials)


def graphblas(path: pathlib.Path, trials: int) -> dict:
    try:
        import graphblas as gb
        import numpy as np
        from graphblas import Matrix, Vector, binary, monoid, semiring
    except ImportError:
        return {}
    gb.ss.config["nthreads"] = 1
    n, src, dst, w = read_wel(path)
    started = time.perf_counter()
    A = Matrix.from_coo(src, dst, np.ones(len(src)), nrows=n, ncols=n, dup_op=binary.plus)
    times = {"build": time.perf_counter() - started}

    def bfs(s):
        level = Vector(int, n)
        frontier = Vector(bool, n)
        frontier[s] = True
        depth = 0
        while frontier.nvals:
            level(frontier.S) << depth
            depth += 1
            frontier(~level.S, replace=True) << frontier.vxm(A, semiring.any_pair)
        return level

    runs = []
    for s in sources(n, src, trials):
        started = time.perf_counter()
        bfs(int(s))
        runs.append(time.perf_counter() - started)
    times["bfs"] = sum(runs) / len(runs)

    out_degree = A.reduce_rowwise(monoid.plus).new()
    degree = out_degree.to_dense(fill_value=0.0)
    dangling = degree == 0

    def pagerank():
        r = np.full(n, 1.0 / n)
        for _ in range(20):
            share = Vector.from_dense(np.divide(r, degree, out=np.zeros(n), where=~dangling))
            received = share.vxm(A, semiring.plus_times).new().to_dense(fill_value=0.0)
            lost = r[dangling].sum()
            new = 0.85 * (received + lost / n) + 0.15 / n
            moved = np.abs(new - r).sum()
            r = new
            if moved < 1e-4:
                break
        return r

    runs = []
    for _ in range(trials):
        started = time.perf_counter()
        pagerank()
        runs.append(time.perf_counter() - started)
    times["pr"] = sum(runs) / len(runs)
    return times


def networkit(path: pathlib.Path, trials: int) -> dict:
    try:
        import networkit as nk
        import numpy as np
    except ImportError:
        return {}
    nk.setNumberOfThreads(1)
    nk.engineering.setLogLevel("ERROR")
    n, src, dst, w = read_wel(path)
    started = time.perf_counter()
    G = nk.Graph(n, weighted=True, directed=True)
    G.addEdges((w, (src.astype(np.uint64), dst.astype(np.uint64))))
    G.indexEdges()
    times = {"build": time.perf_counter() - started}
    picked = [int(s) for s in sources(n, src, trials)]

    def mean(make):
        runs = []
        for s in picked:
            algo = make(s)
            started = time.perf_counter()
            algo.run()
            runs.append(time.perf_counter() - started)
        return sum(runs) / len(runs)

    times["bfs"] = mean(lambda s: nk.distance.BFS(G, s, storePaths=False))
    times["sssp"] = mean(lambda s: nk.distance.Dijkstra(G, s, storePaths=False))
    times["pr"] = mean(lambda s: nk.centrality.PageRank(G, damp=0.85, tol=1e-4))
    times["cc"] = mean(lambda s: nk.components.WeaklyConnectedComponents(G))
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", default="100000,1000000")
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--dir", default=None)
    parser.add_argument("--huge-pages", action="store_true")
    args = parser.parse_args()
    directory = pathlib.Path(args.dir or tempfile.mkdtemp(prefix="kernels-"))
    directory.mkdir(parents=True, exist_ok=True)
    binaries = build_gapbs(directory)
    graphs = []
    for n in [int(x) for x in args.nodes.split(",") if x]:
        path = directory / f"uniform-{n}.wel"
        graphs.append((f"uniform, {n:,} nodes", path, ["-g", str(n), "--integer-weights", "--write", str(path)]))
    if not args.no_real:
        path = directory / "debian.wel"
        if debian_graph(path):
            graphs.append(("Debian main Depends", path, ["-f", str(path)]))
    for name, path, source in graphs:
        results = {"ours": ours(args, source, args.trials)}
        results["GAPBS serial"] = gapbs(binaries["serial"], path, args.trials, 1)
        # The graph is written now; the second run of ours reads the same file.
        results["ours 2 threads"] = ours(args, ["-f", str(path)], args.trials, 2)
        results["ours 2 threads"].pop("build", None)
        results["GAPBS 2 threads"] = gapbs(binaries["omp"], path, args.trials, 2)
        results["GraphBLAS 1 thread"] = graphblas(path, args.trials)
        results["NetworKit 1 thread"] = networkit(path, args.trials)
        edges = sum(1 for _ in open(path))
        print(json.dumps({"graph": name, "edges": edges, "seconds": results}), flush=True)
        engines = list(results)
        print(f"\n{name}, {edges:,} edges (mean seconds of {args.trials} trials)\n")
        print("| kernel | " + " | ".join(engines) + " | ours ÷ GAPBS serial | 2 threads: ours ÷ GAPBS |")
        print("|---|" + "---:|" * (len(engines) + 2))
        for kernel in KERNEL_NAMES:
            cells = []
            for engine in engines:
                t = results[engine].get(kernel)
                cells.append("—" if t is None else f"{t:.4f}" if t >= 0.001 else f"{t:.2e}")
            def ratio(mine, theirs):
                a, b = results[mine].get(kernel), results[theirs].get(kernel)
                return "—" if a is None or not b else f"{a / b:.2f}×"
            serial, parallel = ratio("ours", "GAPBS serial"), ratio("ours 2 threads", "GAPBS 2 threads")
            print(f"| {kernel} | " + " | ".join(cells) + f" | {serial} | {parallel} |")
        print(flush=True)


if __name__ == "__main__":
    main()
