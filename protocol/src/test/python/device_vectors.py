#!/usr/bin/env python3
"""Independent encoder for the test vectors of docs/device-protocol.md section 9 (versions 1 and 2).

Written from the spec with Python's struct module (CRC-16/CCITT-FALSE and COBS by hand), sharing no code with the
Java codec, so that a vector printed in the spec is the agreement of two implementations; a device written from
the spec alone starts here. Run: python3 protocol/src/test/python/device_vectors.py
It prints the frame and wire bytes of every vector; with --check it compares them with the spec and exits 1 on a
mismatch.
"""
import re
import struct
import sys
from pathlib import Path


def crc16_ccitt_false(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs(data):
    out, block = bytearray(), bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block = bytearray()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def frame(version, type_code, sequence, payload):
    head = struct.pack('<BBH', version, type_code, sequence) + payload
    return head + struct.pack('<H', crc16_ccitt_false(head))


STATE_V1 = struct.pack('<I3f3f4fHH3f', 1_000_000, 0.01, -0.02, 0.03, 0.5, 0.0, -0.25, 1.0, 0.0, 0.0, 0.0,
                       0x0001, 0x0003, 1.5, -2.0, 0.25)
STATUS_V1 = struct.pack('<HHI', 0x000E, 5, 7)
FORCE = struct.pack('<3f3fBB', 1.5, -2.0, 0.25, 0.0, 0.0, 0.0, 1, 0)
NAME = b'Falcon-X'
INFO = (struct.pack('<BBBBBBH', 1, 6, 3, 3, 2, 5, 17) + struct.pack('<3f3f', -0.125, -0.0625, -0.1, 0.125, 0.0625, 0.1)
        + struct.pack('<4f', 8.5, 3.0, 2500.0, 2.0) + struct.pack('<HBB', 0x000C, len(NAME), 0)
        + NAME.ljust(32, b'\0'))


def vectors():
    """Name (as the spec's heading says it) -> frame bytes before COBS."""
    return {
        'HELLO, sequence 0': frame(1, 0x01, 0, struct.pack('<BBH', 1, 1, 1000)),
        'INFO, sequence 0': frame(1, 0x81, 0, INFO),
        'STATE, sequence 0x1234': frame(1, 0x82, 0x1234, STATE_V1),
        'FORCE, sequence 0x00FF': frame(1, 0x02, 0x00FF, FORCE),
        'HOST_HEARTBEAT, sequence 7': frame(1, 0x03, 7, struct.pack('<I', 123_456_789)),
        'DEVICE_HEARTBEAT, sequence 0xFFFF': frame(1, 0x83, 0xFFFF, struct.pack('<I', 0xFFFFFFFF)),
        'STATUS, sequence 42': frame(1, 0x85, 42, STATUS_V1),
        'HOMING_REQUEST, sequence 8': frame(1, 0x04, 8, struct.pack('<BBH', 1, 0, 5000)),
        'HOMING_PROGRESS, sequence 9': frame(1, 0x84, 9, struct.pack('<BBH', 1, 40, 0)),
        'PING, sequence 10': frame(1, 0x05, 10, struct.pack('<I', 0xDEADBEEF)),
        'PONG, sequence 11': frame(1, 0x86, 11, struct.pack('<II', 0xDEADBEEF, 2_000_000)),
        # Version 2 (section 4.11): STATE gains ackSequence and watchdogTrips, STATUS gains watchdogTrips.
        'STATE, version 2, sequence 0x1234': frame(2, 0x82, 0x1234, STATE_V1 + struct.pack('<HH', 0x00FE, 2)),
        'STATUS, version 2, sequence 42': frame(2, 0x85, 42, STATUS_V1 + struct.pack('<H', 3)),
        'FORCE, version 2, sequence 0x00FF': frame(2, 0x02, 0x00FF, FORCE),
    }


def spec_vectors(path):
    text = path.read_text(encoding='utf-8')
    text = text[text.index('## 9. Test vectors'):text.index('## 10.')]
    found = {}
    for m in re.finditer(r'^### (.+?)\n[^#]*?```\nframe: ([0-9a-f ]+)\nwire:  ([0-9a-f ]+)\n```', text, re.M):
        found[m.group(1)] = (m.group(2).strip(), m.group(3).strip())
    return found


def main():
    ours = {name: (f.hex(' '), (cobs(f) + b'\0').hex(' ')) for name, f in vectors().items()}
    if '--check' in sys.argv:
        spec = spec_vectors(Path(__file__).resolve().parents[4] / 'docs' / 'device-protocol.md')
        assert crc16_ccitt_false(b'123456789') == 0x29B1, 'CRC check value (spec 2.2)'
        bad = sorted(k for k in set(ours) | set(spec) if ours.get(k) != spec.get(k))
        for k in bad:
            print('MISMATCH', k, '\n  python:', ours.get(k), '\n  spec:  ', spec.get(k))
        print('%d vectors, %d mismatches' % (len(ours), len(bad)))
        sys.exit(1 if bad else 0)
    for name, (f, w) in ours.items():
        print('%s\nframe: %s\nwire:  %s\n' % (name, f, w))


if __name__ == '__main__':
    main()
