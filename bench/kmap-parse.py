#!/usr/bin/env python3
# bench/kmap-parse.py FILE: the baseline bench/kmap-parse measures the
# memorizer command against: what a user would write in a few lines of
# Python for `memorizer report`'s default view (per allocation call site:
# objects, bytes, reads, writes), on a text kmap (the csv module) or a
# binary stream (struct). Prints the call sites, most bytes first.
import collections
import csv
import struct
import sys

path = sys.argv[1]
sites = collections.defaultdict(lambda: [0, 0, 0, 0])
with open(path, 'rb') as f:
    head = f.read(8)
if head == b'MEMZSTRM':
    # struct memorizer_stream_header, then records: a 16-byte header
    # (type, size, cpu, ns); ALLOC is type 1, ACCESS type 3.
    data = open(path, 'rb').read()
    hsize = struct.unpack_from('<H', data, 10)[0]
    pos, objs = hsize, {}
    while pos < len(data):
        rtype, size = struct.unpack_from('<HH', data, pos)
        if rtype == 1:
            oid, _, site, _, req = struct.unpack_from('<QQQQI', data, pos + 16)
            objs[oid] = s = sites[site]
            s[0] += 1
            s[1] += req
        elif rtype == 3:
            oid, _, _, _, writes, reads = struct.unpack_from('<QQiIQQ', data, pos + 16)
            s = objs.get(oid)
            if s:
                s[2] += reads
                s[3] += writes
        pos += size
else:
    with open(path, newline='') as f:
        s = None
        for row in csv.reader(f):
            if row[0].startswith('  '):
                s[2] += int(row[3])
                s[3] += int(row[2])
            else:
                s = sites[int(row[0], 16)]
                s[0] += 1
                s[1] += int(row[3])
for site, (objects, size, reads, writes) in sorted(
        sites.items(), key=lambda kv: -kv[1][1]):
    print('%x %d %d %d %d' % (site, objects, size, reads, writes))
