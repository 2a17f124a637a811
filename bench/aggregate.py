#!/usr/bin/env python3
"""bench/aggregate.py RUNS_DIR RESULTS_DIR: turn the raw results of one
bench run (bench/run: one directory per boot under RUNS_DIR, plus RUNS_DIR/
meta) into RESULTS_DIR/latest.json and RESULTS_DIR/latest.md.

Ratios are taken only against kernels booted in the same run: a mode's
ratio is median(mode times) / median(baseline times); the spread is the
min and max of the per-round ratios (round r against round r's baseline).
Boots of the no-KASAN kernel under the mtrace QEMU plugin (a boot directory
with an "mtrace" file: its mode) are configurations of their own,
mtrace_sharing and mtrace_all, against that run's plain no-KASAN boots.
"""
import json
import os
import re
import statistics
import sys

WORKLOADS = ["hackbench", "stressng", "tar"]
MEM_MODES = ["off", "alloc_only", "full", "mode3"]
# The modes of the memorizer-jl kernel, in one TCG thread: "calls" (full
# tracing and call logging) needs it, since ftrace patches the kernel's
# text; its full and the kasan-jl kernel are what it is measured against.
JL_MODES = ["off", "full", "calls"]
# The mtrace QEMU plugin's modes and the workloads bench/run times under it:
# all of them in mode sharing, those of MTRACE_ALL_WORKLOADS in mode all.
# hackbench_long is hackbench with 50 times the loops (bench/guest/bench.sh),
# timed only by the plain no-KASAN boots beside these: mostly messaging, not
# the start of its processes, and too long for mode all's log.
MTRACE_MODES = ["sharing", "all"]
MTRACE_WORKLOADS = ["hackbench", "hackbench_long", "tar"]
MTRACE_ALL_WORKLOADS = ["hackbench", "tar"]
# Issue 19's target: sharing mode / plain TCG (no plugin) at most this.
MTRACE_SHARING_MAX = 3.0
# Issue 42's: the plugin's mode kmap (an exact kmap from the emulator) at
# most the KASAN-only kernel's time, and the stretch, 3x plain TCG.
KMAP_VS_KASAN_MAX = 1.0
KMAP_VS_PLAIN_STRETCH = 3.0
# The kinds of objects memorizer/stats counts (<kind>_tracked, <kind>_live...).
KINDS = ["kmalloc", "kmem_cache", "kmalloc_large", "vmalloc", "pages", "global",
         "percpu", "stack"]


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError):
        return default


def parse_meta(text):
    meta = {}
    for line in text.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            meta[k.strip()] = v.strip()
    return meta


def parse_stats(text):
    """memorizer/stats ("key value" lines, like /proc/vmstat) -> dict:
    "figures", every key's value; "kinds", per kind its tracked and live
    objects. Keys are looked up by name, never by position."""
    figures = {}
    for line in text.splitlines():
        m = re.match(r"^([a-z0-9_]+) (\d+)$", line)
        if m:
            figures[m.group(1)] = int(m.group(2))
    kinds = {}
    for kind in KINDS:
        tracked, live = figures.get(kind + "_tracked"), figures.get(kind + "_live")
        if tracked is not None and live is not None:
            kinds[kind] = {"tracked": tracked, "live": live}
    return {"figures": figures, "kinds": kinds}


# memorizer/stats keys that count since boot (the rest are levels: live
# objects, memory in use, sizes).
SINCE_BOOT = re.compile(r"_(tracked|cleared|accesses)$|^(accesses_|untracked_|"
                        r"excluded_|objects_dropped$|frees_missed$|binary_records_|calls_|"
                        r"frame_accesses_)")


def run_stats(after, before):
    """A run's stats: its counts since boot less those before it began."""
    st = parse_stats(after)
    if before is None:
        return st
    prev = parse_stats(before)["figures"]
    fig = {k: v - prev.get(k, 0) if SINCE_BOOT.search(k) else v
           for k, v in st["figures"].items()}
    kinds = {k: {"tracked": fig[k + "_tracked"], "live": v["live"]}
             for k, v in st["kinds"].items()}
    return {"figures": fig, "kinds": kinds}


def attributed(fig):
    """The share of traced accesses that landed on an object's record."""
    rec, untr = fig.get("accesses_recorded"), fig.get("accesses_untracked")
    if rec is None or untr is None or rec + untr == 0:
        return None
    return rec / (rec + untr)


def parse_stream(text):
    """The guest's /out/stream -> (available, reason, [records])."""
    if text is None:
        return False, "no stream boot in this run", []
    text = text.strip()
    if text.startswith("unavailable"):
        return False, text[len("unavailable"):].strip(), []
    recs = []
    for line in text.splitlines():
        m = re.match(r"^(\S+) (\S+) failed (.*)$", line)
        if m:
            recs.append({"workload": m.group(1), "kind": m.group(2),
                         "error": m.group(3).strip()})
            continue
        m = re.match(r"^(\S+) (\S+) seconds=([\d.]+) bytes=(\d+) records=(\d+) overruns=(-?\d+)", line)
        if m:
            recs.append({"workload": m.group(1), "kind": m.group(2),
                         "seconds": float(m.group(3)),
                         "bytes": int(m.group(4)),
                         "records": int(m.group(5)),
                         "overruns": int(m.group(6))})
    return True, "", recs


