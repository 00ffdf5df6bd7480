"""A one-line progress bar on stderr for the long experiments
(`make repro-multics`, `make repro-unix`): [#####.....] done/steps time what.

Two ways to move it: `step(what)` names the step about to run (the bar
shows the steps finished before it), `advance(what, n)` counts n steps
finished. Runs on several threads may share one bar."""

import sys
import threading
import time

WIDTH = 30            # characters of the bar itself
WHAT_WIDTH = 50       # characters of the step's name


class Progress:
    def __init__(self, steps: int, out=sys.stderr):
        self.steps, self.done, self.out, self.t0 = steps, 0, out, time.time()
        self.lock = threading.Lock()

    def _draw(self, what: str) -> None:
        filled = WIDTH * self.done // max(self.steps, 1)
        self.out.write(f"\r[{'#' * filled}{'.' * (WIDTH - filled)}] {self.done}/{self.steps} "
                       f"{time.time() - self.t0:5.0f}s {what[:WHAT_WIDTH]:<{WHAT_WIDTH}}")
        self.out.flush()

    def step(self, what: str) -> None:
        with self.lock:
            self._draw(what)
            self.done = min(self.done + 1, self.steps)

    def advance(self, what: str, n: int = 1) -> None:
        with self.lock:
            self.done = min(self.done + n, self.steps)
            self._draw(what)

    def end(self) -> None:
        with self.lock:
            self.done = self.steps
            self._draw("done")
            self.out.write("\n")
