#!/usr/bin/env python3
"""Counts the time-stamp counter over a loop: encode ``msr/tsc/`` with pmucat, open it with
perf_event_open (through ctypes), run a loop, print the count.

    PYTHONPATH=build/python python3 examples/python/count_tsc.py [SYSFS]

Every attr pmucat encodes has exclude_guest=1, as perf's parser sets it; PMUs that support no
exclusion refuse it with EINVAL, and perf then retries without exclude_guest and exclude_host.
So does this script. Exits 77 (the test suite's "skipped") with a message when the machine has
no msr PMU with a tsc event, or does not let it open perf events."""

import ctypes
import errno
import fcntl
import os
import platform
import sys

import pmucat

SKIP = 77
# perf_event_open's syscall number.
SYSCALLS = {"x86_64": 298, "i686": 336, "aarch64": 241, "ppc64le": 319, "s390x": 331,
            "riscv64": 241}
# ioctls of <linux/perf_event.h>: _IO('$', n).
IOC_ENABLE, IOC_DISABLE, IOC_RESET = 0x2400, 0x2401, 0x2403
# Bits of the flags word at byte 40 of struct perf_event_attr.
EXCLUDE_HOST, EXCLUDE_GUEST = 1 << 19, 1 << 20
DISABLED = 1 << 0
ATTR_SIZE = 128  # PERF_ATTR_SIZE_VER7: every kernel since 5.13 takes it


def perf_event_open(image: bytes) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(image, len(image))
    fd = libc.syscall(SYSCALLS[platform.machine()], buf, 0, -1, -1, ctypes.c_ulong(0))
    if fd < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return int(fd)


def with_flags(image: bytes, set_bits: int = 0, clear_bits: int = 0) -> bytes:
    flags = int.from_bytes(image[40:48], "little")
    flags = (flags | set_bits) & ~clear_bits
    return image[:40] + flags.to_bytes(8, "little") + image[48:]


def main() -> int:
    sysfs = sys.argv[1] if len(sys.argv) > 1 else None
    try:
        catalog = pmucat.Catalog.open(sysfs=sysfs)
        catalog.pmu("msr")
    except (pmucat.Error, KeyError) as error:
        print(f"count_tsc.py: skipped: this machine has no msr PMU ({error})")
        return SKIP
    try:
        (event,) = catalog.encode("msr/tsc/")
    except pmucat.Error as error:
        print(f"count_tsc.py: skipped: msr/tsc/ does not encode here:\n{error}")
        return SKIP
    if platform.machine() not in SYSCALLS:
        print(f"count_tsc.py: skipped: no perf_event_open number for {platform.machine()}")
        return SKIP
    image = with_flags(event.to_bytes(size=ATTR_SIZE), set_bits=DISABLED)
    try:
        fd = perf_event_open(image)
        exclude_guest = event.exclude_guest
    except OSError as error:
        if error.errno != errno.EINVAL or not (event.exclude_guest or event.exclude_host):
            print(f"count_tsc.py: skipped: perf_event_open(msr/tsc/) failed: {error}")
            return SKIP if error.errno in (errno.EACCES, errno.EPERM, errno.ENOENT,
                                           errno.ENOSYS, errno.ENODEV) else 1
        # What perf does when the kernel refuses the exclusion bits.
        image = with_flags(image, clear_bits=EXCLUDE_GUEST | EXCLUDE_HOST)
        try:
            fd = perf_event_open(image)
        except OSError as again:
            print(f"count_tsc.py: skipped: perf_event_open(msr/tsc/) failed: {again}")
            return SKIP
        exclude_guest = False
    fcntl.ioctl(fd, IOC_RESET, 0)
    fcntl.ioctl(fd, IOC_ENABLE, 0)
    total = 0
    for i in range(1_000_000):
        total += i
    fcntl.ioctl(fd, IOC_DISABLE, 0)
    count = int.from_bytes(os.read(fd, 8), "little")
    os.close(fd)
    print(f"msr/tsc/ (type {event.type}, config {event.config:#x}, exclude_guest "
          f"{int(exclude_guest)}): {count} ticks over the loop")
    return 0 if count > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
