#!/usr/bin/env python3
"""What wakes an idle guest (make wakes, ci/wakes.sh).

Boots each kernel in the guest's wakes mode (ci/guest/modes.c:
wake_tally()), one vCPU, for every setup, REPS rounds with the kernels
interleaved, and tallies the trace of the idle window: every timer
interrupt (IRQ 0 "timer", or the local APIC's local_timer_entry) is one
wake-up, named by what it did, namely the skip it ended and why
(dyn_tick:skip_end's cause) or "tick" when it ended none, and the timers
that expired before the next timer interrupt, by function (the kernel's
System.map beside its bzImage).

usage: wakes.py --out FILE --logs DIR --initrd CPIO --reps N --idle S
                --kernel NAME=BZIMAGE:HZ ... --setup DEVICE[,ARG...] ...
       wakes.py --tally LOG --map SYSTEM.MAP   (one log's tally, for tests)
Writes FILE (markdown) and prints it."""
import argparse, bisect, collections, os, re, statistics, sys, time

import guestboot

EVENT = re.compile(r"\s(\d+\.\d+): (\w+): (.*?)\s*$")


def symbols(path):
    """The text symbols of a System.map: (sorted addresses, names)."""
    syms = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 3 and w[1] in "tTwW":
                syms.append((int(w[0], 16), w[2]))
    syms.sort()
    return [s[0] for s in syms], [s[1] for s in syms]


def name_of(syms, addr):
    i = bisect.bisect_right(syms[0], addr) - 1
    return syms[1][i] if i >= 0 else hex(addr)


