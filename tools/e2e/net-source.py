#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The host's packet source for a guest's virtio-net device (guest.sh -N,
doc/e2e.rst, scenario virtio_net_rx_drop).

QEMU's stream netdev connects to the Unix socket SOCKET and carries the
guest's Ethernet frames, each after its length in four bytes, big-endian.
A frame the guest sends with ethertype 0x88b5 whose payload is the line
"bench-e2e send COUNT SIZE" and zero bytes after it is a request: the
answer is COUNT frames of SIZE bytes to the requester's MAC address.
Any other frame is not a request and is ignored.  Bounded: at most
MAX_PACKETS a request, no frame after SECONDS, only this machine's
socket.  A guest booted again connects again; the source serves one
connection at a time until its time is up.
"""
import argparse
import os
import re
import socket
import struct
import sys
import time

ETHERTYPE = 0x88B5
MAX_PACKETS = 100000000
MIN_SIZE, MAX_SIZE = 60, 1514
# one write: frames enough that Python is never the bottleneck
FRAMES_A_WRITE = 1024
REQUEST = re.compile(rb'bench-e2e send ([1-9][0-9]{0,8}) ([1-9][0-9]{1,3})\n')
SOURCE_MAC = bytes.fromhex('020000000002')


def say(text):
    sys.stderr.write('net-source: %s\n' % text)


def parse_request(frame):
    """(mac, count, size) of a request, or None."""
    if len(frame) < 14 or struct.unpack('>H', frame[12:14])[0] != ETHERTYPE:
        return None
    payload = frame[14:]
    match = REQUEST.match(payload)
    if not match or payload[match.end():].strip(b'\0'):
        return None
    count, size = int(match.group(1)), int(match.group(2))
    if count > MAX_PACKETS or not MIN_SIZE <= size <= MAX_SIZE:
        return None
    return frame[6:12], count, size


def read_exact(conn, size):
    """size bytes, or None at the end of the connection."""
    data = b''
    while len(data) < size:
        got = conn.recv(size - len(data))
        if not got:
            return None
        data += got
    return data


def send_frames(conn, mac, count, size):
    frame = mac + SOURCE_MAC + struct.pack('>H', ETHERTYPE)
    frame += bytes(size - len(frame))
    block = (struct.pack('>I', size) + frame) * min(count, FRAMES_A_WRITE)
    whole, rest = divmod(count, FRAMES_A_WRITE)
    for _ in range(whole):
        conn.sendall(block)
    conn.sendall(block[:rest * (4 + size)])


def serve(conn, deadline):
    """Answers one connection's requests; says what it sent, however the
    connection ends."""
    sent = ignored = 0
    try:
        while True:
            conn.settimeout(max(deadline - time.monotonic(), 0.001))
            head = read_exact(conn, 4)
            if head is None:
                break
            length = struct.unpack('>I', head)[0]
            if not 0 < length <= 65536:
                say('a frame of %d bytes: not QEMU\'s stream framing; '
                    'connection dropped' % length)
                break
            frame = read_exact(conn, length)
            if frame is None:
                break
            request = parse_request(frame)
            if request is None:
                ignored += 1
                continue
            send_frames(conn, *request)
            sent += request[1]
    finally:
        say('%d frames sent, %d frames from the guest not requests'
            % (sent, ignored))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('socket', help='Unix socket QEMU connects to')
    parser.add_argument('seconds', type=int,
                        help='time after which it sends nothing')
    args = parser.parse_args()
    if args.seconds < 1:
        parser.error('seconds: accepted: a whole number, 1 or more')
    deadline = time.monotonic() + args.seconds
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(args.socket)
    listener.listen(1)
    while time.monotonic() < deadline:
        listener.settimeout(max(deadline - time.monotonic(), 0.001))
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            break
        try:
            serve(conn, deadline)
        except (socket.timeout, OSError) as err:
            say('connection ended: %s' % err)
        conn.close()
    listener.close()
    os.unlink(args.socket)


if __name__ == '__main__':
    main()
