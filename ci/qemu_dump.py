#!/usr/bin/env python3
"""What the vCPUs of a guest that hangs are doing, asked of QEMU's monitor
before the guest is killed at its timeout: every vCPU's registers twice,
a second apart, and its local APIC (the timer's count and divider, whether
it is masked), the top of every vCPU's stack with the kernel text
addresses on it named and the code bytes just before each (what an INT3
or a call left behind: a loop through an exception shows the address it
keeps coming back to, and whether the byte there is still 0xcc), and the
kernel's text_poke_bp() descriptor (bp_desc: vec, nr_entries, refs) when
the System.map has it. Each EIP is named from the System.map of the
kernel's build directory. Prints the raw answers as "HANG | ..." lines,
then one summary line a vCPU:

  HANG cpu0: EIP c1234567 default_idle+0x12, IF 1, HLT 1; 1 s later: EIP ...

usage: qemu_dump.py MONITOR_SOCKET BZIMAGE
       qemu_dump.py --parse REGISTERS_FILE SYSTEM_MAP   (the summary of a
       saved "info registers -a" answer; for the unit tests)
       qemu_dump.py --race LOG   (race() on the HANG lines of a log: exit 0
       when they show the emulator's stale translation, 1 if not)"""
import bisect, os, re, socket, sys, time


def monitor(path, cmds, wait=0.6):
    """Answers of the QEMU monitor at @path to @cmds, in order."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(wait)
    s.connect(path)

    def drain():
        out = b""
        try:
            while True:
                d = s.recv(65536)
                if not d:
                    break
                out += d
        except socket.timeout:
            pass
        return out.decode(errors="replace")

    drain()  # the banner and the first prompt
    answers = []
    for c in cmds:
        s.sendall(c.encode() + b"\n")
        answers.append(drain())
    s.close()
    return answers


def clean(text, cmd, keep=None):
    """A monitor answer to @cmd without its echo, prompts and terminal
    escapes; only the lines that start with one of @keep, if given."""
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]|\r", "", text)
    return [l for l in text.split("\n") if l.strip() and not l.startswith("(qemu)")
            and not l.endswith(cmd) and (keep is None or l.startswith(keep))]


def cpus(regs):
    """[(cpu, eip, eflags, hlt)] from an "info registers -a" answer."""
    found = []
    cpu = 0
    for line in regs.split("\n"):
        m = re.match(r"\s*CPU#(\d+)", line)
        if m:
            cpu = int(m.group(1))
        m = re.search(r"EIP=([0-9a-f]+) EFL=([0-9a-f]+).*HLT=(\d)", line)
        if m:
            found.append((cpu, int(m.group(1), 16), int(m.group(2), 16), m.group(3)))
    return found


class Symbols:
    """Text symbols of a System.map, to name an address; .data has the
    address of every symbol by name."""

    def __init__(self, path):
        self.addrs, self.names, self.data = [], [], {}
        try:
            with open(path) as f:
                for line in f:
                    p = line.split()
                    if len(p) >= 3 and p[1] in "tTwW":
                        self.addrs.append(int(p[0], 16))
                        self.names.append(p[2])
                    if len(p) >= 3:
                        self.data.setdefault(p[2], int(p[0], 16))
        except OSError:
            pass
        order = sorted(range(len(self.addrs)), key=lambda i: self.addrs[i])
        self.addrs = [self.addrs[i] for i in order]
        self.names = [self.names[i] for i in order]

    def name(self, addr):
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0 or addr - self.addrs[i] > 0x100000:
            return "?"
        return f"{self.names[i]}+{addr - self.addrs[i]:#x}"


def summary(answers, syms):
    """One line a vCPU from one or more "info registers -a" answers."""
    seen = {}
    for regs in answers:
        for cpu, eip, efl, hlt in cpus(regs):
            seen.setdefault(cpu, []).append(
                f"EIP {eip:08x} {syms.name(eip)}, IF {efl >> 9 & 1}, HLT {hlt}")
    return [f"HANG cpu{cpu}: " + "; 1 s later: ".join(v) for cpu, v in sorted(seen.items())]


def words(answer):
    """The 32-bit words of an "x/NNxw" answer, in order."""
    out = []
    for line in answer.split("\n"):
        m = re.match(r"\s*[0-9a-f]+:((\s+0x[0-9a-f]+)+)\s*$", line)
        if m:
            out += [int(w, 16) for w in m.group(1).split()]
    return out


KERNEL_CS = 0x60  # __KERNEL_CS of 32-bit x86 (GDT entry 12)


def int3_frames(ws, exc_int3):
    """EIPs of the INT3 frames on a stack, given as its words @ws: the
    32-bit entry code pushes the handler's address (exc_int3), then
    the error code, then the CPU's frame EIP, CS (its upper half holds
    the entry code's own flags), EFLAGS."""
    if not exc_int3:
        return []
    return [ws[i + 2] for i in range(len(ws) - 3)
            if ws[i] == exc_int3 and ws[i + 3] & 0xffff == KERNEL_CS]


