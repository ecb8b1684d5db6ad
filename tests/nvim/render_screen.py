"""Draw a terminal screen captured with `tmux capture-pane -p -e` into a PNG.

Usage: python render_screen.py SCREEN.ansi OUT.png   (needs Pillow)

Only what tmux emits is understood: SGR colours (default, 16, 256 and RGB),
bold, italic, underline and reverse.  Used by tests/nvim/screenshot.sh.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SIZE = 15
FG = (220, 223, 228)
BG = (20, 22, 27)
BASE16 = [
    (0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16),
    (36, 114, 200), (188, 63, 188), (17, 168, 205), (229, 229, 229),
    (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67),
    (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255),
]  # fmt: skip
SGR = re.compile(r"\x1b\[([0-9;:]*)m")
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Style:
    fg: RGB | None = None
    bg: RGB | None = None
    bold: bool = False
    italic: bool = False
    underline: bool = False
    reverse: bool = False


def color256(n: int) -> RGB:
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return (v, v, v)


def apply_sgr(style: Style, params: str) -> Style:
    codes = [int(p) if p else 0 for p in re.split("[;:]", params)] if params else [0]
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            style = Style()
        elif c == 1:
            style = replace(style, bold=True)
        elif c == 3:
            style = replace(style, italic=True)
        elif c == 4:
            style = replace(style, underline=True)
        elif c == 7:
            style = replace(style, reverse=True)
        elif c == 22:
            style = replace(style, bold=False)
        elif c == 23:
            style = replace(style, italic=False)
        elif c == 24:
            style = replace(style, underline=False)
        elif c == 27:
            style = replace(style, reverse=False)
        elif 30 <= c <= 37 or 90 <= c <= 97:
            style = replace(style, fg=BASE16[c - 30 if c < 90 else c - 82])
        elif 40 <= c <= 47 or 100 <= c <= 107:
            style = replace(style, bg=BASE16[c - 40 if c < 100 else c - 92])
        elif c == 39:
            style = replace(style, fg=None)
        elif c == 49:
            style = replace(style, bg=None)
        elif c in (38, 48) and i + 1 < len(codes):
            if codes[i + 1] == 5 and i + 2 < len(codes):
                rgb = color256(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2 and i + 4 < len(codes):
                rgb = (codes[i + 2], codes[i + 3], codes[i + 4])
                i += 4
            else:
                break
            style = replace(style, fg=rgb) if c == 38 else replace(style, bg=rgb)
        i += 1
    return style


def parse(text: str) -> list[list[tuple[str, Style]]]:
    rows: list[list[tuple[str, Style]]] = []
    style = Style()
    for line in text.split("\n"):
        cells: list[tuple[str, Style]] = []
        pos = 0
        for m in SGR.finditer(line):
            cells += [(ch, style) for ch in line[pos : m.start()]]
            style = apply_sgr(style, m.group(1))
            pos = m.end()
        cells += [(ch, style) for ch in line[pos:]]
        rows.append(cells)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def render(rows: list[list[tuple[str, Style]]], out: Path) -> None:
    from PIL import Image, ImageDraw, ImageFont

    fonts: dict[tuple[bool, bool], Any] = {}
    names = {
        (False, False): "DejaVuSansMono.ttf",
        (True, False): "DejaVuSansMono-Bold.ttf",
        (False, True): "DejaVuSansMono-Oblique.ttf",
        (True, True): "DejaVuSansMono-BoldOblique.ttf",
    }
    for key, name in names.items():
        fonts[key] = ImageFont.truetype(str(FONT_DIR / name), SIZE)
    cw = round(fonts[(False, False)].getlength("M"))
    ascent, descent = fonts[(False, False)].getmetrics()
    ch = ascent + descent  # box-drawing glyphs span the whole cell: no gaps between lines
    cols = max(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c, _ in r) for r in rows)
    pad = 12
    img = Image.new("RGB", (cols * cw + 2 * pad, len(rows) * ch + 2 * pad), BG)
    draw = ImageDraw.Draw(img)
    for y, row in enumerate(rows):
        x = 0
        for char, st in row:
            fg, bg = st.fg or FG, st.bg or BG
            if st.reverse:
                fg, bg = bg, fg
            w = 2 if unicodedata.east_asian_width(char) in "WF" else 1
            left, top = pad + x * cw, pad + y * ch
            if bg != BG:
                draw.rectangle([left, top, left + w * cw - 1, top + ch - 1], fill=bg)
            if char.strip():
                draw.text((left, top), char, font=fonts[(st.bold, st.italic)], fill=fg)
            if st.underline:
                draw.line([left, top + ch - 2, left + w * cw - 1, top + ch - 2], fill=fg)
            x += w
    img.save(out)


def main(argv: list[str]) -> int:
    src, dst = Path(argv[1]), Path(argv[2])
    render(parse(src.read_text(encoding="utf-8")), dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
