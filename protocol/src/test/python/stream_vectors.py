#!/usr/bin/env python3
"""Independent encoder for the test vectors of docs/stream-protocol.md section 9.

Written from the spec with Python's struct module, sharing no code with the Java codec, so that a vector printed in
the spec is the agreement of two implementations. Run: python3 protocol/src/test/python/stream_vectors.py
It prints one "NAME: hex" line per vector; with --check it compares them with the spec and exits 1 on a mismatch.
"""
import re
import struct
import sys
from pathlib import Path

TOOL = 0xFFFF


def header(type_code):
    return struct.pack('<BBH', 2, type_code, 0)


def s(text):
    b = text.encode('utf-8')
    return struct.pack('<H', len(b)) + b


def f32(*values):
    return struct.pack('<%df' % len(values), *values)


def body(id_, motion, shape_code, rgba, pos, quat, name, material, shape):
    return (struct.pack('<HBB', id_, motion, shape_code) + struct.pack('>I', rgba) + f32(*pos) + f32(*quat)
            + s(name) + s(material) + shape)


def scene(revision, name, tool_radius, bodies):
    return header(0x02) + struct.pack('<I', revision) + f32(tool_radius) + s(name) + struct.pack('<H', len(bodies)) \
        + b''.join(bodies)


IDENT = (1, 0, 0, 0)
STATIC, KINEMATIC, DYNAMIC = 0, 1, 2