def tally(text, syms):
    """(timer interrupts, window in s, Counter of wake-up kinds) of the
    trace between the guest's markers WAKES-WINDOW-BEGIN and -END (in the
    console log between WAKES-TRACE-BEGIN and WAKES-TRACE-END); a
    Counter of nothing and a window of 0 without both markers."""
    body = text.split("WAKES-TRACE-BEGIN", 1)[-1].split("WAKES-TRACE-END", 1)[0]
    kinds, cur, t0, t1 = collections.Counter(), None, None, None
    irqs = 0

    def close(c):
        if c is not None:
            kind = f"skip ended: {c['end']}" if c["end"] else "tick, no skip ended"
            ran = ", ".join(sorted(c["ran"])) or "-"
            kinds[(kind, ran)] += 1

    for line in body.split("\n"):
        m = EVENT.search(line)
        if not m:
            continue
        t, ev, rest = float(m.group(1)), m.group(2), m.group(3)
        # The markers' event is tracing_mark_write, or the address of the
        # function that wrote them in a kernel without KALLSYMS
        if rest == "WAKES-WINDOW-BEGIN":
            t0 = t
        elif t0 is None:
            continue
        elif rest == "WAKES-WINDOW-END":
            t1 = t
            break
        elif (ev == "irq_handler_entry" and "name=timer" in rest) or ev == "local_timer_entry":
            close(cur)
            cur = {"end": None, "ran": set()}
            irqs += 1
        elif cur is None:
            continue
        elif ev == "skip_end" and cur["end"] is None:
            c = re.search(r"cause=(\S+)", rest)
            cur["end"] = c.group(1) if c else "?"
        elif ev in ("timer_expire_entry", "hrtimer_expire_entry"):
            f = re.search(r"function=0x([0-9a-f]+)", rest)
            if f:
                cur["ran"].add(name_of(syms, int(f.group(1), 16)))
    if t1 is None:
        return 0, 0, collections.Counter()
    close(cur)
    return irqs, t1 - t0, kinds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tally")
    ap.add_argument("--map")
    ap.add_argument("--out")
    ap.add_argument("--logs")
    ap.add_argument("--initrd")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--idle", type=int, default=10)
    ap.add_argument("--kernel", action="append", default=[])
    ap.add_argument("--setup", action="append", default=[])
    a = ap.parse_args()

    if a.tally:
        with open(a.tally, "rb") as f:
            irqs, window, kinds = tally(f.read().decode(errors="replace"), symbols(a.map))
        print(f"irqs {irqs} window {window:.3f}")
        for (kind, ran), n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"{n} {kind} | {ran}")
        return

    kernels = guestboot.kernels(a.kernel)  # (name, bzImage, hz)
    setups = [tuple(s.split(",")) for s in a.setup]  # (device, extra args...)
    runs = {}  # (kernel, setup) -> [(rate, {kind: per s}, max_skip), ...]
    t0 = time.time()
    for rnd in range(a.reps):
        for setup in setups:
            order = kernels[rnd % len(kernels):] + kernels[:rnd % len(kernels)]
            for name, image, hz in order:
                label = " ".join(setup)
                print(f"wakes: round {rnd + 1}/{a.reps}, {guestboot.title(name)}, {label} "
                      f"({int(time.time() - t0)} s)", file=sys.stderr, flush=True)
                args = guestboot.device_args(setup[0]) + "".join(x + " " for x in setup[1:])
                args += f"dt.mode=wakes dt.hz={hz} dt.idle={a.idle}"
                tag = "-".join(setup).replace("=", "_")
                log = os.path.join(a.logs, f"wakes-{name}-{tag}-{rnd}.log")
                raw = guestboot.boot(f"wakes-{name}", image, a.initrd, log, 1, args,
                                     300 + a.idle)
                irqs, window, kinds = tally(raw.decode(errors="replace"), symbols(os.path.join(
                    os.path.dirname(image), "../../../System.map")))
                if not irqs:
                    sys.exit(f"wakes: no timer interrupt traced in {log}")
                runs.setdefault((name, setup), []).append(
                    (irqs / window, {k: n / window for k, n in kinds.items()},
                     guestboot.max_skip(raw)))

    def cell(vals, fmt):
        return f"{fmt.format(statistics.median(vals))} [{fmt.format(min(vals))}-" \
               f"{fmt.format(max(vals))}]"

    out = [f"Every cell: median [min-max] of {a.reps} runs, the kernels interleaved in each "
           f"round. qemu-system-i386 -accel tcg, 1 vCPU, {a.idle} s idle window traced "
           f"(make wakes), measured {time.strftime('%Y-%m-%d', time.gmtime())}. A wake-up is "
           "a timer interrupt: the skip it ended and why, or a tick that ended none; and the "
           "timers that expired before the next one (- for none). The floor is HZ / max_skip, "
           "the least a skipping kernel can take when no timer is due.", "",
           "| kernel | tick device, arguments | timer irqs/s | x floor (HZ / max_skip) |",
           "|---|---|---|---|"]
    for setup in setups:
        for name, _, hz in kernels:
            r = runs[(name, setup)]
            skips = [x[2] for x in r if x[2]]
            floor = f"{cell([x[0] * skips[0] / hz for x in r], '{:.3f}')} " \
                    f"(HZ / {skips[0]} = {hz / skips[0]:.1f}/s)" if skips else "n/a"
            out.append(f"| {guestboot.title(name)} | {' '.join(setup)} | "
                       f"{cell([x[0] for x in r], '{:.2f}')} | {floor} |")
    out.append("")
    for setup in setups:
        for name, _, _ in kernels:
            r = runs[(name, setup)]
            kinds = {k for x in r for k in x[1]}
            rows = sorted(kinds, key=lambda k: (-statistics.median(x[1].get(k, 0) for x in r), k))
            out += [f"Wake-ups of {guestboot.title(name)}, {' '.join(setup)}, per second:", "",
                    "| wake-up | timers that ran | per second |", "|---|---|---|"]
            for kind, ran in rows:
                out.append(f"| {kind} | {ran} | "
                           f"{cell([x[1].get((kind, ran), 0) for x in r], '{:.2f}')} |")
            out.append("")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(out))
    print("\n".join(out))


if __name__ == "__main__":
    main()
