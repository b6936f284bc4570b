#!/usr/bin/env python3
"""The benchmark's runs and its table (make bench, ci/bench.sh).

Boots each kernel in the guest's bench mode (ci/guest/init.c: bench()) for
every setup, REPS rounds, the kernels interleaved within a round and their
order rotated from round to round, so that host noise hits them alike.
Every boot goes through ci/qemu_run.py (the launcher of the tests) and is
judged by ci/verdict.sh (its console failure patterns). Each cell of the
table is the median of the rounds with the minimum and maximum beside it.

usage: bench.py --out DIR --initrd CPIO --reps N --idle S
                --kernel NAME=BZIMAGE:HZ ... --setup VCPUS:DEVICE ...
Writes DIR/results.md and DIR/chart.dat; prints the table."""
import argparse, os, re, statistics, sys, time

import guestboot

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--logs", required=True)
ap.add_argument("--initrd", required=True)
ap.add_argument("--reps", type=int, default=5)
ap.add_argument("--idle", type=int, default=10)
ap.add_argument("--kernel", action="append", required=True)
ap.add_argument("--setup", action="append", required=True)
a = ap.parse_args()

kernels = guestboot.kernels(a.kernel)  # (name, bzImage, hz)
setups = [tuple(s.split(":")) for s in a.setup]  # (vcpus, device)


def run(kernel, vcpus, device, rnd):
    """One boot; returns {key: value} of its BENCH lines and host CPU %."""
    name, image, hz = kernel
    log = os.path.join(a.logs, f"bench-{name}-{vcpus}-{device}-{rnd}.log")
    args = f"dt.mode=bench dt.hz={hz} dt.idle={a.idle}"
    args = guestboot.device_args(device) + args
    tmo = 300 + a.idle
    text = guestboot.boot(f"bench-{name}", image, a.initrd, log, vcpus, args, tmo)
    res, marks = {}, {}
    for raw in text.split(b"\n"):
        line = raw.decode(errors="replace").strip()
        m = re.match(r"BENCH (\S+) (-?[0-9.]+)$", line)
        if m:
            res[m.group(1)] = float(m.group(2))
        m = re.match(r"HOSTCPU (\S+)-(begin|end) ([0-9]+) ([0-9]+)$", line)
        if m:
            marks.setdefault(m.group(1), {})[m.group(2)] = (int(m.group(3)), int(m.group(4)))
    skip = guestboot.max_skip(text)
    if skip:
        res["max_skip"] = float(skip)
    # A CPU time of 0 (schedstat unreadable) or one that went backwards (a
    # thread exited within the window) is no measurement.
    for w, e in marks.items():
        if "begin" in e and "end" in e and e["end"][0] > e["begin"][0] \
                and e["begin"][1] > 0 and e["end"][1] > e["begin"][1]:
            res[f"{w}_host_cpu"] = 100.0 * (e["end"][1] - e["begin"][1]) / (e["end"][0] - e["begin"][0])
    return res


data = {}  # (kernel, vcpus, device) -> [res, ...]
total = a.reps * len(setups) * len(kernels)
done = 0
t0 = time.time()
for rnd in range(a.reps):
    for vcpus, device in setups:
        order = kernels[rnd % len(kernels):] + kernels[:rnd % len(kernels)]
        for k in order:
            done += 1
            print(f"bench: round {rnd + 1}/{a.reps}, {guestboot.title(k[0])}, {vcpus} vCPU(s), "
                  f"{device} ({done}/{total}, {int(time.time() - t0)} s)", file=sys.stderr, flush=True)
            data.setdefault((k[0], vcpus, device), []).append(run(k, vcpus, device, rnd))


