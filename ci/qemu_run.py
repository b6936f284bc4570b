#!/usr/bin/env python3
"""Run one guest under qemu-system-i386 -accel tcg with its serial console on
a socket, so that the host can act on what the guest prints:

  STORM-START     the host sends serial input in 64-byte bursts every
                  2 ms for --storm seconds (a device interrupt storm that
                  leaves the host's CPUs to the guest's vCPUs; STORM_GAP)
  HOSTCLOCK name  the host notes its own CLOCK_MONOTONIC for "name"
  HOSTCPU name    the host notes its CLOCK_MONOTONIC and the CPU time QEMU
                  has used so far, all its threads (make bench)
  HOSTKEY ms      the host sends a newline ms milliseconds later (a key
                  press that wakes a guest suspended to idle)

Everything the guest prints goes to LOG; host notes are appended to LOG as
"HOSTCLOCK name ns" and "HOSTCPU name ns cpu_ns" lines after the run.
At the timeout, what the vCPUs are doing (ci/qemu_dump.py: registers and
local APICs from QEMU's monitor) is appended to LOG before QEMU is killed.
Exits 124 on timeout, else with QEMU's exit code.

A guest that hung in the emulator's own race (qemu_dump.race(), looked at
after SILENT_BOOT seconds without output at boot, and at the timeout) is
booted again, once (EMULATOR_RETRIES): the hung boot's console and dump go
to LOG.hang1, and LOG starts with a line that says so. In the harness
self-test, DYNTICK_SELFTEST_RACE=1 takes any hang for that race.

It is the one launcher of the workbench: ci/boot.sh (the check, make
retest, the mutants), ci/matrix.sh, ci/bench.py and, with --interactive
(the serial console on this terminal, nothing watched), ci/shell.sh all
boot the same machine (machine() below)."""
import argparse, os, select, shutil, signal, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu_dump  # noqa: E402  (beside this file)

ap = argparse.ArgumentParser()
ap.add_argument("--kernel", required=True)
ap.add_argument("--initrd", required=True)
ap.add_argument("--log")
ap.add_argument("--interactive", action="store_true",
                help="the serial console and QEMU's monitor on this terminal (C-a x quits)")
ap.add_argument("--smp", default="1")
ap.add_argument("--append", default="")
ap.add_argument("--timeout", type=float, default=300)
ap.add_argument("--storm", type=float, default=5)
a = ap.parse_args()

# The storm's bursts come this many seconds apart. Every half millisecond
# (128 KiB/s, ten times what a 115200-baud line carries) was more than the
# emulator delivers on time: the periodic kernel (NO_IDLE_HZ off) slept up
# to 10.05 ms late in it, over the 2 ms irq_storm allows, in 2 of 6 boots,
# and the guest, busy with the input, ended fewer skips with it (2100-4200
# in a boot). Every 2 ms it ended 1800-13800 skips a boot (15 of 20 boots
# over 10000), the series' sleeps were at most 1.89 ms late in 20 boots,
# the periodic kernel's at most 1.33 ms in 8.
STORM_GAP = 0.002
if not a.interactive and not a.log:
    ap.error("--log is required unless --interactive")


def kernel_arg(name):
    """The value of the last NAME=VALUE among the kernel arguments, or None."""
    vals = [w.split("=", 1)[1] for w in a.append.split() if w.startswith(name + "=")]
    return vals[-1] if vals else None


def disk(where):
    """dt.disk=IOPS among the kernel arguments: a 16 MiB virtio disk (an
    empty sparse image in WHERE, read-only) whose requests QEMU throttles
    to IOPS a second, so that a task reading it waits for I/O (the guest
    test proc_stat_iowait). Without it, no disk."""
    iops = kernel_arg("dt.disk")
    if iops is None:
        return []
    if not iops.isdigit() or int(iops) < 1:
        ap.error(f"dt.disk={iops}: a number of requests a second")
    img = os.path.join(where, "disk.img")
    with open(img, "wb") as f:
        f.truncate(16 << 20)
    return ["-drive", f"file={img},if=none,id=d0,format=raw,readonly=on,"
            f"throttling.iops-total={int(iops)}",
            "-device", "virtio-blk-pci,drive=d0"]


def accel():
    """-accel tcg: one host thread a vCPU (multi-threaded TCG), or with
    dt.tcg=single among the kernel arguments one thread for all vCPUs
    (by hand for now: the README's "Debian's own configuration" says why
    no row asks for it yet). Debian's kernel patches its own text at run
    time (static keys, through text_poke_bp()), and multi-threaded TCG
    can keep running a translation of the old code on one vCPU after
    another one rewrote it. A boot hung so: both vCPUs trapped on an
    INT3 at sched_clock_tick+0 over and over, with memory there already
    holding the new 2-byte NOP (89 f6) and text_poke_bp()'s bp_desc
    released (refs 0), so that kprobes' INT3 handler, finding no INT3 in
    memory, sent each vCPU back to the same address (ci/qemu_dump.py
    printed all of it). With one thread, no vCPU translates while another
    writes."""
    tcg = kernel_arg("dt.tcg")
    if tcg not in (None, "single", "multi"):
        ap.error(f"dt.tcg={tcg}: single or multi")
    return ["-accel", "tcg,thread=single" if tcg == "single" else "tcg"]