def stacks(sock, n, syms):
    """Each vCPU's stack top, the text addresses on it named, and the
    code bytes before the first few of them, as report lines."""
    lines = []
    ans = monitor(sock, [c for i in range(n) for c in (f"cpu {i}", "x/32xw $esp")])
    for i in range(n):
        ws = words(ans[2 * i + 1])
        text = [w for w in ws if syms.name(w) != "?"]
        lines.append(f"HANG | stack cpu{i}: " + " ".join(f"{w:08x}" for w in ws))
        lines.append(f"HANG | stack cpu{i} text: " +
                     (", ".join(f"{w:08x} {syms.name(w)}" for w in text) or "none"))
        # The first few text addresses, and the EIP of every INT3 frame
        # (race() reads the bytes there)
        at = list(dict.fromkeys(text[:4] + [ip for ip in int3_frames(ws, syms.data.get("exc_int3"))
                                            if syms.name(ip) != "?"]))
        cmds = [f"x/8xb {w - 4:#x}" for w in at]
        for w, cmd, code in zip(at, cmds, monitor(sock, [f"cpu {i}"] + cmds)[1:]):
            lines += [f"HANG | code cpu{i} {syms.name(w)}: " + l.strip()
                      for l in clean(code, cmd)]
    addr = syms.data.get("bp_desc")
    if addr:
        ans = monitor(sock, ["cpu 0", f"x/3xw {addr:#x}"])[1]
        lines.append("HANG | bp_desc (vec, nr_entries, refs): " +
                     " ".join(f"{w:#x}" for w in words(ans)))
    return lines


