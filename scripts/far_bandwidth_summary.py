#!/usr/bin/env python3
"""Medians of tb/gpu/far_bandwidth_probe.cu's output: bandwidth of the first and second read per case.

usage: far_bandwidth_summary.py FILE.jsonl
"""
import json, os, sys, statistics, collections
rows=[json.loads(l) for l in open(sys.argv[1])]
g=collections.defaultdict(list)
for r in rows:
    if 'mib' in r: g[(r['mib'],r['readers'],r['placer'],r['reader'])].append((r['first_ns'],r['second_ns']))
    elif 'level_of_sm' in r: print('levels', collections.Counter(r['level_of_sm']))
    else: print(r)
for k in sorted(g):
    v=g[k]; f=statistics.median(x[0] for x in v); s=statistics.median(x[1] for x in v)
    b=k[0]*2**20
    print(k, 'first %6.0f ns %5.0f GB/s  second %6.0f ns %5.0f GB/s'%(f,b/f,s,b/s))
