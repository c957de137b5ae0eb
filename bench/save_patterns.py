"""How long real editors' saves take, seen through change notifications: ``python -m bench.save_patterns``.

Each editor (where installed) saves a file in a watched folder; every notification batch is
timestamped (1 ms steps) and the span from the first to the last event on the saved file is
printed. ``punchboard.plumbing.watch.QUIET_MS`` (the quiet window that ends a save) is chosen
well above the longest span measured here.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path


def _saves(file: Path) -> dict[str, list[str]]:
    saves = {
        "vim (swap file)": ["vim", "-es", "-u", "NONE", "-c", "%s/a/b/", "-c", "wq", str(file)],
        "vim (backup, rename)": ["vim", "-es", "-u", "NONE", "-c", "set backup writebackup backupcopy=no",
                                 "-c", "%s/b/a/", "-c", "wq", str(file)],
        "sed -i (temporary file, rename)": ["sed", "-i", "s/a/c/", str(file)],
        "perl -pi (temporary file, rename)": ["perl", "-pi", "-e", "s/c/a/", str(file)],
        "ed (truncate, write)": ["sh", "-c", f"printf ',s/a/d/\\nw\\nq\\n' | ed -s '{file}'"],
    }
    return {name: command for name, command in saves.items() if shutil.which(command[0])}


def span_ms(folder: Path, file: Path, command: list[str]) -> tuple[float, int]:
    """(first → last event on ``file`` in ms, number of batches) for one save by ``command``."""
    from watchfiles import watch

    stamps: list[float] = []
    stop = threading.Event()
    started = threading.Event()

    def listen() -> None:
        for batch in watch(folder, step=1, debounce=5000, rust_timeout=300, yield_on_timeout=True,
                           stop_event=stop, watch_filter=None):
            started.set()
            if any(Path(path) == file for _, path in batch):
                stamps.append(time.perf_counter())
            elif not batch and stamps:
                return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    started.wait(5)
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    thread.join(10)
    stop.set()
    return ((stamps[-1] - stamps[0]) * 1000 if stamps else float("nan")), len(stamps)


def main() -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        file = folder / "cards.yaml"
        file.write_text("a: 1\n" * 2000)
        for name, command in _saves(file).items():
            spans = [span_ms(folder, file, command) for _ in range(5)]
            print(f"{name}: events on the saved file span {max(s for s, _ in spans):.1f} ms at most "
                  f"({max(n for _, n in spans)} batches at most, 5 saves)")


if __name__ == "__main__":
    main()
