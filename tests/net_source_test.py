#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tools/e2e/net-source.py as QEMU's stream netdev meets it: each request
answered with exactly its frames, to its sender, every other frame
ignored, a frame of no length ends the connection, and a guest booted
again is served again.  Prints a KTAP-like line per case; exit 1 when
any fails."""
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAC = bytes.fromhex('525400e2e001')
failed = 0


def check(ok, what):
    global failed
    print('%s - %s' % ('ok' if ok else 'not ok', what))
    failed += not ok


def frame(ethertype, payload):
    body = b'\xff' * 6 + MAC + struct.pack('>H', ethertype) + payload
    return body + bytes(max(60 - len(body), 0))


def put(conn, data):
    conn.sendall(struct.pack('>I', len(data)) + data)


def frames_within(conn, seconds):
    """The frames that arrive within seconds."""
    conn.settimeout(seconds)
    data = b''
    try:
        while True:
            got = conn.recv(65536)
            if not got:
                break
            data += got
    except socket.timeout:
        pass
    out = []
    while len(data) >= 4:
        length = struct.unpack('>I', data[:4])[0]
        out.append(data[4:4 + length])
        data = data[4 + length:]
    return out, data


def connect(path):
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(path)
    return conn


def main():
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, 'net.sock')
    log = open(os.path.join(folder, 'log'), 'w+')
    source = subprocess.Popen([sys.executable,
                               os.path.join(TOP, 'tools/e2e/net-source.py'),
                               path, '30'], stderr=log)
    for _ in range(100):
        if os.path.exists(path):
            break
        time.sleep(0.05)
    conn = connect(path)
    ignored = [
        frame(0x0800, b'bench-e2e send 3 64\n'),
        frame(0x88b5, b'bench-e2e send 3 64\nx'),
        frame(0x88b5, b'bench-e2e send 0 64\n'),
        frame(0x88b5, b'bench-e2e send 03 64\n'),
        frame(0x88b5, b'bench-e2e send 3 59\n'),
        frame(0x88b5, b'bench-e2e send 3 1515\n'),
        frame(0x88b5, b'bench-e2e send 100000001 64\n'),
        frame(0x88b5, b'bench-e2e send -3 64\n'),
        frame(0x88b5, b'bench-e2e send 3 64'),
        b'\x01',
    ]
    for bad in ignored:
        put(conn, bad)
    put(conn, frame(0x88b5, b'bench-e2e send 3 64\n'))
    got, rest = frames_within(conn, 1.0)
    want = MAC + bytes.fromhex('020000000002') + b'\x88\xb5'
    check(len(got) == 3 and not rest,
          'a request for 3 frames gets 3 (got %d), nothing for %d others'
          % (len(got), len(ignored)))
    check(all(len(f) == 64 and f.startswith(want) and not f[14:].strip(b'\0')
              for f in got),
          'each of 64 bytes, to the requester, ethertype 0x88b5, zeros')
    conn.sendall(struct.pack('>I', 0))
    got, rest = frames_within(conn, 2.0)
    check(not got and not rest, 'a frame of no length ends the connection')
    conn.close()
    conn = connect(path)
    put(conn, frame(0x88b5, b'bench-e2e send 2 1514\n'))
    got, rest = frames_within(conn, 1.0)
    check(len(got) == 2 and all(len(f) == 1514 for f in got),
          'a second connection is served: 2 frames of 1514 bytes')
    conn.close()
    time.sleep(0.5)
    source.terminate()
    source.wait()
    log.seek(0)
    text = log.read()
    check('3 frames sent, %d frames from the guest not requests'
          % len(ignored) in text and '2 frames sent, 0 frames' in text,
          'its log counts what it sent and what it ignored')
    if failed:
        sys.stdout.write(text)
    os.unlink(log.name)
    if os.path.exists(path):
        os.unlink(path)
    os.rmdir(folder)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
