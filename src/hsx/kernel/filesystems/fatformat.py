"""Making an empty FAT12, FAT16 or FAT32 volume on a block device (`hsx fs mkfs`).

The layout is Microsoft's FAT specification (fatgen103) for a volume without a partition
table: 512-byte sectors, two FATs, a 512-entry root directory on FAT12/16, the root
directory in cluster 2 with FSInfo in sector 1 and a backup boot sector in sector 6 on
FAT32.  (The FAT library the executive uses formats FAT12/16 only, so hsx formats itself;
the tests check the result with fsck.fat and an independent FAT implementation.)
"""
from __future__ import annotations

import struct
import time
from dataclasses import dataclass

from hsx.kernel.blockdev import SECTOR, BlockDevice

FAT_TYPES = (12, 16, 32)
# Cluster counts each type allows (fatgen103: the count alone decides the type).
CLUSTER_RANGE = {12: (1, 4084), 16: (4085, 65524), 32: (65525, 0x0FFFFFF4)}
FATS = 2
ROOT_ENTRIES = 512
MEDIA = 0xF8


class FormatError(ValueError):
    """The size and FAT type do not go together."""


@dataclass(frozen=True)
class Geometry:
    fat_type: int
    sectors: int
    sectors_per_cluster: int
    reserved: int
    fat_sectors: int
    root_sectors: int
    clusters: int


def geometry(sectors: int, fat_type: int) -> Geometry:
    """The layout of a `fat_type` volume of `sectors`, or FormatError saying what fits."""
    if fat_type not in FAT_TYPES:
        raise FormatError(f"FAT type {fat_type} is not 12, 16 or 32")
    low, high = CLUSTER_RANGE[fat_type]
    reserved = 32 if fat_type == 32 else 1
    root_sectors = 0 if fat_type == 32 else ROOT_ENTRIES * 32 // SECTOR
    spc = 1
    while spc <= 128:
        fat_sectors = 1
        while True:                         # the FAT must cover the clusters it leaves
            data = sectors - reserved - FATS * fat_sectors - root_sectors
            clusters = max(0, data // spc)
            needed = -(-((clusters + 2) * fat_type // 8 + 1) // SECTOR)
            if needed <= fat_sectors:
                break
            fat_sectors = needed
        if clusters <= high and (fat_type != 32 or spc >= _fat32_cluster_floor(sectors)):
            break
        spc *= 2
    else:
        raise FormatError(f"{_mib(sectors)} is too large for FAT{fat_type}")
    if clusters < low:
        raise FormatError(f"{_mib(sectors)} is too small for FAT{fat_type} ({clusters} clusters; "
                          f"FAT{fat_type} needs at least {low}: about "
                          f"{_mib(low * spc + reserved + root_sectors + 2 * fat_sectors)})")
    return Geometry(fat_type, sectors, spc, reserved, fat_sectors, root_sectors, clusters)


def _fat32_cluster_floor(sectors: int) -> int:
    """Sectors per cluster Microsoft recommends for FAT32 (fewer, larger FATs above 260 MB)."""
    mib = sectors * SECTOR / (1 << 20)
    return 1 if mib <= 260 else 8 if mib <= 8192 else 16 if mib <= 16384 else 32 if mib <= 32768 else 64


def _mib(sectors: int) -> str:
    return f"{sectors * SECTOR / (1 << 20):.1f} MiB"


def mkfs(device: BlockDevice, fat_type: int) -> Geometry:
    """Write an empty volume over the whole device."""
    layout = geometry(device.block_count, fat_type)
    volume_id = int(time.time()) & 0xFFFFFFFF
    boot = _boot_sector(layout, volume_id)
    zero = bytes(SECTOR)
    system = layout.reserved + FATS * layout.fat_sectors + layout.root_sectors
    for lba in range(system + (layout.sectors_per_cluster if fat_type == 32 else 0)):
        device.write(lba, zero)            # system area and FAT32's root cluster
    device.write(0, boot)
    if fat_type == 32:
        info = _fsinfo(layout)
        device.write(1, info)
        device.write(6, boot)
        device.write(7, info)
    first = {12: b"\xf8\xff\xff", 16: b"\xf8\xff\xff\xff",
             32: struct.pack("<III", 0x0FFFFFF8, 0x0FFFFFFF, 0x0FFFFFFF)}[fat_type]
    for copy in range(FATS):
        device.write(layout.reserved + copy * layout.fat_sectors, first.ljust(SECTOR, b"\0"))
    device.sync()
    return layout


def _boot_sector(g: Geometry, volume_id: int) -> bytes:
    small = g.sectors < 0x10000 and g.fat_type != 32
    common = struct.pack("<3s8sHBHBHHBHHHII", b"\xeb\x58\x90" if g.fat_type == 32 else b"\xeb\x3c\x90",
                         b"MSWIN4.1", SECTOR, g.sectors_per_cluster, g.reserved, FATS,
                         0 if g.fat_type == 32 else ROOT_ENTRIES, g.sectors if small else 0,
                         MEDIA, 0 if g.fat_type == 32 else g.fat_sectors, 63, 255, 0,
                         0 if small else g.sectors)
    tail = struct.pack("<BBBI11s8s", 0x80, 0, 0x29, volume_id, b"NO NAME    ",
                       f"FAT{g.fat_type}".ljust(8).encode())
    if g.fat_type == 32:
        tail = struct.pack("<IHHIHH12x", g.fat_sectors, 0, 0, 2, 1, 6) + tail
    sector = bytearray((common + tail).ljust(SECTOR, b"\0"))
    sector[510:512] = b"\x55\xaa"
    return bytes(sector)


def _fsinfo(g: Geometry) -> bytes:
    sector = bytearray(SECTOR)
    struct.pack_into("<I", sector, 0, 0x41615252)
    struct.pack_into("<IIII", sector, 484, 0x61417272, g.clusters - 1, 3, 0)
    struct.pack_into("<I", sector, 508, 0xAA550000)
    return bytes(sector)
