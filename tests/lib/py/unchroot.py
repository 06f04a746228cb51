#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""unchroot.py CMD...: CMD where the kernel allows user namespaces.

CMD runs in a private mount namespace whose root mount is the guest's
root.  The guest's PID 1 chroots into its overlay (tests/vm/init), and the
kernel refuses a chrooted caller a user namespace (EPERM, see
current_chrooted()); moving the overlay onto "/" there, as switch_root
does, lifts that for CMD and its children only.
"""
import ctypes
import os
import sys

CLONE_NEWNS, MS_REC, MS_PRIVATE, MS_MOVE = 0x20000, 0x4000, 0x40000, 0x2000

libc = ctypes.CDLL(None, use_errno=True)


def ck(ret, what):
    if ret != 0:
        e = ctypes.get_errno()
        sys.exit(f"unchroot: {what}: {os.strerror(e)}")


def main(argv):
    cwd = os.getcwd()
    ck(libc.unshare(CLONE_NEWNS), "unshare")
    ck(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "make-rprivate")
    top = os.open("/", os.O_RDONLY | os.O_DIRECTORY)
    # Out of the chroot: chroot deeper, then climb from the old root.
    esc = f"/tmp/.unchroot-{os.getpid()}"
    os.mkdir(esc)
    os.chroot(esc)
    os.fchdir(top)
    for _ in range(64):
        os.chdir("..")
    os.chroot(".")
    # The overlay (with what is mounted in it) onto "/", and into it.
    os.fchdir(top)
    ck(libc.mount(b".", b"/", None, MS_MOVE, None), "move the root")
    os.chroot(".")
    os.rmdir(esc)
    os.chdir(cwd)
    os.execvp(argv[1], argv[1:])


if __name__ == "__main__":
    main(sys.argv)
