"""PNG to pixels with the standard library alone (zlib), for screenshot tests.

Reads what a browser's screenshot is: 8-bit samples, RGB or RGBA (colour types
2 and 6), not interlaced; the five scanline filters of the PNG specification
(None, Sub, Up, Average, Paeth) are undone row by row. Anything else is refused
with a ``ValueError`` saying what it is.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Image:
    width: int
    height: int
    channels: int  # 3 (RGB) or 4 (RGBA)
    rows: tuple[bytes, ...]  # each row's samples, unfiltered

    def pixel(self, x: int, y: int) -> tuple[int, ...]:
        start = x * self.channels
        return tuple(self.rows[y][start:start + 3])


def decode(data: bytes) -> Image:
    """The image in ``data`` (a PNG file's bytes)."""
    if not data.startswith(SIGNATURE):
        raise ValueError("not a PNG file")
    header, compressed = None, bytearray()
    at = len(SIGNATURE)
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunk = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            compressed += chunk
        elif kind == b"IEND":
            break
        at += 12 + length
    if header is None:
        raise ValueError("a PNG file with no header chunk")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    channels = 3 if colour == 2 else 4
    return Image(width, height, channels, _unfilter(zlib.decompress(bytes(compressed)), width * channels, channels))


def _unfilter(raw: bytes, stride: int, step: int) -> tuple[bytes, ...]:
    rows, previous, at = [], bytearray(stride), 0
    while at < len(raw):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += stride + 1
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + _paeth(left, up, corner)) & 0xFF
            elif kind != 0:
                raise ValueError(f"unknown PNG filter {kind}")
        rows.append(bytes(line))
        previous = line
    return tuple(rows)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def differing(one: Image, other: Image, threshold: int = 48) -> int:
    """How many pixels differ by more than ``threshold`` in some colour channel."""
    return len(_differing_pixels(one, other, threshold))


def differing_box(one: Image, other: Image, threshold: int = 48) -> tuple[int, int, int, int] | None:
    """The smallest box (left, top, right, bottom) holding every pixel that differs, or None."""
    pixels = _differing_pixels(one, other, threshold)
    if not pixels:
        return None
    xs, ys = [x for x, _ in pixels], [y for _, y in pixels]
    return min(xs), min(ys), max(xs), max(ys)


def _differing_pixels(one: Image, other: Image, threshold: int) -> list[tuple[int, int]]:
    if (one.width, one.height) != (other.width, other.height):
        raise ValueError(f"the images differ in size: {one.width}x{one.height} and {other.width}x{other.height}")
    found = []
    for y, (row_a, row_b) in enumerate(zip(one.rows, other.rows)):
        if row_a == row_b:
            continue
        for x in range(one.width):
            a, b = x * one.channels, x * other.channels
            if any(abs(row_a[a + c] - row_b[b + c]) > threshold for c in range(3)):
                found.append((x, y))
    return found
