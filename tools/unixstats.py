"""unixstats: the statistics of the paged-versus-swapped experiment
(tools/repro_unix.py), pure functions with host tests (tests/test_unix.py).

The paper (papers/003) plots, per load level, the median, the mean, the
75th and the 90th percentile of the response times measured at that
level, and for the Purdue data the 75th percentile of level i computed
over the samples of levels i-1, i and i+1 together. Load is counted two
ways: users logged in, and user processes.

A record is a dict with at least "mm", "task", "users", "procs" and
"real" (seconds); parse_log() makes them from the probe's log.
"""

import math
import re

TASKS = ("man", "cpu", "cc")
BY = ("users", "procs")

_TASK = re.compile(r"^task (\w+) (\d+)\s*$")
_TIME = re.compile(r"^real (\d+\.\d+)s user (\d+\.\d+)s sys (\d+\.\d+)s\s*$")
_NUMBER = re.compile(r"\d+")


def parse_log(text: str, **fields) -> list:
    """The records in a probe log: each task's "task NAME I" line, then the
    load line (`who -c`: its first two numbers are the users and the user
    processes), then time's "real R user U sys S" line. Lines between them
    that are neither (a task's own complaints) are skipped; a record
    missing its load or its time is dropped. `fields` are added to every
    record (the manager, the users started)."""
    records, cur = [], None
    for line in text.splitlines():
        line = line.strip()
        m = _TASK.match(line)
        if m:
            cur = {"task": m.group(1), "iter": int(m.group(2))}
            continue
        if cur is None:
            continue
        m = _TIME.match(line)
        if m:
            if "users" in cur:
                cur.update(real=float(m.group(1)), user=float(m.group(2)), sys=float(m.group(3)))
                records.append({**fields, **cur})
            cur = None
            continue
        if "users" not in cur:
            nums = _NUMBER.findall(line)
            if len(nums) >= 2:
                cur["users"], cur["procs"] = int(nums[0]), int(nums[1])
    return records


def percentile(values, q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between the
    closest ranks (numpy's default): the median of [1, 2, 3, 4] is 2.5."""
    xs = sorted(values)
    if not xs:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile {q} outside 0..100")
    pos = (len(xs) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summary(values) -> dict:
    """n, median, mean, 75th and 90th percentile of a list of times."""
    xs = list(values)
    return {"n": len(xs), "median": percentile(xs, 50), "mean": sum(xs) / len(xs),
            "p75": percentile(xs, 75), "p90": percentile(xs, 90)}


def group(records, task: str, mm: str, by: str) -> dict:
    """{load level: [response times]} for one task and manager, the load
    counted by `by` ("users" or "procs")."""
    if by not in BY:
        raise ValueError(f"load is counted by {BY}, not {by!r}")
    out = {}
    for r in records:
        if r["task"] == task and r["mm"] == mm:
            out.setdefault(r[by], []).append(r["real"])
    return dict(sorted(out.items()))


def smoothed_p75(groups: dict) -> dict:
    """{level: 75th percentile over the samples of levels level-1, level
    and level+1 together} for every level that has samples (the paper's
    filter for its Purdue data)."""
    out = {}
    for level in groups:
        pooled = [x for k in (level - 1, level, level + 1) for x in groups.get(k, ())]
        out[level] = percentile(pooled, 75)
    return out


def curves(groups: dict) -> dict:
    """{level: summary + "p75s" (smoothed)} for one task, manager and load count."""
    smooth = smoothed_p75(groups)
    return {level: {**summary(xs), "p75s": smooth[level]} for level, xs in groups.items()}


def pearson(xs, ys):
    """Pearson's correlation of two equal-length lists; None if either is constant."""
    xs, ys = list(xs), list(ys)
    if len(xs) != len(ys):
        raise ValueError("pearson of lists of different lengths")
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def correlation(records, task: str, mm: str, by: str):
    """How well the load counted by `by` predicts a task's response time:
    Pearson's r over the individual samples."""
    rs = [r for r in records if r["task"] == task and r["mm"] == mm]
    return pearson([r[by] for r in rs], [r["real"] for r in rs])


def compare(a: dict, b: dict, stat: str = "p75s") -> dict:
    """Curve a against curve b (each {level: summary}) at the levels both
    have: how many levels a is lower, b is lower, and the geometric mean of
    a/b (below 1: a is faster)."""
    common = sorted(set(a) & set(b))
    ratios = [a[k][stat] / b[k][stat] for k in common if a[k][stat] > 0 and b[k][stat] > 0]
    return {"levels": len(common),
            "a_lower": sum(1 for k in common if a[k][stat] < b[k][stat]),
            "b_lower": sum(1 for k in common if a[k][stat] > b[k][stat]),
            "ratio": math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else None}
