#!/usr/bin/env python3
"""Cuts a real Perfetto trace down to a small one that is still a valid
trace, with the official Perfetto protos (issue 37's corpus):

    cut_trace.py IN.pftrace[.gz] OUT.pftrace[.gz] K [TID=N ...]

Every packet sequence (trusted_packet_sequence_id) keeps its first K packets
that carry a track event (N for the sequence that describes thread TID), and every packet before its K-th event (its
descriptors, interned data, clock snapshots); the sequences without track
events are kept whole. Each sequence's packets are thus a prefix of what it
wrote (as if each writer had stopped there), in the file's order, so its
incremental state (interned names, delta timestamps, defaults) stays whole.
The output is gzip-compressed when its name ends in .gz (deterministically:
no name, no time in the header).
"""
import gzip
import io
import sys

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb


def main():
    source, out, keep = sys.argv[1], sys.argv[2], int(sys.argv[3])
    per_tid = {int(a.split("=")[0]): int(a.split("=")[1]) for a in sys.argv[4:]}
    data = open(source, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    trace = pb.Trace()
    trace.ParseFromString(data)
    budget = {}
    for packet in trace.packet:
        thread = packet.track_descriptor.thread
        if packet.HasField("track_descriptor") and packet.track_descriptor.HasField("thread") and thread.tid in per_tid:
            budget[packet.trusted_packet_sequence_id] = per_tid[thread.tid]
    seen = {}
    cut = pb.Trace()
    for packet in trace.packet:
        seq = packet.trusted_packet_sequence_id
        if seen.get(seq, 0) >= budget.get(seq, keep):
            continue
        if packet.HasField("track_event"):
            seen[seq] = seen.get(seq, 0) + 1
        cut.packet.add().CopyFrom(packet)
    raw = cut.SerializeToString(deterministic=True)
    if out.endswith(".gz"):
        buffer = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as f:
            f.write(raw)
        raw = buffer.getvalue()
    with open(out, "wb") as f:
        f.write(raw)
    print(f"{out}: {len(cut.packet)} of {len(trace.packet)} packets, {len(raw)} bytes")


if __name__ == "__main__":
    main()
