"""Mutation testing of key modules (``make mutate``; issue #38 item 6): does the suite fail when the code is wrong?

Each *mutant* is one small operator change to one module, made on the module's abstract syntax tree and
written back into the source text in place of the expression it changes (the rest of the file stays as it
is): a comparison flipped (``<`` ↔ ``<=``, ``==`` ↔ ``!=``, ``in`` ↔ ``not in``), ``+`` ↔ ``-``, ``*`` ↔ ``/``,
a term of a sum or product dropped, an integer constant off by one, a float constant doubled (not a
rounding tolerance under 0.001, whose change no test can see), ``True`` ↔
``False``, ``and`` ↔ ``or``, a ``not`` dropped, an ``if`` condition negated, ``min`` ↔ ``max``. Docstrings,
annotations and f-strings are left alone.

A mutant is *killed* when the test files that cover its area fail (or time out, or run out of memory) with
it in place, and *survives* when they pass. The run never touches the working tree: every worker copies the
repository to a temporary folder of its own (``punchboard.generator`` and the other mapped packages are
symlinked inside the copied ``punchboard/``, as the editable install maps them), writes each mutant there,
runs only its area's test files under ``nice`` with a wall-clock timeout (3 × the unmutated run + 20 s) and
an address-space limit (RLIMIT_AS, default 3 GB; one mutant of the piece limit once made the suite use
24 GB), and puts the file back. Areas with more mutants than ``--max`` are sampled with a fixed seed, so
the same tree gives the same mutants; the report says when it sampled.

Run: ``python tools/mutate.py [--area NAME ...] [--max N] [--jobs N] [--list]``. Exit 0 when every area
reaches ``--target`` (default 85 %), 1 when one does not, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 38  # the sample of mutants is fixed by this seed (issue #38)
# the packages the editable install maps into punchboard (pyproject.toml, [tool.setuptools.package-dir])
MAPPED = {"generator": "generator", "verifier": "verifier", "layouts": "layouts", "games": "components"}
COPIED = ("punchboard", "generator", "verifier", "layouts", "components", "tests", "pyproject.toml")
STOP = threading.Event()  # set on Ctrl-C or SIGTERM: no new test run starts, running ones are killed
RUNNING: set[int] = set()  # the process groups of the test runs under way


@dataclass(frozen=True)
class Area:
    """A set of modules (optionally only some of their functions) and the test files that cover them."""

    name: str
    modules: tuple[str, ...]
    tests: tuple[str, ...]
    functions: tuple[str, ...] = ()  # empty: the whole module


AREAS = (  # the fast test files that cover each area; slower build-level files (test_kept_bleed, test_auto_bleed,
    # test_cards, test_limits: 15–45 s each) would make a run of every mutant take hours
    Area("probability", ("verifier/probability/stats.py", "verifier/probability/compound.py"),
         ("tests/verifier/test_stats_values.py", "tests/verifier/test_stats.py", "tests/verifier/test_compound_events.py")),
    Area("grid", ("generator/impose/grid.py",), ("tests/generator/impose/test_grid_mutants.py",)),
    Area("kept_bleed", ("generator/impose/kept_bleed.py",), ("tests/generator/impose/test_kept_bleed_values.py",)),
    Area("pieces", ("punchboard/spec/loader/components.py",),
         ("tests/spec/test_piece_expansion.py", "tests/spec/test_card_table_rows.py"),
         functions=("range_length", "side", "_printed", "_pieces", "_declared_fields", "_entries", "_entry_templates",
                    "_row_templates", "_cells")),
)


@dataclass(frozen=True)
class Mutant:
    """One change: bytes ``start:end`` of ``module`` become ``text``."""

    module: str
    line: int
    start: int
    end: int
    text: str
    what: str
    old: bytes = b""  # the bytes it replaces

    def apply(self, source: bytes) -> bytes:
        if source[self.start : self.end] != self.old:
            raise RuntimeError(f"{self.module}:{self.line}: the file is not the one the mutant was made from")
        return source[: self.start] + self.text.encode() + source[self.end :]


# --- making mutants --------------------------------------------------------------------------------------------

CMP_FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
            ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
BIN_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Mult,
            ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult}
SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in",
          ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
          ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.And: "and", ast.Or: "or"}


class _Offsets:
    """Byte offsets of (line, column) positions (ast columns count UTF-8 bytes)."""

    def __init__(self, source: bytes):
        self.starts = [0]
        for line in source.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (self.starts[node.lineno - 1] + node.col_offset,  # type: ignore[attr-defined]
                self.starts[node.end_lineno - 1] + node.end_col_offset)  # type: ignore[attr-defined]


def _skipped(tree: ast.Module) -> set[int]:
    """ids of nodes never mutated: docstrings, annotations, f-strings and everything inside them."""
    skip: set[int] = set()

    def drop(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            drop(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            drop(node.returns)
            for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg):
                drop(a.annotation if a is not None else None)
            for d in node.decorator_list:
                drop(d)
        elif isinstance(node, ast.AnnAssign):
            drop(node.annotation)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                drop(first)
    return skip


def _changes(node: ast.AST) -> Iterator[tuple[ast.AST, str, str]]:
    """(node to replace, replacement source, description) for every mutation of ``node`` itself."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            flipped = CMP_FLIP.get(type(op))
            if flipped is not None:
                ops = list(node.ops)
                ops[i] = flipped()
                new = ast.Compare(node.left, ops, node.comparators)
                yield node, f"({ast.unparse(new)})", f"{SYMBOL[type(op)]} → {SYMBOL[flipped]}"
    elif isinstance(node, ast.BinOp):
        swapped = BIN_SWAP.get(type(node.op))
        if swapped is not None:
            yield node, f"({ast.unparse(ast.BinOp(node.left, swapped(), node.right))})", \
                f"{SYMBOL[type(node.op)]} → {SYMBOL[swapped]}"
        if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            yield node, f"({ast.unparse(node.left)})", f"'{SYMBOL[type(node.op)]} {ast.unparse(node.right)}' dropped"
    elif isinstance(node, ast.AugAssign) and type(node.op) in BIN_SWAP:
        swapped = BIN_SWAP[type(node.op)]
        yield node, ast.unparse(ast.AugAssign(node.target, swapped(), node.value)), \
            f"{SYMBOL[type(node.op)]}= → {SYMBOL[swapped]}="
    elif isinstance(node, ast.BoolOp):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield node, f"({ast.unparse(ast.BoolOp(other, node.values))})", f"{SYMBOL[type(node.op)]} → {SYMBOL[type(other)]}"
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        yield node, f"({ast.unparse(node.operand)})", f"'{'not' if isinstance(node.op, ast.Not) else '-'}' dropped"
    elif isinstance(node, (ast.If, ast.IfExp, ast.While)):
        yield node.test, f"(not ({ast.unparse(node.test)}))", "condition negated"
    elif isinstance(node, ast.Constant) and not isinstance(node.value, str):
        value = node.value
        if isinstance(value, bool):
            yield node, repr(not value), f"{value} → {not value}"
        elif isinstance(value, int):
            yield node, f"({value + 1})", f"{value} → {value + 1}"
        elif isinstance(value, float) and abs(value) >= 1e-3:  # not a rounding tolerance (1e-6, 1e-9)
            new = value * 2 if value else 1.0
            yield node, f"({new!r})", f"{value!r} → {new!r}"
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
        other_name = "max" if node.func.id == "min" else "min"
        yield node.func, other_name, f"{node.func.id}( → {other_name}("