def vectors():
    v = {}
    v['HELLO'] = header(0x01) + struct.pack('<BBH', 2, 0, 1000) + s('0.1.0')
    v['SCENE_PRIMITIVES'] = scene(7, 'demo', 0.005, [
        body(0, STATIC, 4, 0x808080ff, (0, 0, -0.05), IDENT, 'floor', '', f32(0, 0, 1, 0)),
        body(1, DYNAMIC, 1, 0xff0000ff, (0, -0.05, -0.04), IDENT, 'ball', 'rubber', f32(0.01)),
        body(2, KINEMATIC, 2, 0, (0.5, 0, 0), (0.5, 0.5, 0.5, 0.5), 'box', 'wood', f32(0.01, 0.02, 0.03)),
        body(3, DYNAMIC, 3, 0x00ff0080, (0.05, -0.05, -0.04), IDENT, 'pill', '', f32(0.006, 0.015)),
    ])
    hull = [(0, 0, 0), (0.25, 0, 0), (0, 0.25, 0), (0, 0, 0.25)]
    mesh_v = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    mesh_t = [(0, 1, 2)]
    v['SCENE_MESHES'] = scene(8, 'meshes', 0.005, [
        body(10, DYNAMIC, 5, 0, (0, 0, 0), IDENT, 'wedge', '',
             struct.pack('<H', len(hull)) + b''.join(f32(*p) for p in hull)),
        body(11, STATIC, 6, 0, (0, 0, -1), IDENT, 'tri', '',
             struct.pack('<HI', len(mesh_v), len(mesh_t)) + b''.join(f32(*p) for p in mesh_v)
             + b''.join(struct.pack('<3H', *t) for t in mesh_t)),
    ])
    state = header(0x03) + struct.pack('<QQIBBBB', 123456, 123456000000, 7, 2, 0, 0b01, 0)
    state += f32(0.0625, 0, -0.03125) + f32(0.0625, 0, -0.0234375) + f32(0, 0, 1.5) + f32(0, 0, 1.25)
    state += f32(999.5) + struct.pack('<III', 12000, 85000, 3) + struct.pack('<HH', 1, 1)
    state += struct.pack('<H', 1) + f32(0, -0.05, -0.04) + f32(*IDENT)
    state += struct.pack('<HH', 1, TOOL) + f32(0.0625, 0, -0.03) + f32(0, 0, 1) + f32(0, 0, 1.5) + f32(0.0015)
    state += struct.pack('<H', 0)  # version 2: no deformable bodies
    v['STATE'] = state
    ev = struct.pack('<H', 6)
    ev += struct.pack('<QBHH', 100, 1, 1, TOOL)
    ev += struct.pack('<QBHH', 100, 3, 1, TOOL) + f32(0.125)
    ev += struct.pack('<QBHH', 250, 2, 1, TOOL)
    ev += struct.pack('<QBBBB', 300, 4, 2, 3, 1)
    ev += struct.pack('<QB', 300, 6)
    ev += struct.pack('<QB', 900, 5)
    v['EVENTS'] = header(0x04) + ev
    over = header(0x03) + struct.pack('<QQIBBBB', 5000, 5000000000, 1, 2, 0, 0b101, 142)
    over += f32(0, 0, 0) * 4 + f32(953) + struct.pack('<III', 250000, 1420000, 47) + struct.pack('<HH', 0, 0)
    over += struct.pack('<H', 0)
    v['STATE_OVER_BUDGET'] = over
    # Version 2: a deformable body (shape 7): three nodes, two edges, one triangle; its SCENE pose the identity.
    cloth_nodes = [(0, 0, 0.5), (0.25, 0, 0.5), (0, 0.25, 0.5)]
    deformable = struct.pack('<HII', 3, 2, 1) + b''.join(f32(*p) for p in cloth_nodes) \
        + struct.pack('<4H', 0, 1, 1, 2) + struct.pack('<3H', 0, 1, 2)
    v['SCENE_DEFORMABLE'] = scene(9, 'cloth', 0.005, [
        body(4, DYNAMIC, 7, 0, (0, 0, 0), IDENT, 'sheet', '', deformable)])
    st = header(0x03) + struct.pack('<QQIBBBB', 2000, 2000000000, 9, 2, 0, 0b01, 3)
    st += f32(0, 0, 0) * 4 + f32(1000) + struct.pack('<III', 9000, 60000, 0) + struct.pack('<HH', 0, 0)
    st += struct.pack('<H', 1) + struct.pack('<HH', 4, 3) + f32(0, 0, 0.5, 0.25, 0, 0.5, 0, 0.25, 0.375)
    v['STATE_DEFORMABLE'] = st
    ph = struct.pack('<H', 3)
    ph += struct.pack('<QBII', 4000, 7, 1420000, 800000)
    ph += struct.pack('<QBII', 4100, 9, 12, 40)
    ph += struct.pack('<QBII', 9000, 8, 610000, 800000)
    v['EVENTS_PHYSICS'] = header(0x04) + ph
    NONE, LCP, PENALTY, IMPULSE = 0, 1, 2, 3
    imp = struct.pack('<H', 2)
    imp += struct.pack('<QBHHB', 1200, 10, 3, 4, IMPULSE) + f32(0.5, 58.71, 0.008418, 1.0)
    imp += struct.pack('<QBHHB', 1500, 10, TOOL, 2, PENALTY) + f32(0.045, 5.2839, 0.0177, 0.4)
    v['EVENTS_IMPULSE'] = header(0x04) + imp
    v['ACK_ACCEPTED'] = header(0x05) + struct.pack('<IB', 42, 1) + s('')
    v['ACK_REFUSED'] = header(0x05) + struct.pack('<IB', 43, 0) + s('bad token')
    v['SUBSCRIBE'] = header(0x81) + struct.pack('<H', 60)
    v['COMMAND_PAUSE'] = header(0x82) + struct.pack('<IB', 1, 1) + s('s3cret')
    v['COMMAND_LOAD_SCENE'] = header(0x82) + struct.pack('<IB', 2, 4) + s('s3cret') + s('pen')
    v['COMMAND_SET_PARAMETER'] = header(0x82) + struct.pack('<IB', 3, 7) + s('s3cret') + s('contact.stiffnessNpm') \
        + struct.pack('<d', 1500.0)
    v['COMMAND_MOVE_HAND'] = header(0x82) + struct.pack('<IB', 7, 8) + s('s3cret') \
        + struct.pack('<ddd', 0.01, -0.02, 0.05)
    return v


def spec_vectors(path):
    text = Path(path).read_text(encoding='utf-8')
    found = {}
    for m in re.finditer(r'^### Vector (\w+)\n.*?```hex\n(.*?)```', text, re.S | re.M):
        found[m.group(1)] = ' '.join(m.group(2).split())
    return found


def main():
    ours = {k: b.hex(' ') for k, b in vectors().items()}
    if '--check' in sys.argv:
        spec = spec_vectors(Path(__file__).resolve().parents[4] / 'docs' / 'stream-protocol.md')
        bad = sorted(k for k in set(ours) | set(spec) if ours.get(k) != spec.get(k))
        for k in bad:
            print('MISMATCH', k, '\n  python:', ours.get(k), '\n  spec:  ', spec.get(k))
        print('%d vectors, %d mismatches' % (len(ours), len(bad)))
        sys.exit(1 if bad else 0)
    for k, h in ours.items():
        print('%s: %s' % (k, h))


if __name__ == '__main__':
    main()
