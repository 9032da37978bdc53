#!/usr/bin/env python3
"""Writes crates/synth/data/aruco.txt: the bit patterns of OpenCV's predefined ArUco
dictionaries that vedette-synth renders, read from OpenCV itself.

Run with Debian's OpenCV (python3-opencv, OpenCV 4.6 with the contrib aruco module):

    apt-get install -y python3-opencv
    /usr/bin/python3 crates/synth/tools/dump_aruco.py > crates/synth/data/aruco.txt

Each marker's bits are read from the image cv2.aruco.drawMarker draws (one pixel-block
per cell, sampled at cell centres), so the file holds exactly what OpenCV prints and
detects, in its canonical orientation: row 0 is the marker's top row, bit 1 is white.
The script checks that the drawn bits equal the dictionary's own byte list and that the
smaller dictionaries of one marker size are prefixes of the largest (OpenCV builds
DICT_4X4_50/100/250 from the first markers of DICT_4X4_1000, and likewise for 5x5), so
the file stores only the largest dictionary of each size.

Format (text, '#' comments): a line `dictionary NAME MARKER_SIZE COUNT`, then COUNT lines,
one per id in order, each the marker's bits row-major as a hexadecimal number whose most
significant bit is row 0, column 0.
"""
import sys

import cv2
import numpy as np

FAMILIES = {
    4: ["DICT_4X4_50", "DICT_4X4_100", "DICT_4X4_250", "DICT_4X4_1000"],
    5: ["DICT_5X5_50", "DICT_5X5_100", "DICT_5X5_250", "DICT_5X5_1000"],
}
CELL_PX = 8


def drawn_bits(dictionary, marker_id, n):
    side = (n + 2) * CELL_PX
    img = cv2.aruco.drawMarker(dictionary, marker_id, side)
    centres = [(i + 1) * CELL_PX + CELL_PX // 2 for i in range(n)]
    bits = np.array([[1 if img[r, c] > 127 else 0 for c in centres] for r in centres], dtype=np.uint8)
    # The black border must be black all round.
    border = np.concatenate([img[:CELL_PX].ravel(), img[-CELL_PX:].ravel(), img[:, :CELL_PX].ravel(), img[:, -CELL_PX:].ravel()])
    assert border.max() == 0, "border not black"
    return bits


def main():
    out = sys.stdout
    out.write("# ArUco dictionaries of OpenCV %s, written by crates/synth/tools/dump_aruco.py.\n" % cv2.__version__)
    out.write("# Smaller dictionaries of each marker size are prefixes of the one listed.\n")
    for n, names in FAMILIES.items():
        dicts = [cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name)) for name in names]
        largest = dicts[-1]
        count = largest.bytesList.shape[0]
        for name, d in zip(names, dicts):
            assert d.markerSize == n, name
            k = d.bytesList.shape[0]
            assert np.array_equal(d.bytesList, largest.bytesList[:k]), name + " is not a prefix"
        out.write("dictionary %s %d %d\n" % (names[-1], n, count))
        for marker_id in range(count):
            bits = drawn_bits(largest, marker_id, n)
            from_bytes = cv2.aruco.Dictionary_getBitsFromByteList(largest.bytesList[marker_id:marker_id + 1], n)
            assert np.array_equal(bits, from_bytes), "drawn bits differ from byte list at id %d" % marker_id
            value = 0
            for b in bits.ravel():
                value = (value << 1) | int(b)
            out.write("%0*x\n" % ((n * n + 3) // 4, value))


if __name__ == "__main__":
    main()
