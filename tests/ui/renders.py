"""Exports as other programs draw them: SVG through rsvg-convert, PDF through pdftoppm, compared with the PNG.

``./run.sh test`` installs both (Debian's librsvg2-bin and poppler-utils). Neither is a browser:
they draw ``vector-effect="non-scaling-stroke"`` strokes at their scaled width, as CairoSVG,
Inkscape's previews and office suites do.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage

BLOCK = 8  # pixels averaged per block: anti-aliasing and hinting differ between renderers, shapes do not
INK = 0.85  # a block darker than this (0 black, 1 white) holds something drawn
TRACE = 0.95  # and one darker than this holds at least a trace of it (a faint line, drawn a shade lighter)


def needs(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed (Debian: apt-get install {package}; ./run.sh test installs it)")
    return path


def rsvg(svg: Path, size: tuple[int, int]) -> QImage:
    """``svg`` drawn by librsvg at ``size`` pixels on white."""
    out = svg.with_suffix(".rsvg.png")
    tool = needs("rsvg-convert", "librsvg2-bin")
    w, h = size
    subprocess.run([tool, "-w", str(w), "-h", str(h), "-b", "white", "-o", str(out), str(svg)], check=True, timeout=120)
    return QImage(str(out))


def poppler(pdf: Path, size: tuple[int, int]) -> QImage:
    """The first page of ``pdf`` drawn by poppler at ``size`` pixels."""
    stem = pdf.with_suffix(".poppler")
    tool = needs("pdftoppm", "poppler-utils")
    w, h = size
    cmd = [tool, "-png", "-singlefile", "-scale-to-x", str(w), "-scale-to-y", str(h), str(pdf), str(stem)]
    subprocess.run(cmd, check=True, timeout=120)
    return QImage(str(stem) + ".png")


def pixels(image: QImage) -> np.ndarray:
    """The image on white as an (h, w, 3) array of floats in 0..1."""
    rgb = image.convertToFormat(QImage.Format.Format_ARGB32)
    h, w = rgb.height(), rgb.width()
    raw = np.frombuffer(rgb.constBits(), dtype=np.uint8, count=rgb.bytesPerLine() * h)
    bgra = raw.reshape(h, rgb.bytesPerLine() // 4, 4)[:, :w].astype(float) / 255
    alpha = bgra[..., 3:4]
    return bgra[..., 2::-1] * alpha + (1 - alpha)  # RGB, composited on white


def blocks(a: np.ndarray) -> np.ndarray:
    h, w = a.shape[0] - a.shape[0] % BLOCK, a.shape[1] - a.shape[1] % BLOCK
    return a[:h, :w].reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK, -1).mean(axis=(1, 3))


def grow(mask: np.ndarray) -> np.ndarray:
    """``mask`` and its eight neighbours: a line one block away in the other renderer still counts."""
    padded = np.pad(mask, 1)
    h, w = mask.shape
    return np.logical_or.reduce([padded[dy : dy + h, dx : dx + w] for dy in range(3) for dx in range(3)])


@dataclass(frozen=True)
class Likeness:
    """How alike two pictures of one chart are, block by block."""

    mean_difference: float  # 0 (the same) to 1 (black against white everywhere)
    different_blocks: float  # share of blocks whose colour differs by more than a quarter
    ink_found: float  # share of the reference's inked blocks with a trace (nearby) in the other
    ink_expected: float  # share of the other's inked blocks with a trace (nearby) in the reference

    def matches(self) -> bool:
        return (
            self.mean_difference < 0.02
            and self.different_blocks < 0.01
            and self.ink_found > 0.97
            and self.ink_expected > 0.97
        )


def likeness(reference: QImage, other: QImage) -> Likeness:
    assert (other.width(), other.height()) == (reference.width(), reference.height())
    a, b = blocks(pixels(reference)), blocks(pixels(other))
    diff = np.abs(a - b).max(axis=2)
    ink_a, ink_b = a.min(axis=2) < INK, b.min(axis=2) < INK
    trace_a, trace_b = grow(a.min(axis=2) < TRACE), grow(b.min(axis=2) < TRACE)
    return Likeness(
        mean_difference=float(diff.mean()),
        different_blocks=float((diff > 0.25).mean()),
        ink_found=float((ink_a & trace_b).sum() / max(1, ink_a.sum())),
        ink_expected=float((ink_b & trace_a).sum() / max(1, ink_b.sum())),
    )