def load(runs):
    """Every boot directory -> list of dicts (name, variant, smp, times...)."""
    boots = []
    for name in sorted(os.listdir(runs)):
        d = os.path.join(runs, name)
        b = read(os.path.join(d, "boot"))
        if not os.path.isdir(d) or b is None:
            continue
        variant, smp = b.split()
        times = []
        for line in (read(os.path.join(d, "times"), "") or "").splitlines():
            mode, wl, sec = line.split()
            times.append((mode, wl, float(sec)))
        stats = {}
        for f in os.listdir(d):
            if f.startswith("stats."):
                _, mode, wl = f.split(".", 2)
                stats[(mode, wl)] = run_stats(
                    read(os.path.join(d, f)),
                    read(os.path.join(d, "stats-before." + mode + "." + wl)))
        mtrace = (read(os.path.join(d, "mtrace"), "") or "").split()
        mbytes = (read(os.path.join(d, "mtrace-bytes"), "") or "").strip()
        wall = (read(os.path.join(d, "wall-seconds"), "") or "").strip()
        # Mode kmap: the plugin's summary line (vm/run, FILE.summary).
        ksum = read(os.path.join(d, "kmap.bin.summary"), "") or ""
        km = re.search(r"(\d+) kernel accesses counted, (\d+) on objects", ksum)
        boots.append({"name": name, "variant": variant, "smp": int(smp),
                      "times": times, "stats": stats,
                      "mtrace": mtrace[0] if mtrace else None,
                      "mtrace_bytes": int(mbytes) if mbytes.isdigit() else None,
                      "wall_seconds": float(wall) if wall else None,
                      "kmap_counted": int(km.group(1)) if km else None,
                      "kmap_on_objects": int(km.group(2)) if km else None,
                      "stream": read(os.path.join(d, "stream")),
                      "uname": (read(os.path.join(d, "uname"), "") or "").strip(),
                      "sample_kb": (read(os.path.join(d, "sample-size"), "") or "").strip()})
    return boots


def config_of(variant, mode, mtrace=None):
    """Which configuration a timed run measured."""
    if mtrace:
        return "mtrace_" + mtrace  # nokasan under the plugin: mtrace_sharing...
    if variant == "kasan-jl":
        return "kasan_jl"       # KASAN only, CONFIG_JUMP_LABEL=y
    if variant == "memorizer-jl":
        return mode + "_jl"     # off_jl, full_jl, calls_jl
    if variant != "memorizer":
        return variant          # nokasan, kasan
    return mode                 # off, alloc_only, full, mode3


def summary(values):
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "n": len(values)}


# Issue 15's targets for full tracing / KASAN-only, per workload.
FULL_MAX = {"hackbench": 2.0, "stressng": 2.0, "tar": 1.2}


def access_breakdown(seconds, rounds):
    """Where full tracing's time goes, per workload: the KASAN-only run's
    seconds, then what being compiled in (off), allocation tracking and
    access tracing each add (differences of the medians, as the ratios
    are taken), the accesses the full run traced (recorded, untracked and
    dropped: each took the access path; median over rounds) and the share
    of them on the slow path; access tracing's guest ns per traced access,
    and what it would have to be for FULL_MAX once the other parts are
    paid (None when they alone exceed it)."""
    out = {}
    for wl in WORKLOADS:
        med = {c: seconds.get(c, {}).get(wl, {}).get("median")
               for c in ("kasan", "off", "alloc_only", "full")}
        traced, slow = [], []
        for b in rounds:
            if b["variant"] != "memorizer":
                continue        # memorizer-jl's full runs in one TCG thread
            fig = b["stats"].get(("full", wl), {}).get("figures", {})
            n = sum(fig.get(k) or 0 for k in ("accesses_recorded",
                                              "accesses_untracked",
                                              "accesses_dropped"))
            if n:
                traced.append(n)
                slow.append(fig.get("accesses_slow_path", 0) / n)
        if None in med.values() or not traced:
            out[wl] = None
            continue
        n = statistics.median(traced)
        access_s = med["full"] - med["alloc_only"]
        budget = (FULL_MAX[wl] - 1) * med["kasan"] - (med["alloc_only"] - med["kasan"])
        need = budget * 1e9 / n if budget > 0 else None
        now = access_s * 1e9 / n
        out[wl] = {"kasan_s": med["kasan"],
                   "compiled_in_s": med["off"] - med["kasan"],
                   "alloc_tracking_s": med["alloc_only"] - med["off"],
                   "access_tracing_s": access_s,
                   "traced_accesses": n,
                   "slow_path_share": statistics.median(slow),
                   "ns_per_traced_access": now,
                   "target": FULL_MAX[wl],
                   "ns_per_traced_access_for_target": need,
                   "times_too_slow": now / need if need else None}
    return out