def _function_nodes(tree: ast.Module, functions: Sequence[str]) -> list[ast.AST]:
    """The module, or the definitions of ``functions`` in it (every name must be found: a renamed function is
    an error, not a quietly smaller area)."""
    if not functions:
        return [tree]
    found = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in functions]
    missing = set(functions) - {n.name for n in found}  # type: ignore[attr-defined]
    if missing:
        raise SystemExit(f"tools/mutate.py: no function {', '.join(sorted(missing))} any more; update AREAS")
    return found


def mutants_of(module: str, functions: Sequence[str] = (), root: Path = ROOT) -> list[Mutant]:
    """Every mutant of ``module`` under ``root`` (only inside ``functions`` when given), in source order, each
    compiling."""
    source = (root / module).read_bytes()
    tree = ast.parse(source)
    offsets, skip = _Offsets(source), _skipped(tree)
    lines = source.decode().splitlines()
    found: dict[bytes, Mutant] = {}
    for top in _function_nodes(tree, functions):
        for node in ast.walk(top):
            if id(node) in skip:
                continue
            for target, text, what in _changes(node):
                if "pragma: no mutate" in lines[target.lineno - 1]:  # type: ignore[attr-defined]
                    continue
                start, end = offsets.span(target)
                mutant = Mutant(module, target.lineno, start, end, text, what,  # type: ignore[attr-defined]
                                source[start:end])
                new = mutant.apply(source)
                if new == source or new in found:
                    continue
                try:
                    compile(new, module, "exec")
                except SyntaxError:
                    continue
                found[new] = mutant
    return sorted(found.values(), key=lambda m: (m.start, m.end, m.what))


