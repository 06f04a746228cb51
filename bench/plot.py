#!/usr/bin/python3
"""Turns bench/guest.sh's raw figures (JSON lines) into the table, the JSON
with ratios to plain UDP, the target verdicts and the picture.

  plot.py RAW.jsonl [--json OUT] [--table OUT] [--png OUT] [--check]

Every ratio divides medians measured in the same boot; its range divides
the extremes (worst/best case of the runs).  A value or ratio whose spread
((max-min)/median) exceeds UNSTABLE_PCT is marked unstable ("!" in the
table, "unstable": true in the JSON): do not read much into it.  --check (the smoke test): exit
1 unless every expected figure is present with non-zero numbers.
"""
import argparse
import json
import sys

SIZES_ONEWAY = [64, 1400, 16384, 65487]
SIZES_RR = [64, 1400, 65487]


def size_label(s):
    return {65487: "64K", 16384: "16K"}.get(s, str(s))


EXTRA_KEYS = ("checksum", "peer_impl", "tag", "ko")
ARRAYS = ("rate", "cpu_us", "p50_us", "p99_us", "send_rate")
UNSTABLE_PCT = 25.0


def med(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def merge(runs):
    """One figure from its runs (one per round): arrays, median, min, max."""
    runs = sorted(runs, key=lambda r: r.get("round", 0))
    f = {k: v for k, v in runs[0].items() if not any(k.startswith(a) for a in ARRAYS)}
    f.pop("round", None)
    f["rounds"] = [r.get("round", 0) for r in runs]
    for a in ARRAYS:
        if a not in runs[0]:
            continue
        vals = [x for r in runs for x in r.get(a, [])]
        if not vals:
            continue
        f[a] = vals
        f[a + "_med"], f[a + "_min"], f[a + "_max"] = med(vals), min(vals), max(vals)
    # per round, for paired ratios (one run per round)
    f["by_round"] = {r.get("round", 0): {a: r[a][0] for a in ARRAYS if r.get(a)} for r in runs}
    f["server_msgs"] = sum(r.get("server_msgs", 0) for r in runs)
    f["failed"] = sum(r.get("failed", 0) for r in runs)
    f["retries"] = sum(r.get("retries", 0) for r in runs)
    f["server_bytes_ok"] = all(r.get("server_bytes_ok", True) for r in runs)
    if "loss" in runs[0]:
        f["loss"] = med([r["loss"] for r in runs])
    f["reps"] = len(runs)
    return f


def load(path):
    meta, groups = {}, {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError:
                continue
            if d.get("test") == "meta":
                # a new run appended to the same file: only the last counts
                meta, groups = d, {}
                continue
            if d.get("ko") == "a":      # --ab: module A is the main figure
                del d["ko"]
            key = (d["test"], d["fam"], d.get("size"), d.get("peers"),
                   tuple(d.get(k) for k in EXTRA_KEYS))
            groups.setdefault(key, []).append(d)
    figs = []
    for key, runs in groups.items():
        figs.append(runs[0] if key[0] == "mem" else merge(runs))
    return meta, figs


class Figs:
    def __init__(self, figs):
        self.figs = figs

    def get(self, test, size=None, peers=1, fam=4, **extra):
        for f in self.figs:
            if f["test"] != test or f["fam"] != fam:
                continue
            if size is not None and f.get("size") != size:
                continue
            if test != "mem" and f.get("peers", 1) != peers:
                continue
            if any(f.get(k) != extra.get(k) for k in EXTRA_KEYS):
                continue
            return f
        return None


def ratio(a, b, key="rate"):
    """a over b: the median of the per-round ratios (runs of the same round
    ran next to each other) and their range; without common rounds, the
    ratio of the medians and of the extremes."""
    if not a or not b or not b.get(key + "_med"):
        return None
    ra, rb = a.get("by_round", {}), b.get("by_round", {})
    pairs = [ra[k][key] / rb[k][key] for k in ra
             if k in rb and key in ra[k] and rb[k].get(key)]
    if pairs:
        return mark({"ratio": med(pairs), "lo": min(pairs), "hi": max(pairs),
                     "paired": len(pairs)})
    r = a[key + "_med"] / b[key + "_med"]
    lo = a[key + "_min"] / b[key + "_max"] if b[key + "_max"] else r
    hi = a[key + "_max"] / b[key + "_min"] if b[key + "_min"] else r
    return mark({"ratio": r, "lo": lo, "hi": hi, "paired": 0})


def mark(r):
    """A ratio's spread (% of its median) and whether it is unstable."""
    r["spread"] = (r["hi"] - r["lo"]) / r["ratio"] * 100 if r["ratio"] else 0.0
    r["unstable"] = r["spread"] > UNSTABLE_PCT
    return r


def spread(f, key="rate"):
    m = f[key + "_med"]
    return (f[key + "_max"] - f[key + "_min"]) / m * 100 if m else 0.0


# --- rows of the table: (group, label, test, size, peers, extra, baseline) ---
def rows():
    r = []
    for s in SIZES_ONEWAY:
        r.append(("one-way (no ack), msgs/s", f"UDP one-way {size_label(s)}",
                  "udp-oneway", s, 1, {}, ("udp-oneway", s, 1)))
        r.append(("one-way (no ack), msgs/s", f"UDPCP no-ack {size_label(s)}",
                  "udpcp-noack", s, 1, {}, ("udp-oneway", s, 1)))
    for s in (1400, 65487):
        r.append(("one-way (no ack), msgs/s", f"UDPCP no-ack {size_label(s)}, checksum off",
                  "udpcp-noack", s, 1, {"checksum": 0}, ("udp-oneway", s, 1)))
    r.append(("one-way (no ack), msgs/s", "UDPCP single-ack 64K (÷ UDP one-way)",
              "udpcp-single", 65487, 1, {}, ("udp-oneway", 65487, 1)))
    r.append(("one-way (no ack), msgs/s", "UDPCP single-ack 64K, checksum off",
              "udpcp-single", 65487, 1, {"checksum": 0}, ("udp-oneway", 65487, 1)))
    for s in SIZES_RR:
        L = size_label(s)
        g = "one destination, msgs/s (ratio to UDP req/resp)"
        r.append((g, f"UDP req/resp {L}", "udp-rr", s, 1, {}, ("udp-rr", s, 1)))
        r.append((g, f"TCP req/resp {L}", "tcp-rr", s, 1, {}, ("udp-rr", s, 1)))
        r.append((g, f"UDPCP ack {L}", "udpcp-ack", s, 1, {}, ("udp-rr", s, 1)))
        r.append((g, f"UDPCP single-ack {L}", "udpcp-single", s, 1, {}, ("udp-rr", s, 1)))
        r.append((g, f"user-space UDPCP ack {L}", "uudpcp-ack", s, 1, {}, ("udp-rr", s, 1)))
        r.append((g, f"user-space UDPCP single {L}", "uudpcp-single", s, 1, {}, ("udp-rr", s, 1)))
    for s in SIZES_RR:
        L = size_label(s)
        g = "one message at a time (send, wait for the ack), msgs/s"
        r.append((g, f"UDPCP ack {L} +FLUSH", "udpcp-ack-lat", s, 1, {}, ("udp-rr", s, 1)))
        r.append((g, f"UDPCP single {L} +FLUSH", "udpcp-single-lat", s, 1, {}, ("udp-rr", s, 1)))
        r.append((g, f"user-space UDPCP ack {L}", "uudpcp-ack-lat", s, 1, {}, ("udp-rr", s, 1)))
    for n in (1, 100, 1000):
        g = "many destinations, 64 B, aggregate msgs/s"
        r.append((g, f"UDP req/resp, {n} dest.", "udp-rr", 64, n, {}, ("udp-rr", 64, n)))
        r.append((g, f"UDPCP ack, {n} dest.", "udpcp-ack", 64, n,
                  {"tag": "peers"} if n == 1 else {}, ("udp-rr", 64, n)))
    g = "interoperability (kernel <-> user space), msgs/s"
    r.append((g, "kernel -> uudpcp ack 1400", "udpcp-ack", 1400, 1, {"peer_impl": "user"},
              ("udp-rr", 1400, 1)))
    r.append((g, "uudpcp -> kernel ack 1400", "uudpcp-ack", 1400, 1, {"peer_impl": "kernel"},
              ("udp-rr", 1400, 1)))
    return r


def build(meta, figs):
    F = Figs(figs)
    out = {"meta": meta, "figures": [], "targets": [], "memory": {}}
    for fam in (4, 6):
        for (group, label, test, size, peers, extra, base) in rows():
            f = F.get(test, size, peers, fam, **extra)
            if not f:
                continue
            b = F.get(base[0], base[1], base[2], fam)
            e = dict(f)
            e.pop("by_round", None)
            e["label"] = label
            e["spread"] = spread(f)
            e["unstable"] = e["spread"] > UNSTABLE_PCT
            e["group"] = group
            e["ratio_to"] = f"{base[0]} {size_label(base[1])} peers {base[2]}"
            rr = ratio(f, b)
            if rr:
                e["ratio"] = rr
            ow = F.get("udp-oneway", size, 1, fam)
            if test != "udp-oneway" and ow:
                e["ratio_to_udp_oneway"] = ratio(f, ow)
            if b and b.get("cpu_us_med") and f.get("cpu_us_med"):
                e["cpu_ratio"] = ratio(f, b, "cpu_us")
            if b and b.get("p50_us_med") and f.get("p50_us_med"):
                e["p50_ratio"] = ratio(f, b, "p50_us")
            e["goodput_MBps"] = f["rate_med"] * size / 1e6
            out["figures"].append(e)
        m = F.get("mem", None, None, fam)
        if m:
            out["memory"][f"v{fam}"] = m

    # --- A/B (bench/guest.sh --ab) ---------------------------------------------
    out["ab"] = []
    for f in figs:
        if f.get("ko") != "b":
            continue
        extra = {k: f.get(k) for k in EXTRA_KEYS if k != "ko" and f.get(k) is not None}
        a = F.get(f["test"], f["size"], f["peers"], f["fam"], **extra)
        if a and ratio(f, a):
            out["ab"].append({"name": f"{f['test']} {size_label(f['size'])} n{f['peers']}"
                              f"{' ' + str(extra) if extra else ''}", "fam": f["fam"],
                              "rate": ratio(f, a), "cpu_us": ratio(f, a, "cpu_us")})

    # --- targets -------------------------------------------------------------
    def target(name, fam, r, limit, op, detail):
        """r: {"ratio", "lo", "hi"} (value and its range over the rounds)"""
        if r is None:
            out["targets"].append({"target": name, "fam": fam, "value": None,
                                   "limit": limit, "op": op, "met": None, "detail": "missing"})
            return
        v = r["ratio"]
        met = v >= limit if op == ">=" else v <= limit
        sp = (r["hi"] - r["lo"]) / v * 100 if v else 0.0
        out["targets"].append({"target": name, "fam": fam, "value": v, "lo": r["lo"],
                               "hi": r["hi"], "limit": limit, "op": op, "met": met,
                               "spread": sp, "unstable": sp > UNSTABLE_PCT,
                               "detail": detail})

    # issue 14: ratios of one boot, checksums on (the default), both families
    for fam in (4, 6):
        for s, lim in ((1400, 1.0), (16384, 0.9), (65487, 0.9)):
            L = {1400: "1400 B", 16384: "16 KB", 65487: "64 KB"}[s]
            target(f"no-ack {L} >= {lim} x UDP one-way", fam,
                   ratio(F.get("udpcp-noack", s, 1, fam), F.get("udp-oneway", s, 1, fam)),
                   lim, ">=", "msgs/s ratio")
        target("single-ack 64 KB goodput >= 1.0 x UDP one-way", fam,
               ratio(F.get("udpcp-single", 65487, 1, fam), F.get("udp-oneway", 65487, 1, fam)),
               1.0, ">=", "bytes/s ratio (same message size)")
        target("ack 64 B >= 8 x user-space UDPCP", fam,
               ratio(F.get("udpcp-ack", 64, 1, fam), F.get("uudpcp-ack", 64, 1, fam)),
               8.0, ">=", "msgs acked/s ratio")
        target("ack 64 B >= 5 x UDP round trips", fam,
               ratio(F.get("udpcp-ack", 64, 1, fam), F.get("udp-rr", 64, 1, fam)),
               5.0, ">=", "msgs acked/s over UDP req/resp/s")
        target("1000 dest.: CPU/msg <= 1.1 x one dest.", fam,
               ratio(F.get("udpcp-ack", 64, 1000, fam),
                     F.get("udpcp-ack", 64, 1, fam, tag="peers") or F.get("udpcp-ack", 64, 1, fam),
                     "cpu_us"),
               1.1, "<=", "guest CPU us per message ratio")
        m = F.get("mem", None, None, fam)
        target("<= 512 B per idle peer", fam,
               {"ratio": m["peer_bytes_med"], "lo": m["peer_bytes_min"],
                "hi": m["peer_bytes_max"]} if m else None,
               512, "<=", "slab objects+Percpu+Vmalloc delta / peers")
    return out


def fmt_rate(v):
    if v >= 1e6:
        return f"{v / 1e6:.2f}M"
    if v >= 1e4:
        return f"{v / 1e3:.1f}k"
    if v >= 1e3:
        return f"{v / 1e3:.2f}k"
    return f"{v:.0f}"


def table(out):
    lines = []
    meta = out["meta"]
    lines.append(f"UDPCP benchmark  kernel {meta.get('kernel', '?')}  git {meta.get('git', '?')}  "
                 f"{meta.get('date', '')}  runs {meta.get('reps', '?')} x {meta.get('secs', '?')} s"
                 f"  clock {meta.get('clock', 'wallclock')}  {meta.get('cpus', '?')} CPU(s)"
                 f"{'  SMOKE (numbers not meaningful)' if meta.get('smoke') else ''}")
    lines.append("value = median (spread = (max-min)/median); ratio = median / median of the "
                 "UDP baseline of the same boot [worst..best]")
    lines.append(f"! = unstable: the spread of that value or ratio exceeds {UNSTABLE_PCT:.0f} % "
                 "(do not read much into it)")
    hdr = f"{'figure':36} | {'IPv4':>9} {'spr':>6} {'ratio':>6} {'[range]':>14} {'us/msg':>7} " \
          f"{'p50/p99 us':>13} | {'IPv6':>9} {'spr':>6} {'ratio':>6} {'[range]':>14} {'us/msg':>7} {'p50/p99 us':>13}"
    by = {}
    order = []
    for e in out["figures"]:
        k = (e["group"], e["label"])
        if k not in by:
            order.append(k)
        by.setdefault(k, {})[e["fam"]] = e
    group = None
    for k in order:
        if k[0] != group:
            group = k[0]
            lines.append("")
            lines.append(f"== {group}")
            lines.append(hdr)
        cells = []
        for fam in (4, 6):
            e = by[k].get(fam)
            if not e:
                cells.append(" " * 62)
                continue
            r = e.get("ratio")
            rs = (f"{r['ratio']:6.2f} [{r['lo']:5.2f}..{r['hi']:5.2f}]{'!' if r['unstable'] else ' '}"
                  if r else " " * 21)
            lat = f"{e['p50_us_med']:.0f}/{e['p99_us_med']:.0f}" if "p50_us_med" in e else ""
            sp = f"{e['spread']:4.0f}%{'!' if e['unstable'] else ' '}"
            cells.append(f"{fmt_rate(e['rate_med']):>9} {sp} {rs} "
                         f"{e['cpu_us_med']:7.1f} {lat:>13}")
        lines.append(f"{k[1]:36} | {cells[0]} | {cells[1]}")
    if out["memory"]:
        lines.append("")
        lines.append("== memory (bytes; median [min..max])")
        for fam, m in sorted(out["memory"].items()):
            def mm(key):
                return f"{m[key + '_med']:.0f} [{m[key + '_min']:.0f}..{m[key + '_max']:.0f}]"
            lines.append(f"{fam}: per idle peer {mm('peer_bytes')} (of which per-CPU "
                         f"{mm('peer_percpu_bytes')}; slab pages {mm('peer_slab_page_bytes')}; "
                         f"left after close {mm('closed_peer_bytes')}); per socket: UDPCP "
                         f"{mm('udpcp_sock_bytes')}, UDP {mm('udp_sock_bytes')} "
                         f"(ratio {m['udpcp_sock_bytes_med'] / max(m['udp_sock_bytes_med'], 1):.2f})")
            lines.append(f"    slab caches grown per peer: {json.dumps(m.get('peer_slab_top', {}))}")
    ab = out.get("ab", [])
    if ab:
        lines.append("")
        lines.append("== A/B: module B ÷ module A, paired per round (median [min..max])")
        for e in ab:
            r, c = e["rate"], e.get("cpu_us")
            cs = f"  CPU/msg {c['ratio']:.2f} [{c['lo']:.2f}..{c['hi']:.2f}]" if c else ""
            lines.append(f"  IPv{e['fam']} {e['name']:34} msgs/s {r['ratio']:.2f} "
                         f"[{r['lo']:.2f}..{r['hi']:.2f}]{cs}  ({r['paired']} rounds)")
    lines.append("")
    lines.append("== targets")
    for t in out["targets"]:
        v = "missing" if t["value"] is None else f"{t['value']:.2f}"
        verdict = {True: "MET", False: "MISSED", None: "n/a"}[t["met"]]
        rng = "" if t["value"] is None else f"[{t['lo']:.2f}..{t['hi']:.2f}]"
        if t.get("unstable"):
            rng += "!"
        lines.append(f"  IPv{t['fam']} {t['target']:48} {v:>8} {rng:>16} (limit {t['op']} "
                     f"{t['limit']})  {verdict}")
    return "\n".join(lines) + "\n"


def plot(out, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    GOOD, BAD, C4, C6 = "#2e9d4d", "#d1495b", "#3b6ea8", "#e3a33b"
    figs = out["figures"]
    fig = plt.figure(figsize=(17, 12))
    gs = fig.add_gridspec(3, 2, width_ratios=[1.25, 1], height_ratios=[0.9, 1, 1],
                          hspace=0.38, wspace=0.42)
    m = out["meta"]
    fig.suptitle("UDPCP kernel module vs plain UDP — one QEMU/TCG guest boot, veth between two "
                 f"namespaces; median of {m.get('reps', '?')} rounds × {m.get('secs', '?')} s, "
                 f"bars/whiskers = range over the rounds; clock {m.get('clock', 'wallclock')}"
                 + ("   [SMOKE RUN: numbers not meaningful]" if m.get("smoke") else ""),
                 fontsize=11.5, y=0.995)

    def find(test, size, peers=1, fam=4, group="", **extra):
        return next((x for x in figs if x["test"] == test and x["size"] == size and
                     x["peers"] == peers and x["fam"] == fam and group in x["group"] and
                     all(x.get(k) == extra.get(k) for k in EXTRA_KEYS)), None)

    # (a) targets: measured / limit (or limit / measured), 1 = just met
    ax = fig.add_subplot(gs[0, 0])
    names = []
    for t in out["targets"]:
        if t["target"] not in names:
            names.append(t["target"])
    for i, name in enumerate(names):
        txt = []
        for fam, dy, mk in ((4, -0.15, "o"), (6, 0.15, "s")):
            t = next((x for x in out["targets"] if x["target"] == name and x["fam"] == fam), None)
            if not t or t["value"] is None:
                txt.append(f"v{fam} –")
                continue

            def score(v):
                v = max(v, 1e-9)
                return v / t["limit"] if t["op"] == ">=" else t["limit"] / v
            sv, s1, s2 = score(t["value"]), score(t["lo"]), score(t["hi"])
            lo, hi = min(s1, s2), max(s1, s2)
            col = GOOD if t["met"] else BAD
            ax.errorbar(sv, i + dy, xerr=[[max(sv - lo, 0)], [max(hi - sv, 0)]], fmt=mk,
                        color=col, ms=7, elinewidth=1, capsize=2,
                        label=f"IPv{fam}" if i == 0 else None)
            txt.append(f"v{fam} {t['value']:.3g}")
        ax.text(1.02, i, "  ".join(txt), transform=ax.get_yaxis_transform(), va="center",
                fontsize=7.5)
    ax.axvline(1.0, color="black", lw=1.2)
    ax.axvspan(0.01, 1.0, color=BAD, alpha=0.06)
    ax.axvspan(1.0, 100, color=GOOD, alpha=0.06)
    ax.set_xscale("log")
    ax.set_xlim(0.1, 10)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("margin: measured ÷ limit (for ≤ targets limit ÷ measured); right of 1 = met")
    ax.set_title("(a) issue 14 targets   ● IPv4  ■ IPv6   green met / red missed", fontsize=9.5)
    ax.grid(axis="x", which="both", alpha=0.25)

    # (b) throughput relative to UDP
    ax = fig.add_subplot(gs[1:, 0])
    rows = []
    for s in SIZES_ONEWAY:
        rows.append((f"no-ack {size_label(s)}  ÷ UDP one-way", ("udpcp-noack", s, {})))
    rows.append(("single-ack 64K  ÷ UDP one-way", ("udpcp-single", 65487, {})))
    for s in SIZES_RR:
        L = size_label(s)
        rows += [(f"ack {L}  ÷ UDP req/resp", ("udpcp-ack", s, {})),
                 (f"single-ack {L}  ÷ UDP req/resp", ("udpcp-single", s, {})),
                 (f"user-space UDPCP ack {L}  ÷ UDP req/resp", ("uudpcp-ack", s, {})),
                 (f"TCP req/resp {L}  ÷ UDP req/resp", ("tcp-rr", s, {}))]
    for n in (100, 1000):
        rows.append((f"ack 64, {n} destinations  ÷ UDP req/resp", ("udpcp-ack", 64, {"n": n})))
    for i, (label, (test, size, ex)) in enumerate(rows):
        for fam, dy, col in ((4, -0.2, C4), (6, 0.2, C6)):
            f = find(test, size, ex.get("n", 1), fam,
                     group="one-way" if "one-way" in label else
                     "many" if "destinations" in label else "one destination")
            if not f:
                continue
            r = f.get("ratio_to_udp_oneway") if "one-way" in label else f.get("ratio")
            if not r:
                continue
            ax.barh(i + dy, r["ratio"], height=0.38, color=col,
                    xerr=[[max(r["ratio"] - r["lo"], 0)], [max(r["hi"] - r["ratio"], 0)]],
                    error_kw={"elinewidth": 0.7, "capsize": 1.5, "ecolor": "#555"},
                    label=f"IPv{fam}" if i == 0 else None)
            ax.text(r["ratio"], i + dy, f" {r['ratio']:.2f}", va="center", fontsize=6.5)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r[0] for r in rows], fontsize=7.5)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlim(0.03, 30)
    ax.axvline(1.0, color="black", lw=0.9, ls="--")
    ax.set_xlabel("messages/s ÷ the same boot's UDP baseline (log; paired per round)")
    ax.set_title("(b) throughput relative to plain UDP", fontsize=9.5)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", which="both", alpha=0.25)

    # (c) latency
    ax = fig.add_subplot(gs[0, 1])
    kinds = [("udp-rr", "UDP\nreq/resp"), ("tcp-rr", "TCP\nreq/resp"),
             ("udpcp-ack-lat", "UDPCP ack\n+FLUSH"), ("udpcp-single-lat", "UDPCP single\n+FLUSH"),
             ("uudpcp-ack-lat", "user-space\nUDPCP ack")]
    w = 0.26
    for j, (size, col) in enumerate(((64, C4), (1400, "#6aa84f"), (65487, C6))):
        xs = [i + (j - 1) * w for i in range(len(kinds))]
        p50 = [(find(k, size) or {}).get("p50_us_med", 0) for k, _ in kinds]
        p99 = [(find(k, size) or {}).get("p99_us_med", 0) for k, _ in kinds]
        ax.bar(xs, p50, width=w, color=col, label=f"{size_label(size)} B p50")
        ax.scatter(xs, p99, marker="_", s=120, color="black", zorder=3,
                   label="p99" if j == 0 else None)
    ax.set_xticks(range(len(kinds)))
    ax.set_xticklabels([k[1] for k in kinds], fontsize=7.5)
    ax.set_yscale("log")
    ax.set_ylabel("µs, send → response/ack (IPv4)")
    ax.set_title("(c) latency, one message at a time: bars p50, dashes p99", fontsize=9.5)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(axis="y", which="both", alpha=0.25)

    # (d) many destinations
    ax = fig.add_subplot(gs[1, 1])
    ax2 = ax.twinx()
    for test, name, col in (("udpcp-ack", "UDPCP ack", GOOD), ("udp-rr", "UDP req/resp", C4)):
        xs, rate, cpu = [], [], []
        for n in (1, 100, 1000):
            e = find(test, 64, n, 4, tag="peers") if (test == "udpcp-ack" and n == 1) else None
            e = e or find(test, 64, n, 4)
            if e:
                xs.append(n)
                rate.append(e["rate_med"])
                cpu.append(e["cpu_us_med"])
        ax.plot(xs, rate, "o-", color=col, label=f"{name}: msgs/s")
        ax2.plot(xs, cpu, "s--", color=col, alpha=0.7, label=f"{name}: CPU µs/msg")
    ax.set_xscale("log")
    ax.set_xlabel("destinations at once (64 B, IPv4)")
    ax.set_ylabel("aggregate msgs/s (solid)")
    ax2.set_ylabel("guest CPU µs / message (dashed)")
    ax.set_ylim(bottom=0)
    ax2.set_ylim(bottom=0)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="lower left")
    ax.set_title("(d) many peers: one sender socket, a receiver socket per destination",
                 fontsize=9.5)
    ax.grid(alpha=0.25)

    # (e) memory
    ax = fig.add_subplot(gs[2, 1])
    mem = out["memory"]
    keys = [("peer_bytes", "per idle peer"), ("udpcp_sock_bytes", "per UDPCP socket"),
            ("udp_sock_bytes", "per UDP socket")]
    for j, (fam, col) in enumerate((("v4", C4), ("v6", C6))):
        mm = mem.get(fam)
        if not mm:
            continue
        xs = [i + (j - 0.5) * 0.36 for i in range(3)]
        vals = [mm[k + "_med"] for k, _ in keys]
        bars = ax.bar(xs, vals, width=0.36, color=[BAD if vals[0] > 512 else GOOD, col, col],
                      edgecolor=col, linewidth=2)
        for b, v in zip(bars, vals):
            ax.text(b.get_x() + b.get_width() / 2, v, f"{v:.0f}", ha="center", va="bottom",
                    fontsize=7)
        pc = mm.get("peer_percpu_bytes_med")
        if pc:
            ax.bar(xs[0], pc, width=0.36, color="none", edgecolor="black", hatch="///")
    from matplotlib.patches import Patch
    handles = [Patch(facecolor="white", edgecolor=C4, lw=2, label="IPv4 (left)"),
               Patch(facecolor="white", edgecolor=C6, lw=2, label="IPv6 (right)"),
               Patch(facecolor="white", edgecolor="black", hatch="///", label="of which per-CPU")]
    ax.plot([-0.45, 0.45], [512, 512], color="black", lw=1.3)
    ax.text(0.47, 512, "target 512 B", va="center", fontsize=7)
    ax.set_xticks(range(3))
    ax.set_xticklabels([k[1] for k in keys], fontsize=8)
    ax.set_ylabel("bytes of kernel memory")
    ax.set_title("(e) memory (slab objects + per-CPU + vmalloc); peer bar red = over target",
                 fontsize=9.5)
    ax.legend(handles=handles, fontsize=7, loc="upper right")
    ax.grid(axis="y", alpha=0.25)

    fig.savefig(path, dpi=100, bbox_inches="tight")


