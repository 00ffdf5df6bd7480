# GDB side of tools/iprofile.py: run inside gdb-multiarch attached to
# QEMU's stub (gdb -x). Waits for a trap that matches the event, then
# single-steps the hart that took it, with the other harts held
# (scheduler-locking) and QEMU's single-step keeping interrupts and
# timers out, until that hart returns to user mode. Every instruction's
# pc is written out; tools/iprofile.py names and counts them.
#
# Every trap of every hart passes trap_vector (timer ticks, the shell's
# system calls), and each stop there costs GDB a round trip, so the
# conditional breakpoint on it is armed only once a function that only
# the event reaches has run (the trigger): the next matching trap is then
# near.
#
# Parameters come in the environment (set by tools/iprofile.py):
#   FL_IPROF_COND     the breakpoint condition on trap_vector
#   FL_IPROF_TRIGGER  the function whose call arms it
#   FL_IPROF_SAMPLES  how many traps to step through
#   FL_IPROF_SKIP     calls of the trigger to let pass first (warm-up)
#   FL_IPROF_LIMIT    most instructions in one sample (a path that spins
#                     on a lock another hart holds would never end)
#   FL_IPROF_OUT      file the samples go to, one JSON line each
import json
import os

import gdb

cond = os.environ["FL_IPROF_COND"]
trigger_name = os.environ["FL_IPROF_TRIGGER"]
samples = int(os.environ["FL_IPROF_SAMPLES"])
skip = int(os.environ["FL_IPROF_SKIP"])
limit = int(os.environ["FL_IPROF_LIMIT"])
out_path = os.environ["FL_IPROF_OUT"]

SRET = 0x10200073
SSTATUS_SPP = 1 << 8
inferior = gdb.selected_inferior()

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set scheduler-locking off")
trigger = gdb.Breakpoint(trigger_name)
if skip:
    trigger.ignore_count = skip
bp = gdb.Breakpoint("*trap_vector")
bp.condition = cond
bp.enabled = False
print("iprofile: armed", flush=True)

with open(out_path, "w") as out:
    for n in range(samples):
        trigger.enabled, bp.enabled = True, False
        gdb.execute("continue", to_string=True)
        trigger.enabled, bp.enabled = False, True
        gdb.execute("continue", to_string=True)
        pc = int(gdb.parse_and_eval("$pc"))
        if pc != int(gdb.parse_and_eval("(unsigned long)&trap_vector")):
            raise gdb.GdbError(f"stopped at {pc:#x}, not in trap_vector")
        gdb.execute("set scheduler-locking on")
        # QEMU's stub does not hold interrupts off once the kernel enables
        # them mid-path, and the timer is due after every stop: the hart's
        # interrupt-enable bits are cleared for the steps, then restored.
        sie = int(gdb.parse_and_eval("$sie"))
        gdb.execute("set $sie = 0")
        pcs = []
        ended = False
        while len(pcs) < limit:
            pcs.append(pc)
            # The path ends at the sret back to user mode (sstatus.SPP
            # clear): it is counted, not stepped, since a step of an sret
            # to user mode lets the user code run on to its next trap.
            insn = int.from_bytes(inferior.read_memory(pc, 4).tobytes(), "little")
            if insn == SRET and not int(gdb.parse_and_eval("$sstatus")) & SSTATUS_SPP:
                ended = True
                break
            gdb.execute("stepi", to_string=True)
            pc = int(gdb.parse_and_eval("$pc"))
        gdb.execute(f"set $sie = {sie}")
        gdb.execute("set scheduler-locking off")
        out.write(json.dumps({"sample": n, "pcs": pcs, "ended": ended}) + "\n")
        out.flush()
        print(f"iprofile: sample {n + 1}/{samples} {len(pcs)} instructions", flush=True)
bp.delete()
trigger.delete()
print("iprofile: done", flush=True)
gdb.execute("detach")