def race(lines):
    """Whether a dump (its lines) shows multi-threaded TCG's stale
    translation: a vCPU with interrupts off in both samples, every INT3
    frame on its stack at an EIP where memory holds no INT3 (neither the
    byte before it, where the trap left EIP, nor the byte at it, where
    kprobes' handler backs EIP up to), and text_poke_bp() done with its
    breakpoints (bp_desc refs 0). A hang of the guest's own (a loop, a
    deadlock, an INT3 still in memory, a text_poke_bp() in progress) is
    not. Returns (True|False, reason)."""
    refs = None
    ws, exc, code, irqs_off = {}, {}, {}, set()
    for l in lines:
        m = re.match(r"HANG \| bp_desc \(vec, nr_entries, refs\): (\S+) (\S+) (\S+)$", l)
        if m:
            refs = int(m.group(3), 16)
        m = re.match(r"HANG \| stack cpu(\d+): ([0-9a-f ]+)$", l)
        if m:
            ws[int(m.group(1))] = [int(w, 16) for w in m.group(2).split()]
        m = re.match(r"HANG \| stack cpu(\d+) text: (.*)$", l)
        if m:
            for a, name in re.findall(r"([0-9a-f]{8}) (\S+?)(?:,|$)", m.group(2)):
                if name == "exc_int3+0x0":
                    exc[int(m.group(1))] = int(a, 16)
        m = re.match(r"HANG \| code cpu\d+ \S+: ([0-9a-f]+): ((?:0x[0-9a-f]{2} ?){8})$", l)
        if m:
            code[int(m.group(1), 16)] = [int(b, 16) for b in m.group(2).split()]
        m = re.match(r"HANG cpu(\d+): .*IF 0, .*1 s later: .*IF 0,", l)
        if m:
            irqs_off.add(int(m.group(1)))
    if refs is None:
        return False, "no bp_desc in the dump"
    if refs:
        return False, f"text_poke_bp() in progress (bp_desc refs {refs})"
    stale = []
    for cpu in sorted(irqs_off):
        ips = int3_frames(ws.get(cpu, []), exc.get(cpu))
        if ips and all(ip - 4 in code and 0xcc not in code[ip - 4][3:5] for ip in ips):
            stale.append(f"cpu{cpu} at " + " ".join(
                f"{ip:08x} ({code[ip - 4][3]:#04x} {code[ip - 4][4]:#04x})"
                for ip in dict.fromkeys(ips)))
    if not stale:
        return False, (f"interrupts off on {len(irqs_off)} vCPU(s), none of them in INT3 "
                       "frames at code without an INT3")
    return True, ("INT3 frames where memory holds no INT3, bp_desc released: " +
                  "; ".join(stale))


def system_map(kernel):
    """The System.map of the build directory @kernel (.../arch/x86/boot/bzImage) is in."""
    d = os.path.dirname(os.path.abspath(kernel))
    for _ in range(4):
        if os.path.exists(os.path.join(d, "System.map")):
            return os.path.join(d, "System.map")
        d = os.path.dirname(d)
    return ""


def race_line(lines):
    """race() of a dump's @lines, and the line that reports it."""
    yes, why = race(lines)
    return yes, f"HANG emulator race: {'yes' if yes else 'no'}: {why}"


def dump(sock, kernel):
    """The report for the guest behind the monitor at @sock, as lines
    (the last one race_line()'s), and whether it shows the emulator's
    race."""
    syms = Symbols(system_map(kernel))
    try:
        first = monitor(sock, ["info registers -a"])[0]
        time.sleep(1)
        second, = monitor(sock, ["info registers -a"])
        n = max([c for c, _, _, _ in cpus(second)] or [0]) + 1
        lapics = monitor(sock, [f"info lapic {i}" for i in range(n)])
    except OSError as e:
        return [f"HANG no answer from the QEMU monitor: {e}"], False
    lines = []
    regs = ("CPU#", "EAX=", "ESI=", "EIP=", "CR0=")
    for title, text, cmd, keep in [("registers", first, "info registers -a", regs),
                                   ("registers 1 s later", second, "info registers -a", regs)] + \
            [(f"local APIC {i}", t, f"info lapic {i}", None) for i, t in enumerate(lapics)]:
        lines.append(f"HANG | {title}:")
        lines += ["HANG | " + l for l in clean(text, cmd, keep)]
    try:
        lines += stacks(sock, n, syms)
    except OSError as e:
        lines.append(f"HANG | stacks: no answer from the QEMU monitor: {e}")
    lines += summary([first, second], syms)
    yes, line = race_line(lines)
    return lines + [line], yes


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--race":
        with open(sys.argv[2]) as f:
            yes, line = race_line(f.read().split("\n"))
        print(line)
        sys.exit(0 if yes else 1)
    elif len(sys.argv) == 4 and sys.argv[1] == "--parse":
        with open(sys.argv[2]) as f:
            print("\n".join(summary([f.read()], Symbols(sys.argv[3]))))
    elif len(sys.argv) == 3:
        print("\n".join(dump(sys.argv[1], sys.argv[2])[0]))
    else:
        sys.exit(__doc__)