def aggregate(runs):
    meta = parse_meta(read(os.path.join(runs, "meta"), "") or "")
    boots = load(runs)
    rounds = [b for b in boots if b["name"].startswith("round")]

    # times[config][workload] = {round: seconds}
    times = {}
    for b in rounds:
        rnd = b["name"].split("-", 1)[0]
        for mode, wl, sec in b["times"]:
            times.setdefault(config_of(b["variant"], mode, b["mtrace"]), {}) \
                 .setdefault(wl, {})[rnd] = sec

    def ratio(num, den, wl):
        a = times.get(num, {}).get(wl, {})
        b = times.get(den, {}).get(wl, {})
        if not a or not b:
            return None
        per_round = [a[r] / b[r] for r in a if r in b]
        return {"ratio": statistics.median(a.values()) / statistics.median(b.values()),
                "min": min(per_round) if per_round else None,
                "max": max(per_round) if per_round else None}

    res = {"command": meta.get("command"), "date": meta.get("date"),
           "kernel_version": meta.get("kernel_version"),
           "accelerator": meta.get("accelerator"), "qemu": meta.get("qemu"),
           "tcg_threads": meta.get("tcg_threads") or None,
           "qemu_settings": meta.get("qemu_settings"), "host": meta.get("host"),
           "size": meta.get("size"), "rounds": int(meta.get("rounds", 0) or 0),
           "wall_seconds": int(meta.get("wall_seconds", 0) or 0),
           "machine_quiet": (meta.get("kernel_build_running_before") == "no" and
                             meta.get("kernel_build_running_after") == "no" and
                             meta.get("kernel_build_running_samples", "0/0").startswith("0/")),
           "kernel_build_running_samples": meta.get("kernel_build_running_samples"),
           "loadavg_before": meta.get("loadavg_before"),
           "loadavg_after": meta.get("loadavg_after"),
           "uname": next((b["uname"] for b in boots if b["variant"] == "memorizer"), ""),
           "tar_tree_kb": next((int(b["sample_kb"]) for b in boots if b["sample_kb"].isdigit()), None)}

    res["seconds"] = {c: {wl: summary(list(v.values())) for wl, v in per.items()}
                      for c, per in times.items()}
    res["ratio_vs_kasan"] = {}
    res["ratio_vs_kasan_spread"] = {}
    res["ratio_vs_nokasan"] = {}
    res["ratio_vs_nokasan_spread"] = {}
    for wl in WORKLOADS + [w for w in MTRACE_WORKLOADS if w not in WORKLOADS]:
        rk, sk = {}, {}
        for mode in MEM_MODES:
            r = ratio(mode, "kasan", wl)
            rk[mode] = r["ratio"] if r else None
            sk[mode] = [r["min"], r["max"]] if r else None
        if wl in WORKLOADS:
            res["ratio_vs_kasan"][wl] = rk
            res["ratio_vs_kasan_spread"][wl] = sk
        rn, sn = {}, {}
        for cfg, key in ([("kasan", "kasan_only")] + [(m, m) for m in MEM_MODES] +
                         [("mtrace_" + m, "mtrace_" + m) for m in MTRACE_MODES]):
            r = ratio(cfg, "nokasan", wl)
            rn[key] = r["ratio"] if r else None
            sn[key] = [r["min"], r["max"]] if r else None
        res["ratio_vs_nokasan"][wl] = rn
        res["ratio_vs_nokasan_spread"][wl] = sn
    # Compiled in but off with static keys patched: the -jl pair.
    res["off_jump_label"] = {}
    for wl in WORKLOADS:
        r = ratio("off_jl", "kasan_jl", wl)
        res["off_jump_label"][wl] = ({"ratio": r["ratio"], "spread": [r["min"], r["max"]]}
                                     if r else None)
    # Call logging (and its stack frames), on the memorizer-jl kernel:
    # against its own full tracing and against kasan-jl.
    res["calls_jump_label"] = {}
    for wl in WORKLOADS:
        entry = {}
        for key, num, den in (("full_vs_kasan", "full_jl", "kasan_jl"),
                              ("calls_vs_kasan", "calls_jl", "kasan_jl"),
                              ("calls_vs_full", "calls_jl", "full_jl")):
            r = ratio(num, den, wl)
            entry[key] = {"ratio": r["ratio"], "spread": [r["min"], r["max"]]} if r else None
        res["calls_jump_label"][wl] = entry

    # Scaling: hackbench at -smp 1 and -smp 2, full tracing and KASAN only.
    scale = {}
    for b in boots:
        if not b["name"].startswith("scale"):
            continue
        for mode, wl, sec in b["times"]:
            scale.setdefault((b["variant"], b["smp"]), []).append(sec)
    res["scaling_seconds"] = {f"{v}_smp{s}": summary(t) for (v, s), t in sorted(scale.items())}

    def speedup(v):
        one, two = scale.get((v, 1)), scale.get((v, 2))
        if not one or not two:
            return None
        return statistics.median(one) / statistics.median(two)
    res["smp2_speedup_full"] = speedup("memorizer")
    res["smp2_speedup_kasan"] = speedup("kasan")

    # The mtrace plugin (issue 19): per mode, the log of each boot (boot to
    # exit, window all) against that boot's timed workload seconds (guest
    # CLOCK_MONOTONIC, btime) and its host wall seconds (vm/run, boot to exit).
    mlog = {}
    for mode in MTRACE_MODES:
        mb = [b for b in rounds if b["mtrace"] == mode and b["mtrace_bytes"] is not None]
        per_wl = [b["mtrace_bytes"] / 1e6 / sum(t[2] for t in b["times"])
                  for b in mb if b["times"] and sum(t[2] for t in b["times"]) > 0]
        per_wall = [b["mtrace_bytes"] / 1e6 / b["wall_seconds"]
                    for b in mb if b["wall_seconds"]]
        mlog[mode] = {"boots": len(mb),
                      "log_mb": summary([b["mtrace_bytes"] / 1e6 for b in mb]),
                      "mb_per_workload_second": summary(per_wl),
                      "mb_per_boot_wall_second": summary(per_wall),
                      "boot_wall_seconds": summary([b["wall_seconds"] for b in mb
                                                    if b["wall_seconds"]])}
    res["mtrace_measured"] = any(mlog[m]["boots"] for m in MTRACE_MODES)
    res["mtrace_log"] = mlog
    # Met only against a plain TCG baseline (vm/run puts the plugin's boots
    # on TCG whatever the accelerator of the others).
    res["mtrace_sharing_target_met"] = {}
    for wl in MTRACE_WORKLOADS:
        r = res["ratio_vs_nokasan"][wl]["mtrace_sharing"]
        res["mtrace_sharing_target_met"][wl] = (
            None if r is None or res["accelerator"] != "tcg" else r <= MTRACE_SHARING_MAX)

    # The plugin's mode kmap (issue 42): against plain TCG (the no-KASAN
    # kernel without the plugin) and the KASAN-only kernel, same run.
    kb = [b for b in rounds if b["mtrace"] == "kmap"]
    res["mtrace_kmap_measured"] = bool(kb)
    res["mtrace_kmap"] = {}
    for wl in WORKLOADS:
        e = {}
        for key, den in (("vs_plain", "nokasan"), ("vs_kasan", "kasan")):
            r = ratio("mtrace_kmap", den, wl)
            e[key] = {"ratio": r["ratio"], "spread": [r["min"], r["max"]]} if r else None
        e["seconds"] = res["seconds"].get("mtrace_kmap", {}).get(wl)
        tcg = res["accelerator"] == "tcg"
        e["target_met"] = (None if not e["vs_kasan"] or not tcg else
                           e["vs_kasan"]["ratio"] <= KMAP_VS_KASAN_MAX)
        e["stretch_met"] = (None if not e["vs_plain"] or not tcg else
                            e["vs_plain"]["ratio"] <= KMAP_VS_PLAIN_STRETCH)
        res["mtrace_kmap"][wl] = e
    res["mtrace_kmap_boots"] = {
        "boots": len(kb),
        "stream_mb": summary([b["mtrace_bytes"] / 1e6 for b in kb
                              if b["mtrace_bytes"] is not None]),
        "accesses_counted": summary([b["kmap_counted"] for b in kb
                                     if b["kmap_counted"] is not None]),
        "on_objects": summary([b["kmap_on_objects"] / b["kmap_counted"] for b in kb
                               if b["kmap_counted"]]),
    }

    # Memory: record sizes, and per workload the pool in use right after
    # the full-tracing run (records of freed objects stay until cleared, so
    # this is the run's peak); the largest over the rounds.
    res["bytes_per_object"] = res["bytes_per_counter"] = res["bytes_per_page_key"] = None
    mem = {}
    for b in rounds:
        for (mode, wl), st in b["stats"].items():
            cfg = config_of(b["variant"], mode)
            fig = st["figures"]
            for k, key in (("bytes_per_object", "record_bytes"),
                           ("bytes_per_counter", "counter_bytes"),
                           ("bytes_per_page_key", "page_key_bytes")):
                if key in fig:
                    res[k] = fig[key]
            cur = mem.setdefault(wl, {}).get(cfg)
            used = fig.get("memory_used_bytes")
            if used is not None and (cur is None or used > cur["peak_memory_used_bytes"]):
                mem[wl][cfg] = {
                    "peak_memory_used_bytes": used,
                    "memory_bound_bytes": fig.get("memory_bound_bytes"),
                    "objects_tracked": sum(k["tracked"] for k in st["kinds"].values()),
                    "objects_live": sum(k["live"] for k in st["kinds"].values()),
                    "accesses_recorded": fig.get("accesses_recorded"),
                    "accesses_untracked": fig.get("accesses_untracked"),
                    "attributed": attributed(fig),
                    "untracked_by_class": {k[len("untracked_"):]: v
                                           for k, v in fig.items()
                                           if k.startswith("untracked_")},
                    "excluded_by_instrument": {k[len("excluded_"):]: v
                                               for k, v in fig.items()
                                               if k.startswith("excluded_")},
                    "objects_dropped": fig.get("objects_dropped"),
                    "accesses_dropped": fig.get("accesses_dropped"),
                    "calls_recorded": fig.get("calls_recorded"),
                    "calls_dropped": fig.get("calls_dropped"),
                    "call_edges": fig.get("call_edges_in_memory"),
                    "frame_accesses": fig.get("frame_accesses_recorded"),
                    "frame_cells": fig.get("frame_cells_in_memory"),
                    "per_kind": st["kinds"]}
    res["memory"] = mem
    res["access_breakdown"] = access_breakdown(res["seconds"], rounds)

    # Stream.
    sb = next((b for b in boots if b["name"] == "stream"), None)
    ok, reason, recs = parse_stream(sb["stream"] if sb else None)
    stream = {"available": ok}
    if not ok:
        stream["reason"] = reason
    for wl in WORKLOADS:
        entry = {}
        for kind in ("binary", "text"):
            r = next((x for x in recs if x["workload"] == wl and x["kind"] == kind), None)
            if r and "error" in r:
                entry[kind + "_error"] = r["error"]
            elif r and r["seconds"] > 0:
                entry[kind] = {"records_per_s": r["records"] / r["seconds"],
                               "mb_per_s": r["bytes"] / 1e6 / r["seconds"],
                               "overruns": r["overruns"], "records": r["records"],
                               "bytes": r["bytes"], "seconds": r["seconds"]}
        main = entry.get("binary") or entry.get("text")
        stream[wl] = {"records_per_s": main["records_per_s"] if main else None,
                      "mb_per_s": main["mb_per_s"] if main else None,
                      "overruns": main["overruns"] if main else None,
                      "channel": ("binary" if "binary" in entry else "kmap_stream") if main else None,
                      "binary": entry.get("binary"), "kmap_stream": entry.get("text"),
                      "binary_error": entry.get("binary_error"),
                      "kmap_stream_error": entry.get("text_error")}
    res["stream"] = stream
    return res