def cell(kname, vcpus, device, key, fmt="{:.1f}", rel=None):
    """median [min-max] of @key over the rounds, or n/a."""
    vals = [r[key] for r in data[(kname, vcpus, device)] if key in r]
    if rel:
        base = [r[key] for r in data.get((rel, vcpus, device), []) if key in r]
        if not base or not vals or statistics.median(base) == 0:
            return "n/a"
        vals = [x / statistics.median(base) for x in vals]
    if not vals:
        return "n/a"
    return f"{fmt.format(statistics.median(vals))} [{fmt.format(min(vals))}-{fmt.format(max(vals))}]"


def med(kname, vcpus, device, key):
    vals = [r[key] for r in data[(kname, vcpus, device)] if key in r]
    return statistics.median(vals) if vals else None


tables = [
    ("Short idles (token passed through a pipe between CPUs 0 and 1)", "round trips/s",
     "pipe_rt_per_s", "{:.0f}", "host CPU", "pipe_host_cpu", "{:.1f} %", "pipe_irq_per_s"),
    ("Periodic wake-up every 10 ms", "lateness median / worst (ms)", "periodic10_late", "",
     "host CPU", "periodic10_host_cpu", "{:.2f} %", "periodic10_irq_per_s"),
    ("Periodic wake-up every 37 ms", "lateness median / worst (ms)", "periodic37_late", "",
     "host CPU", "periodic37_host_cpu", "{:.2f} %", "periodic37_irq_per_s"),
    ("Periodic wake-up every 100 ms", "lateness median / worst (ms)", "periodic100_late", "",
     "host CPU", "periodic100_host_cpu", "{:.2f} %", "periodic100_irq_per_s"),
    ("One CPU busy, the others idle", "timer irqs/s of each idle CPU", "onebusy_idle_irq_per_s",
     "{:.1f}", "host CPU", "onebusy_host_cpu", "{:.1f} %", "onebusy_busy_irq_per_s"),
    ("Sleeps of odd lengths (3-60 ms, 150 of them)", "lateness p99 / worst (ms)", "sleep_late", "",
     "host CPU", "sleeps_host_cpu", "{:.2f} %", None),
]

out = []
out.append(f"Every cell: median [min-max] of {a.reps} runs; the kernels interleaved in each round, "
           f"their order rotated. qemu-system-i386 -accel tcg -M pc,i8042=off -m 256, "
           f"{a.idle} s idle window, measured {time.strftime('%Y-%m-%d', time.gmtime())}. "
           "Host CPU: QEMU's CPU time (all threads) over the guest's window, read as the guest "
           "marks its start and end on the serial line.")
out.append("")
out.append("### Idle")
out.append("")
out.append("| kernel | vCPUs | tick device | timer irqs/s (all CPUs) | interrupts/s, every kind "
           "(all CPUs) | of them IPIs/s | host CPU, idle window |")
out.append("|---|---|---|---|---|---|---|")
for vcpus, device in setups:
    for kname, _, _ in kernels:
        out.append(f"| {guestboot.title(kname)} | {vcpus} | {device} | "
                   f"{cell(kname, vcpus, device, 'idle_irq_per_s')} | "
                   f"{cell(kname, vcpus, device, 'idle_all_irq_per_s')} | "
                   f"{cell(kname, vcpus, device, 'idle_ipi_per_s')} | "
                   f"{cell(kname, vcpus, device, 'idle_host_cpu', '{:.2f} %')} |")
out.append("")
if "on" in [k[0] for k in kernels]:
    out.append("What ended dyn-tick's skips in the idle window, per second (`dyn_tick_stats`): "
               "a timer, a device interrupt, an IPI (a kick from a CPU that left the idle loop, "
               "or a timer queued from another CPU), the hardware's `max_skip`, the clocksource.")
    out.append("")
    out.append("| vCPUs | tick device | skips/s | timer | device irq | IPI | max_skip | clocksource |")
    out.append("|---|---|---|---|---|---|---|---|")
    for vcpus, device in setups:
        out.append(f"| {vcpus} | {device} | " + " | ".join(
            cell("on", vcpus, device, f"idle_{k}_per_s", "{:.2f}")
            for k in ("skips", "wake_timer", "wake_irq", "wake_ipi", "wake_max_skip",
                      "wake_cs_limit")) + " |")
    out.append("")