def machine(extra, where, args=""):
    """The guest machine: no PS/2 controller (i8042=off), as probing the
    mouse takes seconds under TCG and would land in the first
    measurements of the guest; 256 MiB; the kernel on ttyS0; a disk if
    the kernel arguments ask for one (disk()); TCG's threads (accel())."""
    return ["qemu-system-i386"] + accel() + ["-M", "pc,i8042=off", "-m", "256",
            "-smp", a.smp, "-no-reboot"] + extra + disk(where) + [
            "-kernel", a.kernel, "-initrd", a.initrd,
            "-append", "console=ttyS0 panic=-1 loglevel=7 " + args + a.append]


if a.interactive:
    os.execvp("qemu-system-i386", machine(["-nographic"], tempfile.mkdtemp()))

# In a guarded run (ci/lib.sh: guard) the socket and QEMU's pid file go to
# the run's directory, so that an interrupted run finds and removes them.
run = os.environ.get("DYNTICK_RUN") or None
sockdir = tempfile.mkdtemp(dir=run)
sock = os.path.join(sockdir, "serial")
# The guest's own output (KTAP, its requests to the host) comes on a
# second serial port, ttyS1 (dt.out=ttyS1: ci/guest/init.c), so that the
# kernel's messages on the console cannot cut into a line of it.
sock1 = os.path.join(sockdir, "guest")
mon = os.path.join(sockdir, "monitor")
pidfile = os.path.join(run, f"qemu.{os.getpid()}.pid") if run else None
qemu = None
out = None


def cleanup():
    """The socket's directory, and the pid file of a QEMU that was killed."""
    shutil.rmtree(sockdir, ignore_errors=True)
    if pidfile and os.path.exists(pidfile):
        os.unlink(pidfile)


def qemu_cpu_ns(pid):
    """CPU time of every thread of @pid so far, in ns (schedstat)."""
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pass
    except OSError:
        pass
    return total


def stop(signum, frame):
    """SIGTERM/SIGINT/SIGHUP: QEMU and the socket go with us. Not through
    qemu.kill()/wait(): the signal may have come while the main loop was in
    qemu.poll(), which holds the lock wait() takes, and we would wait for
    ourselves."""
    if qemu is not None:
        try:
            os.kill(qemu.pid, signal.SIGKILL)
            os.waitpid(qemu.pid, 0)
        except OSError:
            pass
    try:
        if out is not None:
            out.flush()
    except Exception:  # noqa: BLE001  (a write the signal cut into)
        pass
    cleanup()
    os._exit(128 + signum)


for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, stop)

# A boot that falls silent this long before the guest's init prints its
# first line ("# ..." or "KTAP version") is looked at (qemu_dump.dump()):
# Debian's kernel boots in 8-10 s here with gaps of at most a few seconds.
SILENT_BOOT = 30
# A run whose guest hung in multi-threaded TCG's stale translation
# (qemu_dump.race(): INT3 frames where memory holds no INT3, text_poke_bp()
# done) is booted again, this many times. Measured before this existed:
# Debian's kernel on 2 vCPUs hung so in 3 of 112 boots with a disk and
# about 1 in 66 without; a hang of the guest's own is never booted again.
EMULATOR_RETRIES = 1


def launch():
    """QEMU started, and the serial socket connected to it."""
    global qemu
    cmd = machine(["-display", "none", "-monitor", f"unix:{mon},server=on,wait=off",
                   "-chardev", f"socket,id=s0,path={sock},server=on,wait=on",
                   "-serial", "chardev:s0",
                   "-chardev", f"socket,id=s1,path={sock1},server=on,wait=on",
                   "-serial", "chardev:s1"], sockdir, "dt.out=ttyS1 ")
    if pidfile:
        cmd += ["-pidfile", pidfile]
    for p in (sock, sock1, mon):
        if os.path.exists(p):
            os.unlink(p)
    qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
    conns = []
    for path in (sock, sock1):
        for _ in range(200):
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                conn.connect(path)
                conn.setblocking(False)
                conns.append(conn)
                break
            except OSError:
                conn.close()
                time.sleep(0.05)
        else:
            qemu.kill()
            qemu.wait()
            cleanup()
            sys.exit(f"qemu_run: cannot connect to the serial socket {path}")
    return conns