def check(meta, figs, out):
    """The smoke test: every figure guest.sh runs is there and non-zero."""
    F = Figs(figs)
    missing = []
    expect = []
    # guest.sh's BENCH_FAMILIES: a run may measure one family only
    for fam in meta.get("families", [4, 6]):
        for s in SIZES_ONEWAY:
            expect += [("udp-oneway", s, 1, fam, {}), ("udpcp-noack", s, 1, fam, {})]
        expect.append(("udpcp-noack", 1400, 1, fam, {"checksum": 0}))
        expect.append(("udpcp-noack", 65487, 1, fam, {"checksum": 0}))
        expect.append(("udpcp-single", 65487, 1, fam, {"checksum": 0}))
        for s in SIZES_RR:
            for t in ("udp-rr", "udpcp-ack", "udpcp-single", "tcp-rr", "uudpcp-ack",
                      "uudpcp-single", "udpcp-ack-lat", "udpcp-single-lat", "uudpcp-ack-lat"):
                expect.append((t, s, 1, fam, {}))
        expect.append(("udpcp-ack", 64, 1, fam, {"tag": "peers"}))
        for n in (100, 1000):
            expect += [("udp-rr", 64, n, fam, {}), ("udpcp-ack", 64, n, fam, {})]
        expect += [("udpcp-ack", 1400, 1, fam, {"peer_impl": "user"}),
                   ("uudpcp-ack", 1400, 1, fam, {"peer_impl": "kernel"})]
    for (t, s, n, fam, extra) in expect:
        f = F.get(t, s, n, fam, **extra)
        name = f"{t} size {s} peers {n} IPv{fam} {extra or ''}"
        if not f:
            missing.append(f"missing: {name}")
            continue
        if not f.get("rate_med", 0) > 0 or not all(x > 0 for x in f["rate"]):
            missing.append(f"zero rate: {name}")
        if not f.get("cpu_us_med", 0) > 0:
            missing.append(f"zero CPU per message: {name}")
        if "p50_us_med" in f and not f["p50_us_med"] > 0:
            missing.append(f"zero latency: {name}")
        if f.get("server_bytes_ok") is False:
            missing.append(f"receiver byte count does not match the messages: {name}")
        if f.get("failed"):
            missing.append(f"{f['failed']} message(s) failed: {name}")
        if not f.get("server_msgs", 0) > 0:
            missing.append(f"receiver counted nothing: {name}")
    for fam in (4, 6):
        m = F.get("mem", None, None, fam)
        if not m:
            missing.append(f"missing: mem IPv{fam}")
            continue
        for k in ("peer_bytes", "udpcp_sock_bytes", "udp_sock_bytes"):
            if not m.get(k + "_med", 0) > 0:
                missing.append(f"zero {k}: mem IPv{fam}")
    if not any(t["value"] is not None for t in out["targets"]):
        missing.append("no target could be evaluated")
    return missing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("raw")
    ap.add_argument("--json")
    ap.add_argument("--table")
    ap.add_argument("--png")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    meta, figs = load(a.raw)
    out = build(meta, figs)
    # padded columns leave blanks at line ends: results.txt is committed
    t = "".join(line.rstrip() + "\n" for line in table(out).splitlines())
    sys.stdout.write(t)
    if a.table:
        open(a.table, "w").write(t)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    if a.png:
        try:
            plot(out, a.png)
        except ImportError as e:
            print(f"plot: {e} (python3-matplotlib)", file=sys.stderr)
            if not a.check:
                return 1
    if a.check:
        problems = check(meta, figs, out)
        for p in problems:
            print(f"CHECK: {p}", file=sys.stderr)
        if problems:
            return 1
        print("check: every figure present and non-zero")
    return 0


if __name__ == "__main__":
    sys.exit(main())
