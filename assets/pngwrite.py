"""Writes an 8-bit RGBA PNG with the standard library only (zlib and struct), for Strata's
asset scripts."""

import struct
import zlib


def png(width, height, rows):
    """PNG bytes of `rows`: `height` lists of `width` (r, g, b, a) tuples."""
    raw = b"".join(b"\x00" + bytes(v for px in row for v in px) for row in rows)
    chunk = lambda kind, data: (struct.pack(">I", len(data)) + kind + data
                                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