def fmt(x, spec="{:.2f}"):
    return "n/a" if x is None else spec.format(x)


def fmt_ratio(r, spread):
    if r is None:
        return "n/a"
    s = f"{r:.2f}×"
    if spread and spread[0] is not None and res_rounds > 1:
        s += f" ({spread[0]:.2f}–{spread[1]:.2f})"
    return s


res_rounds = 0


def markdown(res):
    global res_rounds
    res_rounds = res["rounds"]
    out = []
    w = out.append
    w("# Memorizer benchmark results")
    w("")
    w(f"- Command: `{res['command']}` ({res['wall_seconds']} s wall)")
    w(f"- Date: {res['date']}")
    w(f"- Kernel: Linux {res['kernel_version']} (`{res['uname']}`)")
    w(f"- QEMU: {res['qemu']}, accelerator **{res['accelerator']}**, {res['qemu_settings']}")
    if res.get("tcg_threads"):
        w(f"- TCG threads: {res['tcg_threads']}")
    w(f"- Host: {res['host']}; machine quiet (no `make -j` kernel build before, during or after): "
      f"**{'yes' if res['machine_quiet'] else 'no'}** (build seen in {res['kernel_build_running_samples']} "
      f"10-second samples); load average before {res['loadavg_before']}, after {res['loadavg_after']}")
    w(f"- Rounds: {res['rounds']} (each boots nokasan, kasan, memorizer, kasan-jl and memorizer-jl once, order rotating); "
      f"workload size: {res['size']}")
    w("")
    w("## Overhead (time ratios, medians; per-round min–max in parentheses)")
    w("")
    w("| workload | KASAN / no KASAN | off / KASAN | alloc only / KASAN | full / KASAN | mode 3 / KASAN | full / no KASAN |")
    w("|---|---|---|---|---|---|---|")
    for wl in WORKLOADS:
        rk, sk = res["ratio_vs_kasan"][wl], res["ratio_vs_kasan_spread"][wl]
        rn, sn = res["ratio_vs_nokasan"][wl], res["ratio_vs_nokasan_spread"][wl]
        w(f"| {wl} | {fmt_ratio(rn['kasan_only'], sn['kasan_only'])} | "
          + " | ".join(fmt_ratio(rk[m], sk[m]) for m in MEM_MODES)
          + f" | {fmt_ratio(rn['full'], sn['full'])} |")
    w("")
    w("Compiled in but off with `CONFIG_JUMP_LABEL=y` (Memorizer's hooks patched nops; "
      "the kasan-jl and memorizer-jl kernels, both in one TCG thread):")
    w("")
    w("| workload | KASAN s | off s | off / KASAN |")
    w("|---|---|---|---|")
    for wl in WORKLOADS:
        k = res["seconds"].get("kasan_jl", {}).get(wl)
        o = res["seconds"].get("off_jl", {}).get(wl)
        r = res["off_jump_label"][wl]
        sec = ["n/a" if not x else f"{x['median']:.3f}" for x in (k, o)]
        w(f"| {wl} | {sec[0]} | {sec[1]} | "
          f"{fmt_ratio(r['ratio'], r['spread']) if r else 'n/a'} |")
    w("")
    w("Seconds (median, min–max):")
    w("")
    w("| workload | no KASAN | KASAN | off | alloc only | full | mode 3 |")
    w("|---|---|---|---|---|---|---|")
    for wl in WORKLOADS:
        cells = []
        for c in ["nokasan", "kasan"] + MEM_MODES:
            s = res["seconds"].get(c, {}).get(wl)
            cells.append("n/a" if not s else f"{s['median']:.3f} ({s['min']:.3f}–{s['max']:.3f})")
        w(f"| {wl} | " + " | ".join(cells) + " |")
    w("")
    w("## Scaling (hackbench, -smp 1 vs -smp 2)")
    w("")
    w("| kernel | -smp 1 s | -smp 2 s | speedup |")
    w("|---|---|---|---|")
    for v, key in (("memorizer", "smp2_speedup_full"), ("kasan", "smp2_speedup_kasan")):
        a = res["scaling_seconds"].get(f"{v}_smp1")
        b = res["scaling_seconds"].get(f"{v}_smp2")
        label = "Memorizer, full tracing" if v == "memorizer" else "KASAN only"
        w(f"| {label} | {fmt(a and a['median'], '{:.3f}')} | {fmt(b and b['median'], '{:.3f}')} | "
          f"{fmt(res[key], '{:.2f}×')} |")
    w("")
    w("## Memory")
    w("")
    w(f"Bytes per record: object {fmt(res['bytes_per_object'], '{}')}, "
      f"(ip, pid) access counter {fmt(res['bytes_per_counter'], '{}')}, "
      f"page key {fmt(res['bytes_per_page_key'], '{}')}.")
    w("")
    w("Pool memory in use right after each run (records of freed objects are kept "
      "until cleared, so this is the run's peak; largest over the rounds), with "
      "that run's own counts (memorizer/stats after it less before it):")
    w("")
    w("| workload | mode | peak used (MB) | bound (MB) | objects tracked | live | accesses recorded | objects dropped | accesses dropped |")
    w("|---|---|---|---|---|---|---|---|---|")
    for wl in WORKLOADS:
        for mode in MEM_MODES:
            m = res["memory"].get(wl, {}).get(mode)
            if not m:
                continue
            w(f"| {wl} | {mode} | {m['peak_memory_used_bytes'] / 1e6:.1f} | "
              f"{fmt(m['memory_bound_bytes'] and m['memory_bound_bytes'] / 1e6, '{:.0f}')} | "
              f"{m['objects_tracked']} | {m['objects_live']} | {fmt(m['accesses_recorded'], '{}')} | "
              f"{fmt(m['objects_dropped'], '{}')} | {fmt(m['accesses_dropped'], '{}')} |")
    w("")
    w("Call logging (mode calls: full tracing and `log_calls_enabled`, which also "
      "counts stack accesses per frame) on the memorizer-jl kernel, in one TCG thread "
      "as ftrace's text patching needs, against that kernel's full tracing and the "
      "kasan-jl kernel; the calls and frame accesses counted in the run (largest "
      "round), the edges and frame cells that held them:")
    w("")
    w("| workload | KASAN s | full s | full + calls s | full / KASAN | full + calls / KASAN "
      "| full + calls / full | calls | call edges | calls dropped | frame accesses | frame cells |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for wl in WORKLOADS:
        sec = [res["seconds"].get(c, {}).get(wl) for c in ("kasan_jl", "full_jl", "calls_jl")]
        if not sec[2]:
            continue
        cj = res["calls_jump_label"][wl]
        m = res["memory"].get(wl, {}).get("calls_jl") or {}
        ratios = [fmt_ratio(cj[k]["ratio"], cj[k]["spread"]) if cj[k] else "n/a"
                  for k in ("full_vs_kasan", "calls_vs_kasan", "calls_vs_full")]
        w(f"| {wl} | " + " | ".join("n/a" if not x else f"{x['median']:.3f}" for x in sec)
          + " | " + " | ".join(ratios) + " | "
          + " | ".join(fmt(m.get(k), '{}') for k in ("calls_recorded", "call_edges",
                                                      "calls_dropped", "frame_accesses",
                                                      "frame_cells")) + " |")
    w("")
    w("## Attribution")
    w("")
    w("Traced accesses to memory an object covers, of those and the ones to memory "
      "no object covers (memorizer/stats `untracked_*`, the run of the Memory table), "
      "and where the latter went. Accesses dropped (an object's record or counter "
      "found the pool full) are the memory bound's, not attribution's: counted apart.")
    w("")
    w("| workload | mode | attributed | accesses untracked | untracked by class (largest first) | accesses dropped |")
    w("|---|---|---|---|---|---|")
    for wl in WORKLOADS:
        for mode in MEM_MODES:
            m = res["memory"].get(wl, {}).get(mode)
            if not m or m.get("attributed") is None:
                continue
            classes = sorted(((v, k) for k, v in m["untracked_by_class"].items() if v),
                             reverse=True)
            untr = m["accesses_untracked"]
            w(f"| {wl} | {mode} | {100 * m['attributed']:.2f}% | {untr} | " +
              (", ".join(f"{k} {100 * v / untr:.1f}%" for v, k in classes) or "–") +
              f" | {m['accesses_dropped']} |")
    w("")
    w("## Left out")
    w("")
    w("Accesses made in a traced context for an instrument (KASAN saving a stack, "
      "lockdep) or by Memorizer itself, left out of the kmap (memorizer/stats "
      "`excluded_*`, the run of the Memory table), as shares of all the traced "
      "accesses: those and the ones recorded or untracked.")
    w("")
    w("| workload | mode | traced accesses | left out | by instrument (largest first) |")
    w("|---|---|---|---|---|")
    for wl in WORKLOADS:
        for mode in MEM_MODES:
            m = res["memory"].get(wl, {}).get(mode)
            if not m or not m.get("excluded_by_instrument"):
                continue
            ex = m["excluded_by_instrument"]
            left = sum(ex.values())
            traced = (m["accesses_recorded"] or 0) + (m["accesses_untracked"] or 0) + left
            if not traced:
                continue
            parts = sorted(((v, k) for k, v in ex.items()), reverse=True)
            w(f"| {wl} | {mode} | {traced} | {100 * left / traced:.1f}% | " +
              ", ".join(f"{k} {100 * v / traced:.1f}%" for v, k in parts) + " |")
    w("")
    w("## Stream (full tracing, collector `memorizer stream` in the guest)")
    w("")
    st = res["stream"]
    if not st["available"]:
        w(f"Not available in this kernel: {st['reason']}. No figures.")
    else:
        w("| workload | channel | records/s | MB/s | overruns | records | seconds |")
        w("|---|---|---|---|---|---|---|")
        for wl in WORKLOADS:
            for kind in ("binary", "kmap_stream"):
                e = st[wl][kind]
                if st[wl].get(kind + "_error"):
                    w(f"| {wl} | {kind} | collector failed: {st[wl][kind + '_error']} | | | | |")
                elif e:
                    w(f"| {wl} | {kind} | {e['records_per_s']:.0f} | {e['mb_per_s']:.2f} | "
                      f"{e['overruns']} | {e['records']} | {e['seconds']:.3f} |")
    w("")
    w("## mtrace QEMU plugin (issue 19)")
    w("")
    if not res["mtrace_measured"]:
        w("Not measured: this run has no boots under the mtrace plugin. No figures.")
    else:
        w("The no-KASAN kernel under the mtrace TCG plugin (`vm/run --mtrace FILE "
          "--mtrace-mode sharing|all --mtrace-window all`, no guest module), timing "
          f"{', '.join(MTRACE_WORKLOADS)} in mode sharing and "
          f"{' and '.join(MTRACE_ALL_WORKLOADS)} in mode all, against the same run's "
          "no-KASAN boots without the plugin. hackbench_long is hackbench with 50 times "
          "the loops (`bench/guest/bench.sh`): its time is mostly messaging, where "
          "hackbench's is mostly the start of its 40 processes; mode all would log "
          "tens of GB of it. Time ratios, medians; per-round min–max in parentheses.")
        if res["accelerator"] != "tcg":
            w("")
            w(f"The boots without the plugin ran on **{res['accelerator']}**, the plugin's "
              "on TCG: these ratios are not against plain TCG, the target's baseline.")
        w("")
        w(f"| workload | no plugin s | sharing s | sharing / no plugin | all s | all / no plugin "
          f"| sharing ≤ {MTRACE_SHARING_MAX:.0f}× |")
        w("|---|---|---|---|---|---|---|")
        for wl in MTRACE_WORKLOADS:
            rn, sn = res["ratio_vs_nokasan"][wl], res["ratio_vs_nokasan_spread"][wl]
            cells = []
            for c in ["nokasan"] + ["mtrace_" + m for m in MTRACE_MODES]:
                s = res["seconds"].get(c, {}).get(wl)
                cells.append("n/a" if not s else f"{s['median']:.3f}")
                if c != "nokasan":
                    cells.append(fmt_ratio(rn[c], sn[c]))
            met = res["mtrace_sharing_target_met"][wl]
            w(f"| {wl} | " + " | ".join(cells) +
              f" | {'n/a' if met is None else ('yes' if met else 'no')} |")
        w("")
        w("Log size. A boot's log covers all of it, boot to exit (window all), not "
          "only the workloads. *MB per workload second*: the log's size over the sum "
          "of that boot's timed workload seconds (those of the table above, guest "
          "CLOCK_MONOTONIC as btime measures them), an upper bound of the workloads' own "
          "rate as the boot and the setup log too. *MB per boot second*: the log's size "
          "over the host's wall seconds of the whole `vm/run`. Medians over the boots "
          "(min–max); MB = 10^6 bytes.")
        w("")
        w("| mode | boots | log MB | MB per workload second | MB per boot second | boot wall s |")
        w("|---|---|---|---|---|---|")

        def cell(sm, spec):
            if not sm:
                return "n/a"
            return (spec.format(sm["median"]) if sm["n"] == 1 else
                    f"{spec.format(sm['median'])} ({spec.format(sm['min'])}–{spec.format(sm['max'])})")
        for mode in MTRACE_MODES:
            m = res["mtrace_log"][mode]
            w(f"| {mode} | {m['boots']} | {cell(m['log_mb'], '{:.1f}')} | "
              f"{cell(m['mb_per_workload_second'], '{:.1f}')} | "
              f"{cell(m['mb_per_boot_wall_second'], '{:.1f}')} | "
              f"{cell(m['boot_wall_seconds'], '{:.0f}')} |")
    w("")
    w("## The plugin's mode kmap (issue 42)")
    w("")
    if not res["mtrace_kmap_measured"]:
        w("Not measured: this run has no boots under the plugin's mode kmap. No figures.")
    else:
        kbs = res["mtrace_kmap_boots"]
        w("The no-KASAN kernel under the mtrace plugin's mode kmap (`vm/run --mtrace-kmap "
          "FILE`: `mtrace_label.ko`'s labels, every kernel access counted on its object "
          "per instruction and pid, Memorizer's binary stream written; QEMU runs its "
          "vCPUs in one thread), against the same run's no-KASAN boots without the "
          "plugin (plain TCG) and its KASAN-only boots, both with one thread per vCPU. "
          f"Targets: kmap / KASAN ≤ {KMAP_VS_KASAN_MAX:.0f}, stretch kmap / plain ≤ "
          f"{KMAP_VS_PLAIN_STRETCH:.0f}. Medians; per-round min–max in parentheses.")
        w("")
        w("| workload | plain s | KASAN s | kmap s | kmap / plain | kmap / KASAN "
          "| kmap ≤ KASAN | kmap ≤ 3× plain |")
        w("|---|---|---|---|---|---|---|---|")

        def yn(v):
            return "n/a" if v is None else ("yes" if v else "no")
        for wl in WORKLOADS:
            e = res["mtrace_kmap"][wl]
            secs = [res["seconds"].get(c, {}).get(wl) for c in ("nokasan", "kasan")] + [e["seconds"]]
            cells = ["n/a" if not x else f"{x['median']:.3f}" for x in secs]
            rat = ["n/a" if not e[k] else fmt_ratio(e[k]["ratio"], e[k]["spread"])
                   for k in ("vs_plain", "vs_kasan")]
            w(f"| {wl} | " + " | ".join(cells + rat) +
              f" | {yn(e['target_met'])} | {yn(e['stretch_met'])} |")
        w("")
        on = kbs["on_objects"]
        cnt = kbs["accesses_counted"]
        mb = kbs["stream_mb"]
        w(f"Per boot (boot, the three workloads, exit; {kbs['boots']} boots, medians): "
          f"{'n/a' if not cnt else format(int(cnt['median']), ',')} kernel accesses counted, "
          f"{'n/a' if not on else format(100 * on['median'], '.2f') + '%'} of them on an "
          f"object; a stream of {'n/a' if not mb else format(mb['median'], '.1f')} MB.")
    w("")
    w("## Where full tracing's time goes (issue 15)")
    w("")
    w("Differences of the medians above, in guest seconds: what being compiled in "
      "(off), allocation tracking and access tracing each add to the KASAN-only run; "
      "the accesses the full run traced (memorizer/stats: recorded, untracked and "
      "dropped; median over rounds) and the share of them on the slow path "
      "(`accesses_slow_path`); access tracing's ns per traced access, and what it "
      "would have to be for the target once the other parts are paid.")
    w("")
    w("| workload | KASAN s | + compiled in | + allocation tracking | + access tracing "
      "| traced accesses | slow path | ns per access | for the target | times too slow |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for wl in WORKLOADS:
        a = res["access_breakdown"][wl]
        if not a:
            w(f"| {wl} | n/a | | | | | | | | |")
            continue
        need = a["ns_per_traced_access_for_target"]
        w(f"| {wl} | {a['kasan_s']:.3f} | {a['compiled_in_s']:+.3f} | "
          f"{a['alloc_tracking_s']:+.3f} | {a['access_tracing_s']:+.3f} | "
          f"{a['traced_accesses']:.0f} | {100 * a['slow_path_share']:.1f}% | "
          f"{a['ns_per_traced_access']:.0f} | "
          + (f"{need:.0f} ({a['target']:.1f}×) | {a['times_too_slow']:.1f}× |" if need else
             f"none: the other parts exceed {a['target']:.1f}× | – |"))
    w("")
    w("## Targets (issue 15)")
    w("")
    rk = res["ratio_vs_kasan"]
    checks = []
    for wl, full_max in FULL_MAX.items():
        checks.append((f"full tracing / KASAN on {wl} ≤ {full_max:.1f}×",
                       rk[wl]["full"], lambda x, m=full_max: x <= m, "{:.2f}×"))
    for wl in WORKLOADS:
        checks.append((f"compiled in but off / KASAN on {wl} ≤ 1.02×",
                       rk[wl]["off"], lambda x: x <= 1.02, "{:.3f}×"))
    for wl in WORKLOADS:
        r = res["off_jump_label"][wl]
        checks.append((f"the same with CONFIG_JUMP_LABEL=y on {wl} ≤ 1.02×",
                       r["ratio"] if r else None, lambda x: x <= 1.02, "{:.3f}×"))
    checks += [
        ("-smp 2 speedup under full tracing ≥ 1.9×", res["smp2_speedup_full"], lambda x: x >= 1.9, "{:.2f}×"),
        ("bytes per object ≤ 64", res["bytes_per_object"], lambda x: x <= 64, "{}"),
        ("bytes per counter ≤ 32", res["bytes_per_counter"], lambda x: x <= 32, "{}"),
    ]
    for wl in WORKLOADS:
        checks.append((f"binary overruns on {wl} = 0", st[wl]["overruns"],
                       lambda x: x == 0, "{}"))
    w("| target | measured | met |")
    w("|---|---|---|")
    for name, val, ok, spec in checks:
        w(f"| {name} | {fmt(val, spec)} | {'n/a' if val is None else ('yes' if ok(val) else 'no')} |")
    w("")
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: aggregate.py RUNS_DIR RESULTS_DIR")
    res = aggregate(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    with open(os.path.join(sys.argv[2], "latest.json"), "w") as f:
        json.dump(res, f, indent=2, sort_keys=True)
        f.write("\n")
    with open(os.path.join(sys.argv[2], "latest.md"), "w") as f:
        f.write(markdown(res))


if __name__ == "__main__":
    main()