def sample(mutants: list[Mutant], limit: int | None) -> list[Mutant]:
    """At most ``limit`` of ``mutants``, chosen with the fixed seed, in source order."""
    if limit is None or len(mutants) <= limit:
        return mutants
    return sorted(random.Random(SEED).sample(mutants, limit), key=lambda m: (m.module, m.start, m.what))


# --- running them ----------------------------------------------------------------------------------------------

def make_tree(into: Path, source: Path = ROOT) -> Path:
    """A private copy of the repository (or of another such copy) where ``punchboard`` imports from it alone
    (PYTHONPATH)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "output")
    for name in COPIED:
        src = source / name
        if src.is_dir():
            shutil.copytree(src, into / name, ignore=ignore, symlinks=True)
        else:
            shutil.copy2(src, into / name)
    for package, folder in MAPPED.items():
        link = into / "punchboard" / package
        if not link.is_symlink():  # a copy of a copy has them already
            link.symlink_to(Path("..") / folder)
    return into


def _limit_memory(megabytes: int) -> None:
    os.nice(10)
    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run_tests(tree: Path, tests: Sequence[str], timeout: float, memory_mb: int) -> tuple[str, float]:
    """('passed' | 'failed' | 'timeout', seconds) for ``tests`` run in ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    present = [t for t in tests if (tree / t).exists()]  # a test file an area lists may not be written yet
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *present]
    began = time.monotonic()
    if STOP.is_set():
        return "stopped", 0.0
    proc = subprocess.Popen(command, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, preexec_fn=lambda: _limit_memory(memory_mb))
    RUNNING.add(proc.pid)
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return "timeout", time.monotonic() - began
    finally:
        RUNNING.discard(proc.pid)
    if STOP.is_set():
        return "stopped", 0.0
    # pytest's 1: tests failed, 2: interrupted or a module that does not import (both the mutant's doing);
    # 3–5 (internal error, usage error, nothing collected) say the run itself went wrong, not the mutant
    outcome = {0: "passed", 1: "failed", 2: "failed"}.get(code, f"error {code}")
    return outcome, time.monotonic() - began


def _forget_bytecode(tree: Path, module: str) -> None:
    """Drop the module's compiled copies: a mutant and its original can share size and second of change."""
    path = tree / module
    for pyc in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
        pyc.unlink()


class Workers:
    """One private tree per job; a mutant borrows a tree, is written into it and always put back."""

    def __init__(self, base: Path, jobs: int):
        # one snapshot of the working tree (others may be editing it): the first copy, the rest copied from it
        first = make_tree(Path(tempfile.mkdtemp(prefix="w0-", dir=base)))
        self.snapshot = first
        self.free = [first] + [make_tree(Path(tempfile.mkdtemp(prefix=f"w{i}-", dir=base)), first) for i in range(1, jobs)]
        self.lock = threading.Lock()

    def run(self, mutant: Mutant | None, area: Area, timeout: float, memory_mb: int) -> tuple[str, float]:
        with self.lock:
            tree = self.free.pop()
        try:
            if mutant is None:
                return run_tests(tree, area.tests, timeout, memory_mb)
            target = tree / mutant.module
            original = target.read_bytes()
            try:
                target.write_bytes(mutant.apply(original))
                _forget_bytecode(tree, mutant.module)
                return run_tests(tree, area.tests, timeout, memory_mb)
            finally:
                target.write_bytes(original)
                _forget_bytecode(tree, mutant.module)
        finally:
            with self.lock:
                self.free.append(tree)