for title, c1, k1, f1, c2, k2, f2, extra in tables:
    out.append(f"### {title}")
    out.append("")
    hdr = f"| kernel | vCPUs | tick device | {c1} | {c2} |"
    if extra:
        hdr += " timer irqs/s (all CPUs, busy CPU for one-busy) |"
    out.append(hdr)
    out.append("|---" * (hdr.count("|") - 1) + "|")
    for vcpus, device in setups:
        if k1.startswith(("pipe", "onebusy")) and vcpus == "1":
            continue
        for kname, _, _ in kernels:
            if f1:
                v1 = cell(kname, vcpus, device, k1, f1)
            elif k1 == "sleep_late":
                v1 = f"{cell(kname, vcpus, device, k1 + '_p99_ms', '{:.2f}')} / " \
                     f"{cell(kname, vcpus, device, k1 + '_worst_ms', '{:.2f}')}"
            else:
                v1 = f"{cell(kname, vcpus, device, k1 + '_median_ms', '{:.2f}')} / " \
                     f"{cell(kname, vcpus, device, k1 + '_worst_ms', '{:.2f}')}"
            row = f"| {guestboot.title(kname)} | {vcpus} | {device} | {v1} | {cell(kname, vcpus, device, k2, f2)} |"
            if extra:
                row += f" {cell(kname, vcpus, device, extra, '{:.0f}')} |"
            out.append(row)
    out.append("")

out.append("### CPU-bound loop and jiffies")
out.append("")
out.append("| kernel | vCPUs | tick device | loop vs periodic | jiffies behind CLOCK_MONOTONIC after the idle window (ms) |")
out.append("|---|---|---|---|---|")
for vcpus, device in setups:
    for kname, _, _ in kernels:
        out.append(f"| {guestboot.title(kname)} | {vcpus} | {device} | "
                   f"{cell(kname, vcpus, device, 'loops_per_s', '{:.3f}', rel='base')} | "
                   f"{cell(kname, vcpus, device, 'drift_ms', '{:+.1f}')} |")
out.append("")

hz = {k[0]: k[2] for k in kernels}.get("on", kernels[0][2])
for vcpus, device in setups:
    if device != "pit" or "on" not in [k[0] for k in kernels]:
        continue
    skip = med("on", vcpus, device, "max_skip")
    rate = med("on", vcpus, device, "idle_irq_per_s")
    if skip and rate:
        floor = hz / skip
        out.append(f"PIT floor, {vcpus} vCPU: HZ / max_skip = {hz} / {skip:.0f} = {floor:.1f} "
                   f"interrupts/s; dyn-tick on the PIT: {rate:.1f}/s ({rate / floor:.2f} x the floor).")
out.append("")

os.makedirs(a.out, exist_ok=True)
with open(os.path.join(a.out, "results.md"), "w") as f:
    f.write("\n".join(out))

# Chart data: 2 vCPUs (or the first setup with most vCPUs) on the local APIC,
# median timer interrupts/s of each workload and kernel.
cs = max((s for s in setups if s[1] == "lapic"), key=lambda s: (s[0] == "2", int(s[0])),
         default=setups[0])
with open(os.path.join(a.out, "chart.dat"), "w") as f:
    f.write("workload " + " ".join(k[0] for k in kernels) + "\n")
    for label, key in (("idle,all-CPUs", "idle_irq_per_s"),
                       ("short-idles,all-CPUs", "pipe_irq_per_s"),
                       ("wake-every-10ms,all-CPUs", "periodic10_irq_per_s"),
                       ("one-busy,each-idle-CPU", "onebusy_idle_irq_per_s")):
        vals = [med(k[0], cs[0], cs[1], key) for k in kernels]
        f.write(label + " " + " ".join(f"{v:.2f}" if v is not None else "NaN" for v in vals) + "\n")
print("\n".join(out))
