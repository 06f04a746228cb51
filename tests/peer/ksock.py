"""The kernel's UDPCP sockets from Python, for the guest tests.

Values follow uapi/linux/udpcp.h.  setns() moves the calling thread: the
sockets it makes afterwards live in that namespace, and keep it.
"""

import ctypes
import os
import socket
import struct

IPPROTO_UDPCP = 258
SOL_UDPCP = IPPROTO_UDPCP
TRANSFER_MODE, CHECKSUM_MODE, TX_TIMEOUT, RX_TIMEOUT = 0, 1, 2, 3
MAXTRY, OUTSTANDING_ACKS, INFO, FLUSH = 4, 5, 6, 7
NOACK, ACK, SINGLE_ACK = 0, 1, 2
SO_SNDBUFFORCE, SO_RCVBUFFORCE = 32, 33

INFO_FIELDS = ("size tx_nodes rx_nodes tx_pending rx_queued rtt_us tx_msgs "
               "rx_msgs tx_bytes rx_bytes tx_timeout rx_timeout tx_retries "
               "rx_discarded_frags crc_errors rx_duplicates rx_malformed "
               "rx_dropped rx_refused icmp_errors pmtu_restarts").split()
INFO_STRUCT = struct.Struct("=6I15Q")

_libc = ctypes.CDLL(None, use_errno=True)
_CLONE_NEWNET = 0x40000000


def setns(name):
    """Sockets made after this live in network namespace `name`."""
    fd = os.open("/run/netns/" + name, os.O_RDONLY)
    try:
        if _libc.setns(fd, _CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise OSError(err, "setns %s: %s" % (name, os.strerror(err)))
    finally:
        os.close(fd)


def family(fam):
    """The address family of a test family: v4, v6 or mapped."""
    return socket.AF_INET if fam == "v4" else socket.AF_INET6


def wildcard(af):
    """The any-address to bind to in family `af`."""
    return "0.0.0.0" if af == socket.AF_INET else "::"


def udpcp_socket(fam, ns=None):
    """A UDPCP socket for test family `fam`; v6 is v6-only, mapped is not."""
    if ns:
        setns(ns)
    s = socket.socket(family(fam), socket.SOCK_DGRAM, IPPROTO_UDPCP)
    if fam != "v4":
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1 if fam == "v6" else 0)
    return s


def info(s):
    """UDPCP_INFO as a dict of the uapi's names without udpi_."""
    raw = s.getsockopt(SOL_UDPCP, INFO, INFO_STRUCT.size)
    return dict(zip(INFO_FIELDS, INFO_STRUCT.unpack(raw.ljust(INFO_STRUCT.size, b"\0"))))


def flush(s, timeout_ms):
    s.setsockopt(SOL_UDPCP, FLUSH, struct.pack("i", timeout_ms))
