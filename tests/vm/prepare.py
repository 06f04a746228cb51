#!/usr/bin/env python3
"""Builds the cached boot inputs of the test guest (host side, no root needed).

  prepare.py vmlinux CACHE VMLINUZ
      Extracts the raw ELF vmlinux from a Debian xz bzImage, so QEMU can boot
      it PVH and skip the ~2.4 s in-guest decompression under TCG; another
      compression (6.12's zstd): prints VMLINUZ, booted as the bzImage it is.
  prepare.py initramfs CACHE INIT BUSYBOX MODDIR MODULE...
      Writes a newc cpio holding busybox, INIT as /init and the named modules
      of MODDIR (a /lib/modules/<release> tree) as /lib/modules/<release>/NAME.ko.
      Modules that MODDIR lacks are left out (the kernel may have them built in).

Both print the cached file's path; the name carries a hash of every input, so
a changed input makes a new file and an unchanged one costs nothing.
"""
import gzip
import hashlib
import lzma
import os
import sys
import tempfile

XZ_MAGIC = b"\xfd7zXZ\x00"


def atomic_write(path, data):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def prune(cache, prefix, keep):
    # Versions unused for a week are dead weight; younger ones may belong to
    # another kernel (a debug build) that a concurrent run is booting.
    old = os.path.getmtime(keep) - 7 * 86400
    for name in os.listdir(cache):
        path = os.path.join(cache, name)
        if name.startswith(prefix) and path != keep:
            try:
                if os.path.getmtime(path) < old:
                    os.unlink(path)
            except OSError:
                pass


def cached(path):
    if os.path.exists(path):
        os.utime(path)  # mark as in use for prune()
        return True
    return False


def vmlinux(cache, vmlinuz):
    data = open(vmlinuz, "rb").read()
    key = hashlib.sha256(data).hexdigest()[:16]
    out = os.path.join(cache, "vmlinux-%s-%s" % (os.path.basename(vmlinuz), key))
    if cached(out):
        return out
    off = data.find(XZ_MAGIC)
    while off >= 0:
        try:
            elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[off:])
        except lzma.LZMAError:
            elf = b""
        if elf[:4] == b"\x7fELF":
            atomic_write(out, elf)
            prune(cache, "vmlinux-%s-" % os.path.basename(vmlinuz), out)
            return out
        off = data.find(XZ_MAGIC, off + 1)
    # Not xz (6.12's is zstd, which Python 3.11 cannot unpack): QEMU boots
    # the bzImage itself, a little slower than the ELF by PVH.
    return vmlinuz


def module_paths(moddir):
    """name -> path of every module listed in modules.dep (or found by walking)."""
    found = {}
    dep = os.path.join(moddir, "modules.dep")
    if os.path.exists(dep):
        rels = [l.split(":", 1)[0] for l in open(dep) if ":" in l]
    else:
        rels = [os.path.relpath(os.path.join(d, f), moddir)
                for d, _, fs in os.walk(os.path.join(moddir, "kernel")) for f in fs]
    for rel in rels:
        base = os.path.basename(rel)
        for ext in (".ko", ".ko.xz", ".ko.gz"):
            if base.endswith(ext):
                found[base[: -len(ext)].replace("-", "_")] = os.path.join(moddir, rel)
    return found


def read_module(path):
    data = open(path, "rb").read()
    if path.endswith(".xz"):
        return lzma.decompress(data)
    if path.endswith(".gz"):
        return gzip.decompress(data)
    return data


def cpio_entry(name, mode, data=b"", rdev=(0, 0)):
    hdr = "070701" + "".join("%08X" % v for v in (
        0, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name) + 1, 0))
    out = hdr.encode() + name.encode() + b"\0"
    out += b"\0" * (-len(out) % 4) + data
    return out + b"\0" * (-len(out) % 4)


def initramfs(cache, init, busybox, moddir, names):
    release = os.path.basename(os.path.normpath(moddir))
    avail = module_paths(moddir) if os.path.isdir(moddir) else {}
    files = [("init", 0o100755, open(init, "rb").read()),
             ("bin/busybox", 0o100755, open(busybox, "rb").read())]
    for n in names:
        if n in avail:
            files.append(("lib/modules/%s/%s.ko" % (release, n), 0o100644,
                          read_module(avail[n])))
    h = hashlib.sha256()
    for name, mode, data in files:
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    out = os.path.join(cache, "initramfs-%s.cpio" % h.hexdigest()[:16])
    if cached(out):
        return out
    dirs = ["bin", "dev", "proc", "sys", "mnt", "lib", "lib/modules",
            "lib/modules/" + release]
    blob = b"".join(cpio_entry(d, 0o40755) for d in dirs)
    # Without /dev/console the kernel starts /init with no stdio at all.
    blob += cpio_entry("dev/console", 0o20600, rdev=(5, 1))
    blob += b"".join(cpio_entry(n, m, d) for n, m, d in files)
    blob += cpio_entry("TRAILER!!!", 0)
    atomic_write(out, blob)
    prune(cache, "initramfs-", out)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd, cache = sys.argv[1], sys.argv[2]
    os.makedirs(cache, exist_ok=True)
    if cmd == "vmlinux" and len(sys.argv) == 4:
        print(vmlinux(cache, sys.argv[3]))
    elif cmd == "initramfs" and len(sys.argv) >= 6:
        print(initramfs(cache, sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