def watch(conns, notes, bufs):
    """Copy the console and the guest's port to @out, whole lines only, so
    that a line of one never cuts into a line of the other, and act on the
    guest's requests, until QEMU exits or the timeout. What is left of a
    line when it ends stays in @bufs. Returns (QEMU's exit code or 124,
    the hang report's lines, or [] if it did not hang, and whether they
    show the emulator's race)."""
    console = conns[0]
    ended = set()

    def lines(i, data):
        """The whole lines that @data completes on port @i, each written to
        @out as it came, and returned without its end for the requests."""
        bufs[i] += data
        done = []
        while b"\n" in bufs[i]:
            line, bufs[i] = bufs[i].split(b"\n", 1)
            out.write(line + b"\n")
            done.append(line.strip(b"\r"))
        return done

    start = last = time.monotonic()
    looked = booted = False
    storm_until = 0.0
    key_at = 0.0
    while True:
        now = time.monotonic()
        if not booted and not looked and now - last > SILENT_BOOT:
            looked = True
            hang, race = qemu_dump.dump(mon, a.kernel)
            if race:
                qemu.kill()
                return 124, hang, race
        if now - start > a.timeout:
            hang, race = qemu_dump.dump(mon, a.kernel)
            qemu.kill()
            return 124, hang, race
        got = False
        for i, c in enumerate(conns):
            if i in ended:
                continue
            try:
                data = c.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                ended.add(i)
                continue
            got = True
            last, looked = time.monotonic(), False
            for line in lines(i, data):
                if line.startswith((b"# ", b"KTAP version")):
                    booted = True
                if line == b"STORM-START":
                    storm_until = time.monotonic() + a.storm
                elif line.startswith(b"HOSTKEY "):
                    key_at = time.monotonic() + int(line.split()[1]) / 1000
                elif line.startswith(b"HOSTCLOCK "):
                    notes.append(("HOSTCLOCK", line.split()[1].decode(), time.monotonic_ns()))
                elif line.startswith(b"HOSTCPU "):
                    notes.append(("HOSTCPU", line.split()[1].decode(),
                                  f"{time.monotonic_ns()} {qemu_cpu_ns(qemu.pid)}"))
        if not got:
            if qemu.poll() is not None:
                # What QEMU wrote before it exited is still in the sockets
                for i, c in enumerate(conns):
                    c.setblocking(True)
                    c.settimeout(1)
                    try:
                        while i not in ended:
                            data = c.recv(65536)
                            if not data:
                                break
                            for _ in lines(i, data):
                                pass
                    except OSError:
                        pass
                return qemu.wait(), [], False
            if storm_until <= time.monotonic():
                # Woken by the guest's next output at once: HOSTCPU notes
                # are taken as the line arrives, not up to 10 ms later.
                # A port at its end is always readable: not waited on.
                live = [c for i, c in enumerate(conns) if i not in ended]
                if live:
                    select.select(live, [], [], 0.01)
                else:
                    time.sleep(0.01)
        # The storm and the key press come on the console's port, ttyS0
        # (the guest's standard input, and its wake-up source)
        if key_at and key_at <= time.monotonic():
            key_at = 0.0
            try:
                console.send(b"\n")
            except (BlockingIOError, OSError):
                pass
        if storm_until > time.monotonic():
            try:
                console.send(b"x" * 64)
            except (BlockingIOError, OSError):
                pass
            time.sleep(STORM_GAP)


first = []
for boot in range(1, EMULATOR_RETRIES + 2):
    conns = launch()
    out = open(a.log, "wb")
    out.write(b"".join(first))
    notes = []
    rest = [b"" for _ in conns]
    rc, hang, race = watch(conns, notes, rest)
    qemu.wait()
    for c in conns:
        c.close()
    for r in rest:
        if r:
            out.write(r + b"\n")
    why = hang[-1] if hang else ""
    if hang and os.environ.get("DYNTICK_SELFTEST_RACE"):
        race, why = True, "HANG emulator race: yes: DYNTICK_SELFTEST_RACE (ci/selftest.sh)"
    if race and boot <= EMULATOR_RETRIES:
        out.close()
        os.replace(a.log, f"{a.log}.hang{boot}")
        with open(f"{a.log}.hang{boot}", "ab") as f:
            f.write(("\n" + "\n".join(hang) + "\n").encode())
        first.append(f"qemu_run: boot {boot} hung in the emulator, booted again "
                     f"(its log and dump: {os.path.basename(a.log)}.hang{boot}): "
                     f"{why}\n".encode())
        print(first[-1].decode().rstrip(), file=sys.stderr)
        continue
    if hang:
        out.write(("\n" + "\n".join(hang) + "\n").encode())
    break
for kind, name, value in notes:
    out.write(f"{kind} {name} {value}\n".encode())
out.close()
cleanup()
sys.exit(rc)
