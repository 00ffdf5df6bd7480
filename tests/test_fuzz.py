"""The system-call fuzzer: a short seeded run in two configurations must
leave no panic, no hang, an answering shell and no leaked frame or swap
slot (the checks of `make fuzz`, tools/faultline/fuzz.py); the same seed
must generate the same calls; bad arguments get the usage. The campaign
tool's own arguments and table are checked on the host."""

import json
import re
import subprocess
import sys

import pytest

from qemu_helpers import timeout_scale
from test_vmstat import run_job

from faultline.fuzz import CONFIGS, run_config

SEED = 20261125
SHORT_CALLS = 3000
SHORT_CONFIGS = ["paging-2h", "swap-2h-16M", "daemon-2h-8M"]
DRY_CALLS = 20000
DRY = re.compile(r'^FL-JSON (\{"fuzz":"dry-run".*\})\s*$', re.MULTILINE)
USAGE = re.compile(r"usage: fuzz \[-s SEED\] \[-n CALLS\] \[-c CHILDREN\]")
# the usage text's last line: the shell is typed at only once all of it is out
USAGE_END = re.compile(r"-d  dry run: .*make none\n")
ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", SHORT_CONFIGS)
def test_fuzz_short_run(name, kernel_elf, initrd_cpio, tmp_path):
    progress = []
    r = run_config(CONFIGS[name], kernel_elf, initrd_cpio, tmp_path, seed=SEED,
                   calls=SHORT_CALLS, on_progress=progress.append)
    assert r.ok, f"{name}, seed {SEED}: {r.failures}\nlog: {r.log}"
    done = r.done
    assert progress[0]["fuzz"] == "start" and progress[-1] is done
    assert done["seed"] == SEED and done["planned"] == SHORT_CALLS
    assert done["calls"] + done["skipped"] == SHORT_CALLS, done
    assert done["hung"] == 0
    # nearly every kind of call was made (the rarest are 1 in 1000), and the counts
    # per system call add up to the calls made
    assert sum(done["syscalls"].values()) == done["calls"], done
    made = [name for name, n in done["syscalls"].items() if n]
    assert len(made) >= 0.9 * len(done["syscalls"]), done["syscalls"]
    # the children really were hurt, and some still finished their batch
    assert done["killed"] > 0 and done["children"] > done["killed"], done
    assert r.before is not None and r.after is not None


def dry_run(m, args):
    out = m.run_shell(f"fuzz -d {args}", timeout=120)
    found = DRY.search(out)
    assert found, out
    return json.loads(found.group(1))


def test_fuzz_same_seed_same_calls(shell):
    first = dry_run(shell, f"-s {SEED} -n {DRY_CALLS}")
    again = dry_run(shell, f"-n {DRY_CALLS} -s {SEED}")
    assert first == again
    assert sum(first["syscalls"].values()) == DRY_CALLS
    # a hexadecimal seed is the same seed
    assert dry_run(shell, f"-s {hex(SEED)} -n {DRY_CALLS}")["checksum"] == first["checksum"]
    # another seed, or other batches, are other calls
    assert dry_run(shell, f"-s {SEED + 1} -n {DRY_CALLS}")["checksum"] != first["checksum"]
    assert dry_run(shell, f"-s {SEED} -n {DRY_CALLS} -b 499")["checksum"] != first["checksum"]
    # the first calls of a longer run are the calls of a shorter one
    part = dry_run(shell, f"-s {SEED} -n {DRY_CALLS // 2}")
    assert all(part["syscalls"][k] <= v for k, v in first["syscalls"].items())


@pytest.mark.parametrize("args", ["-x", "-n 0", "-n", "-c 0", "-c 17", "-b 0", "-s abc",
                                  "-n 12x", "-s -1", "extra"])
def test_fuzz_bad_arguments(shell, args):
    status, out = run_job(shell, f"fuzz {args}", USAGE_END)
    assert status == "status 2", (args, out)
    assert USAGE.search(out), out
    assert "FL-JSON" not in out, out


# ----- the campaign tool, on the host ----------------------------------------

@pytest.mark.host
@pytest.mark.parametrize("args", [["--calls", "0"], ["--only", "nosuch"], ["--children", "17"],
                                  ["--seed", "-3"]])
def test_campaign_tool_refuses_bad_arguments(args):
    res = subprocess.run([sys.executable, str(ROOT / "tools" / "fuzz.py"), *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         timeout=60 * timeout_scale())
    assert res.returncode == 2, res
    assert "usage:" in res.stderr


@pytest.mark.host
def test_campaign_table():
    sys.path.insert(0, str(ROOT / "tools"))
    import fuzz as campaign
    from faultline.fuzz import Result
    good = Result("paging-1h", 1, 1000, calls=1000, seconds=2.0)
    bad = Result("swap-2h", 1, 1000, calls=400, seconds=4.0, failures=["hang: silent"])
    text = campaign.table([good, bad])
    lines = text.splitlines()
    assert lines[0].split() == ["config", "calls", "seconds", "calls/s", "result"]
    assert re.search(r"^paging-1h +1000 +2\.0 +500 +ok$", text, re.MULTILINE), text
    assert re.search(r"^swap-2h +400 +4\.0 +100 +FAILED: hang: silent$", text, re.MULTILINE)
    assert re.search(r"^total +1400 +6\.0 +233 +1 configuration\(s\) failed$", text,
                     re.MULTILINE), text
