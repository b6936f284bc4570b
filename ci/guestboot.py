"""What the benchmarks share (ci/bench.py, ci/wakes.py): their kernels'
names and --kernel arguments, the kernel arguments that pick a tick device
(from ci/boots.conf), one boot of the guest through the tests' launcher
(ci/qemu_run.py) judged by the tests' verdict (ci/verdict.sh), and the
max_skip a boot's kernel log gives."""
import os, re, subprocess, sys, time

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TITLES = {"base": "periodic (unpatched)", "on": "dyn-tick (NO_IDLE_HZ)", "nohz": "NO_HZ_IDLE"}


def title(name):
    return TITLES.get(name, name)


def kernels(args):
    """[(name, bzImage, hz)] of --kernel NAME=BZIMAGE:HZ arguments."""
    out = []
    for k in args:
        name, rest = k.split("=", 1)
        image, hz = rest.rsplit(":", 1)
        out.append((name, image, int(hz)))
    return out


def max_skip(text):
    """Ticks one skip can span, from the kernel log (bytes), or None."""
    m = re.search(rb"dyn-tick: \S+ can skip up to ([0-9]+) ticks", text)
    return int(m.group(1)) if m else None


def device_args(device):
    """The kernel arguments that make DEVICE the tick device: those of the
    first boot of ci/boots.conf with dt.dev=DEVICE (the base configuration
    has the HPET: "nolapic" for it, "hpet=disable nolapic" for the PIT),
    with a space after them."""
    with open(os.path.join(top, "ci/boots.conf")) as f:
        for line in f:
            w = line.split()
            if len(w) >= 3 and not w[0].startswith("#") and f"dt.dev={device}" in w[2:]:
                return "".join(x + " " for x in w[2:] if x != "-")
    sys.exit(f"{os.path.basename(sys.argv[0])}: no boot with dt.dev={device} in ci/boots.conf")


def boot(name, image, initrd, log, vcpus, args, tmo):
    """Boot IMAGE with ARGS into LOG; exit with the verdict's reason when
    the boot failed, else return the console log as bytes."""
    t = time.time()
    rc = subprocess.call([sys.executable, os.path.join(top, "ci/qemu_run.py"),
                          "--kernel", image, "--initrd", initrd, "--log", log,
                          "--smp", str(vcpus), "--timeout", str(tmo), "--append", args])
    # The serial console ends its lines with \r\n; the verdict wants \n
    with open(log, "rb") as f:
        text = f.read().replace(b"\r", b"")
    with open(log, "wb") as f:
        f.write(text)
    v = subprocess.run(["bash", os.path.join(top, "ci/verdict.sh"), name, log,
                        str(rc), str(tmo), str(int(time.time() - t))],
                       capture_output=True, text=True)
    if v.returncode != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: boot {name} failed: {v.stderr.strip()[:400]}")
    return text
