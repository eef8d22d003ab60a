#!/usr/bin/env python3
"""Keeps one GPU architecture's code in a shared library's CUDA fat
binaries and zeroes the rest, so that the library compresses to a part of
its size: CV-CUDA's (187 MB, 112 MB under xz, 109 MB of it device code for
sm_75 to sm_121) to 26 MB for sm_90 alone, one device call's carry instead
of three (docs/gpu-host.md).

Usage: scripts/fatbin-keep.py IN.so OUT.so ARCH   (ARCH: 90 for H100/H200)

The .nv_fatbin section holds fat binaries (magic 0xBA55ED50), each a list
of entries (an ELF for one sm_XX, or PTX); every entry's header stays and
only the payloads of other architectures become zeros, so offsets, sizes
and the ELF are unchanged.  The driver takes the entry for the device's
own architecture and reads no other.  Refuses (exit 1) a library in which
some fat binary has no ELF for ARCH: that code would have nothing left to
run on the device."""
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
ELF = 2


def section(data, name):
    """(offset, size) of ELF64 little-endian section @name."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("fatbin-keep: not a 64-bit little-endian ELF")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    stroff, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize +
                                 0x18)
    for i in range(shnum):
        h = shoff + i * shentsize
        nameoff, = struct.unpack_from("<I", data, h)
        end = data.index(b"\0", stroff + nameoff)
        if data[stroff + nameoff:end].decode() == name:
            off, size = struct.unpack_from("<QQ", data, h + 0x18)
            return off, size
    sys.exit("fatbin-keep: no %s section" % name)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    src, dst, keep = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = bytearray(open(src, "rb").read())
    off, size = section(data, ".nv_fatbin")
    pos, end = off, off + size
    fatbins = zeroed = kept = 0
    while pos + 16 <= end:
        magic, _, hsize, fsize = struct.unpack_from("<IHHQ", data, pos)
        if magic != FATBIN_MAGIC:       # alignment padding between them
            pos += 8
            continue
        fatbins += 1
        p, e, has = pos + hsize, pos + hsize + fsize, False
        while p < e:
            kind, _, ehsize, psize = struct.unpack_from("<HHIQ", data, p)
            arch, = struct.unpack_from("<I", data, p + 28)
            if arch == keep:
                has = has or kind == ELF
                kept += psize
            else:
                data[p + ehsize:p + ehsize + psize] = bytes(psize)
                zeroed += psize
            p += ehsize + psize
        if not has:
            sys.exit("fatbin-keep: a fat binary at %#x has no sm_%d ELF" %
                     (pos, keep))
        pos = e
    with open(dst, "wb") as f:
        f.write(data)
    print("fatbin-keep: %d fat binaries, sm_%d's %.1f MB kept, %.1f MB of "
          "other architectures zeroed" % (fatbins, keep, kept / 1e6,
                                          zeroed / 1e6))


if __name__ == "__main__":
    main()