def run_area(workers: Workers, area: Area, mutants: list[Mutant], jobs: int, memory_mb: int) -> list[tuple[Mutant, str]]:
    """Each mutant with its outcome; raises RuntimeError when the unmutated tests do not pass."""
    outcome, seconds = workers.run(None, area, 900, memory_mb)
    if outcome != "passed":
        raise RuntimeError(f"{area.name}: the unmutated tests {outcome} ({' '.join(area.tests)})")
    timeout = 3 * seconds + 20
    print(f"{area.name}: {len(mutants)} mutants, tests take {seconds:.1f} s unmutated (timeout {timeout:.0f} s)",
          file=sys.stderr, flush=True)
    done = [0]

    def one(mutant: Mutant) -> tuple[Mutant, str]:
        result, _ = workers.run(mutant, area, timeout, memory_mb)
        done[0] += 1
        if result == "passed":
            print(f"  [{done[0]}/{len(mutants)}] survived {mutant.module}:{mutant.line}: {mutant.what}",
                  file=sys.stderr, flush=True)
        return mutant, result

    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        return list(pool.map(one, mutants))
    except BaseException:
        _stop_all()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def report(area: Area, results: list[tuple[Mutant, str]], total: int) -> float:
    """Print the area's score and survivors; return the score (fraction killed)."""
    killed = sum(1 for _, r in results if r in ("failed", "timeout"))
    timeouts = sum(1 for _, r in results if r == "timeout")
    score = killed / len(results) if results else 1.0
    sampled = f" (a sample of {len(results)} of {total}, seed {SEED})" if len(results) < total else ""
    print(f"{area.name}: {killed}/{len(results)} killed, {score:.0%}{sampled}; {timeouts} by timeout")
    for mutant, result in results:
        if result == "passed":
            print(f"  survived {mutant.module}:{mutant.line}: {mutant.what}")
        elif result not in ("failed", "timeout"):  # counted as not killed
            print(f"  {result} (the test run failed to run) {mutant.module}:{mutant.line}: {mutant.what}")
    return score


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _stop_all() -> None:
    """No new test run; the running ones killed (each is its own process group)."""
    STOP.set()
    for group in list(RUNNING):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)


def plan(areas: Sequence[Area], root: Path, limit: int | None, match: str | None = None
         ) -> list[tuple[Area, list[Mutant], list[Mutant]]]:
    """Each area with every mutant of its modules under ``root`` and the ones to run (a sample above ``limit``,
    then only those whose description holds ``match``)."""
    planned = []
    for area in areas:
        every = [m for module in area.modules for m in mutants_of(module, area.functions, root)]
        chosen = [m for m in sample(every, limit) if match is None or match in f"{m.module}:{m.line}: {m.what}"]
        planned.append((area, every if match is None else chosen, chosen))
    return planned


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Mutation testing of key modules (see the module docstring).")
    parser.add_argument("--area", action="append", choices=[a.name for a in AREAS], help="only this area (repeatable)")
    parser.add_argument("--max", type=int, default=None, help="at most this many mutants per area (fixed-seed sample)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--memory-mb", type=int, default=3072, help="address-space limit of each test run")
    parser.add_argument("--target", type=float, default=0.85, help="the score every area must reach")
    parser.add_argument("--list", action="store_true", help="list the mutants without running them")
    parser.add_argument("--match", help="only the mutants whose 'file:line: change' holds this text (after sampling)")
    args = parser.parse_args(argv)
    areas = [a for a in AREAS if not args.area or a.name in args.area]
    if args.list:
        for area, every, chosen in plan(areas, ROOT, args.max, args.match):
            print(f"{area.name}: {len(chosen)} of {len(every)} mutants")
            for m in chosen:
                print(f"  {m.module}:{m.line}: {m.what}")
        return 0
    began = time.monotonic()
    scores = {}
    signal.signal(signal.SIGTERM, _interrupt)
    with tempfile.TemporaryDirectory(prefix="punchboard-mutate-") as base:
        try:
            workers = Workers(Path(base), max(1, args.jobs))
            for area, every, chosen in plan(areas, workers.snapshot, args.max, args.match):  # of the copied files
                try:
                    results = run_area(workers, area, chosen, max(1, args.jobs), args.memory_mb)
                except RuntimeError as err:  # the unmutated tests fail: no score for this area
                    print(f"{err}; no score", flush=True)
                    scores[area.name] = 0.0
                    continue
                scores[area.name] = report(area, results, len(every))
        except KeyboardInterrupt:
            _stop_all()
            print("interrupted", file=sys.stderr)
            return 130
    print(f"{len(scores)} areas in {time.monotonic() - began:.0f} s; target {args.target:.0%}: "
          + ", ".join(f"{name} {score:.0%}" for name, score in scores.items()))
    return 0 if all(s >= args.target for s in scores.values()) else 1

if __name__ == "__main__":
    sys.exit(main())
