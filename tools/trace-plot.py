#!/usr/bin/env python3
#===- tools/trace-plot.py - Draw a HETERO_TRACE timeline as a PNG --------===#
#
# hetero writes a timeline of a run to the file named by HETERO_TRACE, in the
# Chrome trace event format that Perfetto (ui.perfetto.dev) and
# chrome://tracing open interactively.  Those need a browser and the file on
# a desktop; on a GPU machine, in a CI log or in a bug report a picture is
# quicker.  This script draws such a file to a PNG: one lane per thread or
# member, chunks coloured by kernel, copies by direction, waits in grey,
# launches as outlines, and each lane's busy share at the right, so that
# where a GPU sits idle shows at a glance.
#
# matplotlib is not available where hetero runs and nothing may be installed
# there, so the PNG encoder (zlib + struct) and a 5x7 bitmap font are part of
# this file, which needs nothing beyond the Python 3 standard library.
#
#===----------------------------------------------------------------------===#
"""Draw a hetero timeline (Chrome trace event JSON) to a PNG.

usage: trace-plot.py TRACE.json OUT.png [--width PX] [--from MS] [--to MS]
                     [--title TEXT]
       trace-plot.py --self-test

TRACE.json is either the JSON object form ({"traceEvents": [...]}) or the
bare array form ([...], a missing closing bracket is tolerated).  Complete
events ("ph":"X") and begin/end pairs ("ph":"B"/"E", nested per pid/tid) are
drawn; thread_name/process_name metadata ("ph":"M") label the lanes; other
phases are ignored.  Times are "ts"/"dur" in microseconds; the plot shows
milliseconds relative to the first event, and --from/--to select a window in
that scale.

Exit status: 0 on success, 2 for a usage error or an unreadable, empty or
malformed trace (one line on stderr: "trace-plot: <file>: <what is wrong>"),
1 when the PNG cannot be written or the self-test fails.
"""

import argparse
import bisect
import contextlib
import io
import json
import math
import os
import re
import struct
import sys
import tempfile
import zlib

# Colours (RGB).
BACKGROUND = (255, 255, 255)
LANE_BACKGROUNDS = ((250, 250, 251), (239, 241, 245))
GRID = (214, 217, 224)
FRAME = (160, 160, 165)
TEXT = (25, 25, 25)
DIM_TEXT = (95, 95, 100)
WAIT_COLOUR = (150, 150, 150)
LAUNCH_COLOUR = (25, 25, 25)
OTHER_COLOUR = (201, 184, 142)
FAILED_COLOUR = (120, 0, 0)
COPY_COLOURS = {
    "h2d": (214, 39, 40),
    "d2h": (255, 127, 14),
    "d2d": (148, 103, 189),
    "h2h": (140, 86, 75),
}
COPY_DIRECTIONS = ("h2d", "d2h", "d2d", "h2h")
KINDS = ("chunk", "copy", "wait", "launch")
COPY_UNKNOWN_COLOUR = (188, 143, 143)
# Chunks take one of these by a hash of the kernel name; the hues avoid the
# copies' reds, oranges, purple and brown and the greys of waits.
KERNEL_PALETTE = (
    (31, 119, 180), (44, 160, 44), (23, 190, 207), (110, 120, 20),
    (227, 119, 194), (40, 45, 110), (240, 215, 50), (0, 100, 80),
    (160, 220, 110), (170, 195, 240),
)

# Geometry in pixels.
MARGIN = 10
GLYPH_W = 5
GLYPH_ROWS = 8          # 7 rows above the baseline, 1 for descenders
CAP_H = 7
ADVANCE = 6             # glyph width plus one column of spacing
LINE_H = 12
TITLE_SCALE = 2
LANE_H = 20
LANE_PITCH = 22
TICK_LEN = 4
LABEL_GAP = 14          # between the lane labels and the plot
BUSY_GAP = 12           # between the plot and the busy column
SWATCH_W = 12
LEGEND_GAP = 14
MAX_LABEL_CHARS = 28
MAX_LEGEND_KERNELS = 24
MIN_WIDTH = 400
MAX_WIDTH = 20000
MIN_SPAN_US = 1.0
EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
KERNEL_PREFIX = re.compile(r"^__omp_offloading_[^_]+_[^_]+_")
RANGE_SUFFIX = re.compile(r"\s*(\[[^\[\]]*[\)\]]|\(whole\))\s*$")

# A 5x7 font with a descender row, printable ASCII from ' ' (32) to '~'
# (126).  Each glyph is 8 rows of 2 hex digits; bit 4 is the leftmost column.
_FONT_HEX = (
    "0000000000000000", "0404040404000400", "0a0a0a0000000000",  # ' ' '!' '"'
    "0a0a1f0a1f0a0a00", "040f140e051e0400", "1819020408130300",  # '#' '$' '%'
    "0c12140815120d00", "0404080000000000", "0204080808040200",  # '&' "'" '('
    "0804020202040800", "0004150e15040000", "0004041f04040000",  # ')' '*' '+'
    "00000000000c0408", "0000001f00000000", "00000000000c0c00",  # ',' '-' '.'
    "0001020408100000", "0e11131519110e00", "040c040404040e00",  # '/' '0' '1'
    "0e11010204081f00", "1f02040201110e00", "02060a121f020200",  # '2' '3' '4'
    "1f101e0101110e00", "0608101e11110e00", "1f01020408080800",  # '5' '6' '7'
    "0e11110e11110e00", "0e11110f01020c00", "000c0c000c0c0000",  # '8' '9' ':'
    "000c0c000c040800", "0204081008040200", "00001f001f000000",  # ';' '<' '='
    "0804020102040800", "0e11010204000400", "0e11010d15150e00",  # '>' '?' '@'
    "0e11111f11111100", "1e11111e11111e00", "0e11101010110e00",  # 'A' 'B' 'C'
    "1c12111111121c00", "1f10101e10101f00", "1f10101e10101000",  # 'D' 'E' 'F'
    "0e11101711110f00", "1111111f11111100", "0e04040404040e00",  # 'G' 'H' 'I'
    "0702020202120c00", "1112141814121100", "1010101010101f00",  # 'J' 'K' 'L'
    "111b151511111100", "1111191513111100", "0e11111111110e00",  # 'M' 'N' 'O'
    "1e11111e10101000", "0e11111115120d00", "1e11111e14121100",  # 'P' 'Q' 'R'
    "0f10100e01011e00", "1f04040404040400", "1111111111110e00",  # 'S' 'T' 'U'
    "11111111110a0400", "1111111515150a00", "11110a040a111100",  # 'V' 'W' 'X'
    "11110a0404040400", "1f01020408101f00", "0e08080808080e00",  # 'Y' 'Z' '['
    "0010080402010000", "0e02020202020e00", "040a110000000000",  # '\\' ']' '^'
    "000000000000001f", "0804020000000000", "00000e010f110f00",  # '_' '`' 'a'
    "10101e1111111e00", "00000e1010110e00", "01010f1111110f00",  # 'b' 'c' 'd'
    "00000e111f100e00", "0609081c08080800", "00000f11110f010e",  # 'e' 'f' 'g'
    "1010161911111100", "04000c0404040e00", "020006020202120c",  # 'h' 'i' 'j'
    "1010121418141200", "0c04040404040e00", "00001a1515151500",  # 'k' 'l' 'm'
    "0000161911111100", "00000e1111110e00", "00001e11111e1010",  # 'n' 'o' 'p'
    "00000f11110f0101", "0000161910101000", "00000f100e011e00",  # 'q' 'r' 's'
    "08081c0808090600", "0000111111130d00", "00001111110a0400",  # 't' 'u' 'v'
    "0000111115150a00", "0000110a040a1100", "00001111110f010e",  # 'w' 'x' 'y'
    "00001f0204081f00", "0204040804040200", "0404040404040400",  # 'z' '{' '|'
    "0804040204040800", "0000081502000000",  # '}' '~'
)
FONT = tuple(bytes.fromhex(glyph) for glyph in _FONT_HEX)
FONT_FIRST = 32
FONT_FALLBACK = ord("?") - FONT_FIRST


class TraceError(Exception):
    """A trace that cannot be drawn; the message is one line for stderr."""


class SelfTestFailure(Exception):
    """A failed self-test check; the message describes the check."""


class Event:
    """One interval on one lane: a complete event or a paired begin/end.

    kind is 'chunk', 'copy', 'wait', 'launch' or 'other' (see event_kind);
    detail is a chunk's kernel label or a copy's direction (None when it
    has none), else None."""

    __slots__ = ("lane", "start", "end", "cat", "name", "args", "kind",
                 "detail")

    def __init__(self, lane, start, end, cat, name, args, memo=None):
        """Store the fields and classify; start and end are microseconds;
        memo (a dict) caches kernel labels across events."""
        self.lane = lane
        self.start = start
        self.end = end
        self.cat = cat
        self.name = name
        self.args = args
        self.kind = event_kind(cat)
        self.detail = None
        if self.kind == "chunk":
            self.detail = kernel_label(name, args, memo)
        elif self.kind == "copy":
            self.detail = copy_direction(name, args)


class Trace:
    """The drawable content of a trace file."""

    def __init__(self, events, lanes, labels, skipped, dropped=0):
        """events: Event list; lanes: ordered (pid, tid) keys; labels: lane
        -> text; skipped: how many malformed events were left out; dropped:
        how many the writer says it did not record (otherData)."""
        self.events = events
        self.lanes = lanes
        self.labels = labels
        self.skipped = skipped
        self.dropped = dropped
        self.t_first = min(e.start for e in events)
        self.t_last = max(e.end for e in events)


# ---------------------------------------------------------------------------
# Reading the trace
# ---------------------------------------------------------------------------

def _number(value):
    """A finite float from a JSON number (or numeric string), else None."""
    if type(value) is float or type(value) is int:  # the common case
        return float(value) if math.isfinite(value) else None
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    return None


def _ident(value):
    """A hashable pid/tid: integral numbers as int, anything else as str."""
    if type(value) is int:  # the common case
        return value
    if isinstance(value, bool) or value is None:
        return 0 if value is None else int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, (int, str)):
        return value
    return str(value)


def _order(value):
    """Sort key that puts numeric ids first, in numeric order."""
    if isinstance(value, (int, float)):
        return (0, value, "")
    return (1, 0, str(value))


def _decode_json(text):
    """Parse the JSON text, tolerating an unterminated array form."""
    try:
        return json.loads(text)
    except RecursionError:
        raise TraceError("JSON nested too deeply") from None
    except ValueError as err:
        first_error = err
    stripped = text.strip()
    if stripped.startswith("["):
        # The array form may lack its closing bracket (a writer that was
        # killed, or one that streams); Chrome and Perfetto accept that.
        try:
            return json.loads(stripped.rstrip(",") + "]")
        except (ValueError, RecursionError):
            pass
    raise TraceError("not valid JSON: %s" % first_error)


def _event_fields(raw):
    """(cat, name, args) of a raw event dict, with safe defaults."""
    cat = raw.get("cat")
    name = raw.get("name")
    args = raw.get("args")
    return (cat if isinstance(cat, str) else "",
            name if isinstance(name, str) else "",
            args if isinstance(args, dict) else {})


def _pair_begin_end(begin_end, t_last, memo):
    """Events from B/E records [(ts, index, ph, lane, raw)]: each E closes
    the latest open B of its lane; a B left open ends at t_last.  memo is
    passed on to Event."""
    begin_end.sort(key=lambda rec: (rec[0], rec[1]))
    stacks = {}
    events = []
    for ts, _, ph, lane, raw in begin_end:
        stack = stacks.setdefault(lane, [])
        if ph == "B":
            stack.append((ts, raw))
        elif stack:
            start, begin = stack.pop()
            cat, name, args = _event_fields(begin)
            end_cat, end_name, end_args = _event_fields(raw)
            merged = dict(args)
            merged.update(end_args)
            events.append(Event(lane, start, ts, cat or end_cat,
                                name or end_name, merged, memo))
    for lane, stack in stacks.items():
        for start, begin in stack:
            cat, name, args = _event_fields(begin)
            events.append(Event(lane, start, max(start, t_last), cat, name,
                                args, memo))
    return events


def parse_trace(text):
    """Parse trace JSON text into a Trace; raise TraceError if it has
    nothing to draw or is not a trace."""
    if not text.strip():
        raise TraceError("empty file (hetero writes the trace when the "
                         "program ends: did it end early?)")
    data = _decode_json(text)
    dropped = 0
    if isinstance(data, dict):
        if "traceEvents" not in data:
            raise TraceError('no "traceEvents" array in the JSON object')
        raw_events = data["traceEvents"]
        if not isinstance(raw_events, list):
            raise TraceError('"traceEvents" is not an array')
        other = data.get("otherData")
        if isinstance(other, dict):
            dropped = int(_number(other.get("dropped_events")) or 0)
    elif isinstance(data, list):
        raw_events = data
    else:
        raise TraceError("top level is a JSON %s, not an object or an array"
                         % type(data).__name__)

    thread_names = {}
    process_names = {}
    memo = {}
    events = []
    begin_end = []
    skipped = 0
    t_last = -math.inf
    for index, raw in enumerate(raw_events):
        if not isinstance(raw, dict):
            skipped += 1
            continue
        phase = raw.get("ph")
        pid = _ident(raw.get("pid", 0))
        lane = (pid, _ident(raw.get("tid", 0)))
        if phase == "M":
            args = raw.get("args")
            label = args.get("name") if isinstance(args, dict) else None
            if isinstance(label, str):
                if raw.get("name") == "thread_name":
                    thread_names[lane] = label
                elif raw.get("name") == "process_name":
                    process_names[pid] = label
            continue
        if phase not in ("X", "B", "E"):
            continue
        ts = _number(raw.get("ts"))
        if ts is None:
            skipped += 1
            continue
        if phase == "X":
            dur = _number(raw.get("dur", 0))
            if dur is None or dur < 0:
                skipped += 1
                continue
            cat, name, args = _event_fields(raw)
            events.append(Event(lane, ts, ts + dur, cat, name, args,
                                memo))
            t_last = max(t_last, ts + dur)
        else:
            begin_end.append((ts, index, phase, lane, raw))
            t_last = max(t_last, ts)
    events.extend(_pair_begin_end(begin_end, t_last, memo))
    if not events:
        raise TraceError('no events to draw (no "ph":"X" events or B/E '
                         'pairs%s)' % (", %d malformed ones left out"
                                       % skipped if skipped else ""))

    lanes = sorted(set(e.lane for e in events) | set(thread_names),
                   key=lambda lane: (_order(lane[0]), _order(lane[1])))
    several_pids = len(set(lane[0] for lane in lanes)) > 1
    labels = {}
    for lane in lanes:
        label = thread_names.get(lane, "tid %s" % (lane[1],))
        if several_pids:
            label = "%s/%s" % (process_names.get(lane[0],
                                                 "pid %s" % (lane[0],)),
                               label)
        labels[lane] = label
    return Trace(events, lanes, labels, skipped, dropped)


def load_trace(path):
    """Read and parse the trace file at path; raise TraceError."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise TraceError("cannot read: %s" % (err.strerror or err)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise TraceError("not UTF-8 text (byte %d)" % err.start) from None
    return parse_trace(text)


# ---------------------------------------------------------------------------
# Classifying events
# ---------------------------------------------------------------------------

def event_kind(cat):
    """'chunk', 'copy', 'wait', 'launch' or 'other', from the category (the
    first one of a comma-separated list)."""
    if cat in KINDS:
        return cat
    cat = cat.split(",")[0].strip().lower()
    return cat if cat in KINDS else "other"


def copy_direction(name, args):
    """h2d, d2h, d2d or h2h from the name's start or the from/to args;
    None when neither tells."""
    head = name[:3].lower()
    if head in COPY_COLOURS:
        return head
    source = args.get("from")
    target = args.get("to")
    if isinstance(source, str) and isinstance(target, str):
        return "%s2%s" % ("h" if source == "host" else "d",
                          "h" if target == "host" else "d")
    return None


def kernel_label(name, args, memo=None):
    """Short kernel name of a chunk: the event name without its iteration
    range when args.kernel ends with that (hetero names chunks so), else
    args.kernel without its __omp_offloading_<dev>_<file>_ prefix; the
    stripped name when there is no args.kernel.  memo, a dict, remembers
    the answer per kernel for a trace's many chunks of few kernels."""
    short = RANGE_SUFFIX.sub("", name) or name or "?"
    kernel = args.get("kernel")
    if not isinstance(kernel, str) or not kernel:
        return short
    if memo is not None and kernel in memo:
        return memo[kernel]
    if kernel.endswith(short):
        label = short
    else:
        label = KERNEL_PREFIX.sub("", kernel) or kernel
    if memo is not None:
        memo[kernel] = label
    return label


def assign_kernel_colours(labels):
    """Map kernel labels to palette colours: a stable hash picks the slot,
    and a taken slot moves on to the next free one while any is free."""
    palette_size = len(KERNEL_PALETTE)
    taken = set()
    colours = {}
    for label in sorted(labels):
        home = zlib.crc32(label.encode("utf-8")) % palette_size
        slot = home
        if len(taken) < palette_size:
            while slot in taken:
                slot = (slot + 1) % palette_size
        taken.add(slot)
        colours[label] = KERNEL_PALETTE[slot]
    return colours


def event_colour(event, kind, kernel_colours):
    """Fill colour of an event of the given kind."""
    if kind == "chunk":
        return kernel_colours[event.detail]
    if kind == "copy":
        return COPY_COLOURS.get(event.detail, COPY_UNKNOWN_COLOUR)
    if kind == "wait":
        return WAIT_COLOUR
    if kind == "launch":
        return LAUNCH_COLOUR
    return OTHER_COLOUR


def merge_intervals(intervals, lo, hi):
    """Sorted disjoint union of (start, end) intervals clipped to [lo, hi]."""
    merged = []
    for start, end in sorted(intervals):
        start = max(start, lo)
        end = min(end, hi)
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1][1] = end
        else:
            merged.append([start, end])
    return merged


def busy_fraction(events, lo, hi):
    """Share of [lo, hi] covered by the union of the chunk and copy events,
    or None when there are events and none of them is a chunk or a copy."""
    busy = [(e.start, e.end) for e in events
            if e.kind in ("chunk", "copy")]
    if events and not busy:
        return None
    covered = sum(end - start for start, end in merge_intervals(busy, lo, hi))
    return covered / (hi - lo)


def lane_needs_split(events, lo, hi):
    """True when a copy overlaps a chunk, wait or other event in [lo, hi];
    such a lane draws copies in its bottom half, the rest in its top half."""
    copies = merge_intervals([(e.start, e.end) for e in events
                              if e.kind == "copy"], lo, hi)
    if not copies:
        return False
    ends = [end for _, end in copies]
    for event in events:
        if event.kind in ("copy", "launch"):
            continue
        start = max(event.start, lo)
        end = min(event.end, hi)
        if end <= start:
            continue
        at = bisect.bisect_right(ends, start)
        if at < len(copies) and copies[at][0] < end:
            return True
    return False


# ---------------------------------------------------------------------------
# Time axis
# ---------------------------------------------------------------------------

def nice_ticks(lo, hi):
    """Round tick values (1, 2, 2.5 or 5 times a power of ten) in [lo, hi],
    about ten of them; returns (step, values)."""
    span = hi - lo
    best = None
    exponent = math.floor(math.log10(span / 10.0))
    for power in range(exponent - 1, exponent + 2):
        for mantissa in (1.0, 2.0, 2.5, 5.0):
            step = mantissa * 10.0 ** power
            first = math.ceil(lo / step - 1e-9)
            last = math.floor(hi / step + 1e-9)
            count = last - first + 1
            score = 0 if 8 <= count <= 12 else 1
            key = (score, abs(count - 10))
            if best is None or key < best[0]:
                best = (key, step, first, last)
    _, step, first, last = best
    return step, [i * step for i in range(first, last + 1)]


def tick_decimals(step):
    """Decimals needed to print multiples of step exactly."""
    for decimals in range(10):
        scaled = step * 10 ** decimals
        if abs(scaled - round(scaled)) < 1e-6 * max(1.0, scaled):
            return decimals
    return 9


def format_ms(value, decimals):
    """A tick label; never '-0'."""
    text = "%.*f" % (decimals, value)
    return "0" if float(text) == 0 else text


# ---------------------------------------------------------------------------
# Raster canvas, text and PNG
# ---------------------------------------------------------------------------

def text_width(text, scale=1):
    """Width in pixels of text drawn with the built-in font."""
    return max(0, len(text) * ADVANCE * scale - scale)


def clip_text(text, max_chars):
    """text cut to max_chars characters, ending in '..' when cut."""
    if max_chars <= 0:
        return ""
    if len(text) <= max_chars:
        return text
    if max_chars <= 2:
        return text[:max_chars]
    return text[:max_chars - 2] + ".."


def darker(colour):
    """colour at two thirds of its brightness."""
    return tuple(channel * 2 // 3 for channel in colour)


def text_colour_on(colour):
    """Black or white, whichever reads better on the fill colour."""
    red, green, blue = colour
    luma = 0.299 * red + 0.587 * green + 0.114 * blue
    return TEXT if luma > 140 else BACKGROUND


class Canvas:
    """An RGB raster with the few drawing operations the plot needs."""

    def __init__(self, width, height, colour):
        """A width x height image filled with colour."""
        self.width = width
        self.height = height
        self.pixels = bytearray(bytes(colour) * (width * height))

    def fill_rect(self, x0, y0, x1, y1, colour):
        """Fill [x0, x1) x [y0, y1), clipped to the image."""
        x0 = max(0, x0)
        y0 = max(0, y0)
        x1 = min(self.width, x1)
        y1 = min(self.height, y1)
        if x0 >= x1 or y0 >= y1:
            return
        row = bytes(colour) * (x1 - x0)
        stride = self.width * 3
        offset = y0 * stride + x0 * 3
        for _ in range(y0, y1):
            self.pixels[offset:offset + len(row)] = row
            offset += stride

    def outline_rect(self, x0, y0, x1, y1, colour):
        """One-pixel outline of [x0, x1) x [y0, y1)."""
        self.fill_rect(x0, y0, x1, y0 + 1, colour)
        self.fill_rect(x0, y1 - 1, x1, y1, colour)
        self.fill_rect(x0, y0, x0 + 1, y1, colour)
        self.fill_rect(x1 - 1, y0, x1, y1, colour)

    def pixel(self, x, y):
        """The (r, g, b) at x, y."""
        offset = (y * self.width + x) * 3
        return tuple(self.pixels[offset:offset + 3])

    def text(self, x, y, text, colour, scale=1):
        """Draw text with its top-left corner at x, y; return the x after
        it.  Characters outside printable ASCII draw as '?'."""
        for char in text:
            index = ord(char) - FONT_FIRST
            if not 0 <= index < len(FONT):
                index = FONT_FALLBACK
            for row, bits in enumerate(FONT[index]):
                if not bits:
                    continue
                for column in range(GLYPH_W):
                    if bits & (0x10 >> column):
                        px = x + column * scale
                        py = y + row * scale
                        self.fill_rect(px, py, px + scale, py + scale,
                                       colour)
            x += ADVANCE * scale
        return x

    def png(self):
        """The image encoded as an 8-bit RGB PNG."""
        return encode_png(self.width, self.height, self.pixels)


def _png_chunk(tag, data):
    """One PNG chunk: length, tag, data, CRC."""
    crc = zlib.crc32(tag + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)


def encode_png(width, height, rgb):
    """PNG bytes of an 8-bit RGB image given as rows of width*3 bytes."""
    stride = width * 3
    raw = bytearray()
    for y in range(height):
        raw.append(0)                       # filter type None
        raw += rgb[y * stride:(y + 1) * stride]
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (PNG_SIGNATURE + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(bytes(raw), 6))
            + _png_chunk(b"IEND", b""))


def _paeth(left, up, up_left):
    """The PNG Paeth predictor."""
    estimate = left + up - up_left
    d_left = abs(estimate - left)
    d_up = abs(estimate - up)
    d_up_left = abs(estimate - up_left)
    if d_left <= d_up and d_left <= d_up_left:
        return left
    return up if d_up <= d_up_left else up_left


def decode_png(data):
    """(width, height, rows) of an 8-bit RGB, non-interlaced PNG, rows being
    unfiltered bytearrays; raise ValueError saying what is wrong."""
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError("no PNG signature")
    pos = len(PNG_SIGNATURE)
    header = None
    idat = bytearray()
    ended = False
    while pos < len(data):
        if pos + 8 > len(data):
            raise ValueError("truncated chunk header at byte %d" % pos)
        length, tag = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc_bytes = data[pos + 8 + length:pos + 12 + length]
        if len(body) != length or len(crc_bytes) != 4:
            raise ValueError("truncated %r chunk" % tag)
        crc = zlib.crc32(tag + body) & 0xFFFFFFFF
        if struct.unpack(">I", crc_bytes)[0] != crc:
            raise ValueError("bad CRC in %r chunk" % tag)
        if tag == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif tag == b"IDAT":
            idat += body
        elif tag == b"IEND":
            ended = True
            break
        pos += 12 + length
    if header is None:
        raise ValueError("no IHDR chunk")
    if not ended:
        raise ValueError("no IEND chunk")
    width, height, depth, colour_type, _, _, interlace = header
    if (depth, colour_type, interlace) != (8, 2, 0):
        raise ValueError("IHDR says depth %d colour type %d interlace %d, "
                         "expected 8, 2, 0" % (depth, colour_type, interlace))
    try:
        raw = zlib.decompress(bytes(idat))
    except zlib.error as err:
        raise ValueError("IDAT does not inflate: %s" % err) from None
    stride = width * 3
    if len(raw) != height * (stride + 1):
        raise ValueError("IDAT inflates to %d bytes, expected %d rows of "
                         "1 + %d" % (len(raw), height, stride))
    rows = []
    previous = bytearray(stride)
    for y in range(height):
        base = y * (stride + 1)
        kind = raw[base]
        line = bytearray(raw[base + 1:base + 1 + stride])
        if kind > 4:
            raise ValueError("row %d has filter type %d" % (y, kind))
        for i in range(stride):
            left = line[i - 3] if i >= 3 else 0
            up = previous[i]
            up_left = previous[i - 3] if i >= 3 else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + _paeth(left, up, up_left)) & 0xFF
        rows.append(line)
        previous = line
    return width, height, rows


# ---------------------------------------------------------------------------
# Layout and drawing
# ---------------------------------------------------------------------------

class Layout:
    """Where everything goes: the window, the lanes, the axis, the legend.

    Times are trace microseconds; t_from/t_to bound the plotted window and
    t_origin (the first event) is time 0 on the axis."""

    def __init__(self, trace, width, from_ms, to_ms, title):
        """Plan a plot of trace, width pixels wide; from_ms/to_ms (None for
        the whole trace) are relative to the first event."""
        self.width = width
        self.t_origin = trace.t_first
        total_us = max(trace.t_last - trace.t_first, MIN_SPAN_US)
        self.t_from = self.t_origin + (0.0 if from_ms is None
                                       else from_ms * 1000.0)
        self.t_to = self.t_origin + (total_us if to_ms is None
                                     else to_ms * 1000.0)
        if self.t_to <= self.t_from:
            raise TraceError("the window %.6g to %.6g ms is empty (the trace "
                             "spans %.6g ms)"
                             % ((self.t_from - self.t_origin) / 1000.0,
                                (self.t_to - self.t_origin) / 1000.0,
                                total_us / 1000.0))
        self.title = title

        by_lane = {lane: [] for lane in trace.lanes}
        for event in trace.events:
            by_lane[event.lane].append(event)
        self.lanes = trace.lanes
        self.lane_index = {lane: i for i, lane in enumerate(trace.lanes)}
        self.labels = {lane: clip_text(trace.labels[lane], MAX_LABEL_CHARS)
                       for lane in trace.lanes}
        self.split = set(lane for lane in trace.lanes
                         if lane_needs_split(by_lane[lane], self.t_from,
                                             self.t_to))
        self.busy = {}
        for lane in trace.lanes:
            share = busy_fraction(by_lane[lane], self.t_from, self.t_to)
            if share is None:
                self.busy[lane] = "-"
            else:
                self.busy[lane] = "%.1f%%" % (100.0 * share)

        kernels = set(e.detail for e in trace.events if e.kind == "chunk")
        self.kernel_colours = assign_kernel_colours(kernels)
        self.visible = [e for e in trace.events
                        if e.end >= self.t_from and e.start <= self.t_to]
        self.other_cats = sorted(set(e.cat or "(none)" for e in trace.events
                                     if e.kind == "other"))
        self.copy_kinds = set(e.detail for e in trace.events
                              if e.kind == "copy")
        self.any_failed = any(e.args.get("failed") is True
                              for e in trace.events
                              if e.kind == "chunk")

        # Columns.
        axis_name = "time (ms)"
        label_w = max([text_width(label) for label in self.labels.values()]
                      + [text_width(axis_name)])
        self.axis_name = axis_name
        self.label_x = MARGIN
        self.plot_x0 = MARGIN + label_w + LABEL_GAP
        busy_w = text_width("100.0%")
        self.busy_x1 = width - MARGIN
        self.plot_x1 = self.busy_x1 - busy_w - BUSY_GAP
        if self.plot_x1 - self.plot_x0 < 100:
            raise TraceError("--width %d leaves no room for the plot next to "
                             "the lane labels" % width)
        self.px_per_us = (self.plot_x1 - self.plot_x0) / (self.t_to
                                                          - self.t_from)

        # Rows.
        self.title_y = MARGIN
        self.axis_top_y = self.title_y + GLYPH_ROWS * TITLE_SCALE + 10
        self.lanes_y0 = self.axis_top_y + LINE_H + TICK_LEN
        self.lane_top = {lane: self.lanes_y0 + i * LANE_PITCH
                         for i, lane in enumerate(trace.lanes)}
        self.lanes_y1 = self.lanes_y0 + len(trace.lanes) * LANE_PITCH
        self.axis_bottom_y = self.lanes_y1 + TICK_LEN + 2
        self.legend_y = self.axis_bottom_y + LINE_H + 8
        self.legend = self._plan_legend()
        rows = 1 + max([row for row, _, _, _ in self.legend] + [0])
        self.height = self.legend_y + rows * LINE_H + MARGIN

        step, values = nice_ticks((self.t_from - self.t_origin) / 1000.0,
                                  (self.t_to - self.t_origin) / 1000.0)
        decimals = tick_decimals(step)
        self.ticks = [(format_ms(value, decimals),
                       int(math.floor(self.x_of(self.t_origin
                                                + value * 1000.0))))
                      for value in values]
        self.ticks = [(text, x) for text, x in self.ticks
                      if self.plot_x0 <= x < self.plot_x1]

    def _plan_legend(self):
        """Legend entries (row, x, kind, (colour, text)), flowed into rows;
        kind is 'heading', 'fill' or 'outline' ('gap', extra space between
        groups, is used up here)."""
        entries = [("heading", None, "kernels:")]
        kernels = sorted(self.kernel_colours)
        for label in kernels[:MAX_LEGEND_KERNELS]:
            entries.append(("fill", self.kernel_colours[label],
                            clip_text(label, MAX_LABEL_CHARS)))
        if len(kernels) > MAX_LEGEND_KERNELS:
            entries.append(("heading", None, "+%d more"
                            % (len(kernels) - MAX_LEGEND_KERNELS)))
        if not kernels:
            entries.append(("heading", None, "none"))
        entries.append(("gap", None, ""))
        entries.append(("heading", None, "copies:"))
        for direction in COPY_DIRECTIONS:
            entries.append(("fill", COPY_COLOURS[direction], direction))
        if None in self.copy_kinds:
            entries.append(("fill", COPY_UNKNOWN_COLOUR, "copy"))
        entries.append(("gap", None, ""))
        entries.append(("fill", WAIT_COLOUR, "wait"))
        entries.append(("outline", LAUNCH_COLOUR, "launch"))
        if self.any_failed:
            entries.append(("outline", FAILED_COLOUR, "failed chunk"))
        if self.other_cats:
            entries.append(("fill", OTHER_COLOUR, clip_text(
                "other (%s)" % ", ".join(self.other_cats), 60)))
        widths = [text_width(text) + (0 if kind in ("heading", "gap")
                                      else SWATCH_W + 4)
                  for kind, _, text in entries]
        placed = []
        row = 0
        x = MARGIN
        for index, (kind, colour, text) in enumerate(entries):
            if kind == "gap":
                if x > MARGIN:
                    x += LEGEND_GAP
                continue
            needed = widths[index]
            if kind == "heading" and index + 1 < len(entries):
                needed += 6 + widths[index + 1]     # keep it with the next
            if x > MARGIN and x + needed > self.width - MARGIN:
                row += 1
                x = MARGIN
            placed.append((row, x, kind, (colour, text)))
            x += widths[index] + (6 if kind == "heading" else LEGEND_GAP)
        return placed

    def x_of(self, t):
        """Pixel x (float) of trace time t (microseconds)."""
        return self.plot_x0 + (t - self.t_from) * self.px_per_us

    def x_span(self, start, end):
        """[x0, x1) pixel columns of an interval, at least one wide, clipped
        to the plot; None when it lies outside."""
        if end < self.t_from or start > self.t_to:
            return None
        x0 = max(self.plot_x0, int(math.floor(self.x_of(start))))
        x1 = min(self.plot_x1, int(math.floor(self.x_of(end))))
        x0 = min(x0, self.plot_x1 - 1)
        return (x0, max(x1, x0 + 1))

    def y_span(self, lane, kind):
        """[y0, y1) pixel rows an event of the given kind uses in its lane."""
        top = self.lane_top[lane]
        if kind == "launch":
            return (top, top + LANE_H)
        if lane not in self.split:
            return (top + 1, top + LANE_H - 1)
        middle = top + LANE_H // 2
        if kind == "copy":
            return (middle, top + LANE_H - 1)
        return (top + 1, middle)

    def lane_background(self, lane):
        """Background colour of a lane (alternating)."""
        return LANE_BACKGROUNDS[self.lane_index[lane] % 2]


def draw_frame(canvas, layout):
    """Title, lane backgrounds and labels, grid, axes and busy column."""
    max_chars = (layout.width - 2 * MARGIN) // (ADVANCE * TITLE_SCALE)
    canvas.text(MARGIN, layout.title_y, clip_text(layout.title, max_chars),
                TEXT, TITLE_SCALE)
    for lane in layout.lanes:
        top = layout.lane_top[lane]
        canvas.fill_rect(layout.plot_x0, top, layout.plot_x1, top + LANE_H,
                         layout.lane_background(lane))
        text_y = top + (LANE_H - CAP_H) // 2
        canvas.text(layout.label_x, text_y, layout.labels[lane], TEXT)
        busy = layout.busy[lane]
        canvas.text(layout.busy_x1 - text_width(busy), text_y, busy, TEXT)
    for _, x in layout.ticks:
        canvas.fill_rect(x, layout.lanes_y0, x + 1, layout.lanes_y1, GRID)
    frame = (layout.plot_x0 - 1, layout.lanes_y0 - 1, layout.plot_x1 + 1,
             layout.lanes_y1 + 1)
    canvas.outline_rect(*frame, FRAME)

    for y in (layout.axis_top_y, layout.axis_bottom_y):
        canvas.text(layout.label_x, y, layout.axis_name, DIM_TEXT)
    header = "busy"
    canvas.text(layout.busy_x1 - text_width(header), layout.axis_top_y,
                header, DIM_TEXT)
    last_right = -1
    for text, x in layout.ticks:
        canvas.fill_rect(x, layout.lanes_y0 - 1 - TICK_LEN, x + 1,
                         layout.lanes_y0 - 1, FRAME)
        canvas.fill_rect(x, layout.lanes_y1 + 1, x + 1,
                         layout.lanes_y1 + 1 + TICK_LEN, FRAME)
        label_w = text_width(text)
        left = min(max(x - label_w // 2, layout.plot_x0 - 8),
                   layout.plot_x1 + 8 - label_w)
        if left <= last_right + 6:
            continue                    # would run into the previous label
        for y in (layout.axis_top_y, layout.axis_bottom_y):
            canvas.text(left, y, text, DIM_TEXT)
        last_right = left + label_w


def draw_events(canvas, layout):
    """Every visible event: fills first (chunks, copies, waits, others, by
    start time), then launch outlines on top so waits inside stay visible."""
    fills = []
    outlines = []
    for event in layout.visible:
        kind = event.kind
        (outlines if kind == "launch" else fills).append((event, kind))
    fills.sort(key=lambda item: item[0].start)
    last_drawn = {}
    for event, kind in fills:
        span = layout.x_span(event.start, event.end)
        if span is None:
            continue
        y0, y1 = layout.y_span(event.lane, kind)
        colour = event_colour(event, kind, layout.kernel_colours)
        failed = kind == "chunk" and event.args.get("failed") is True
        # Many short events land on the same pixels; draw those once.
        drawn = (span, colour, failed)
        if last_drawn.get((event.lane, y0)) == drawn:
            continue
        last_drawn[(event.lane, y0)] = drawn
        canvas.fill_rect(span[0], y0, span[1], y1, colour)
        if (kind == "chunk" and span[1] - span[0] >= 4
                and event.start >= layout.t_from):
            # A darker first column separates back-to-back chunks.
            canvas.fill_rect(span[0], y0, span[0] + 1, y1, darker(colour))
        _label_inside(canvas, event, kind, span, y0, y1, colour)
        if failed:
            canvas.outline_rect(span[0], y0, span[1], y1, FAILED_COLOUR)
    for event, kind in outlines:
        span = layout.x_span(event.start, event.end)
        if span is None:
            continue
        y0, y1 = layout.y_span(event.lane, kind)
        canvas.outline_rect(span[0], y0, span[1], y1, LAUNCH_COLOUR)


def _label_inside(canvas, event, kind, span, y0, y1, colour):
    """Write the event's name (or its kernel's) into its rectangle when the
    rectangle is wide and tall enough."""
    if y1 - y0 < GLYPH_ROWS or span[1] - span[0] < 3 * ADVANCE:
        return
    room = span[1] - span[0] - 4
    candidates = [event.name]
    if kind == "chunk":
        candidates.append(event.detail)
    for text in candidates:
        if text and text_width(text) <= room:
            y = y0 + max(0, (y1 - y0 - CAP_H) // 2)
            canvas.text(span[0] + 2, y, text, text_colour_on(colour))
            return


def draw_legend(canvas, layout):
    """The colour key along the bottom."""
    for row, x, kind, (colour, text) in layout.legend:
        y = layout.legend_y + row * LINE_H
        if kind != "heading":
            swatch = (x, y, x + SWATCH_W, y + CAP_H)
            if kind == "fill":
                canvas.fill_rect(*swatch, colour)
            else:
                canvas.outline_rect(*swatch, colour)
            x += SWATCH_W + 4
        canvas.text(x, y, text, TEXT if kind != "heading" else DIM_TEXT)


def render(trace, width=1600, from_ms=None, to_ms=None, title=None,
           source="trace"):
    """Draw trace; return (Canvas, Layout).  The default title is source's
    basename and the trace's span."""
    if title is None:
        span_ms = (trace.t_last - trace.t_first) / 1000.0
        title = "%s - span %.3f ms" % (os.path.basename(source), span_ms)
        if from_ms is not None or to_ms is not None:
            title += ", showing %s to %s ms" % (
                "%g" % from_ms if from_ms is not None else "0",
                "%g" % to_ms if to_ms is not None else "%.3f" % span_ms)
        if trace.dropped:
            title += " (%d later events dropped)" % trace.dropped
    layout = Layout(trace, width, from_ms, to_ms, title)
    canvas = Canvas(layout.width, layout.height, BACKGROUND)
    draw_frame(canvas, layout)
    draw_events(canvas, layout)
    draw_legend(canvas, layout)
    return canvas, layout


# ---------------------------------------------------------------------------
# Self-test
# ---------------------------------------------------------------------------

def synthetic_trace_json():
    """A small trace in hetero's format: lanes cuda:0 (tid 0), cpu (tid 1)
    and host (tid 100); every category; B/E pairs, one nested; an instant
    and a counter event that must be ignored."""
    kernel = "__omp_offloading_10302_2a8e6c1_main_l88"
    events = [
        {"name": "process_name", "ph": "M", "pid": 1,
         "args": {"name": "hetero"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 0,
         "args": {"name": "cuda:0"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1,
         "args": {"name": "cpu"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 100,
         "args": {"name": "host"}},
        {"name": "launch main_l88", "cat": "launch", "ph": "X", "ts": 1000,
         "dur": 1000, "pid": 1, "tid": 100, "args": {}},
        {"name": "wait", "cat": "wait", "ph": "X", "ts": 1600, "dur": 200,
         "pid": 1, "tid": 100, "args": {}},
        {"name": "region", "cat": "phase", "ph": "B", "ts": 1020, "pid": 1,
         "tid": 100},
        {"name": "inner", "cat": "wait", "ph": "B", "ts": 1030, "pid": 1,
         "tid": 100},
        {"ph": "E", "ts": 1060, "pid": 1, "tid": 100},
        {"ph": "E", "ts": 1080, "pid": 1, "tid": 100},
        {"name": "h2d 1.0 MiB", "cat": "copy", "ph": "X", "ts": 1000,
         "dur": 100, "pid": 1, "tid": 0,
         "args": {"bytes": 1048576, "from": "host", "to": "cuda:0"}},
        {"name": "main_l88 [0,8190)", "cat": "chunk", "ph": "X", "ts": 1100,
         "dur": 500, "pid": 1, "tid": 0,
         "args": {"kernel": kernel, "iterations": 8190, "launch": 3}},
        {"name": "d2h 1.0 MiB", "cat": "copy", "ph": "X", "ts": 1500,
         "dur": 200, "pid": 1, "tid": 0, "args": {}},
        {"name": "saxpy_l12 [0,4096)", "cat": "chunk", "ph": "X",
         "ts": 1750, "dur": 200, "pid": 1, "tid": 0,
         "args": {"kernel": "__omp_offloading_10302_2a8e6c1_saxpy_l12"}},
        {"name": "copy", "cat": "copy", "ph": "X", "ts": 1960, "dur": 30,
         "pid": 1, "tid": 0, "args": {"from": "cuda:1", "to": "cuda:0"}},
        {"name": "main_l88 [8190,10000)", "cat": "chunk", "ph": "B",
         "ts": 1100, "pid": 1, "tid": 1, "args": {"kernel": kernel}},
        {"ph": "E", "ts": 1500, "pid": 1, "tid": 1,
         "args": {"iterations": 1810}},
        {"name": "h2h 64 KiB", "cat": "copy", "ph": "X", "ts": 1600,
         "dur": 100, "pid": 1, "tid": 1, "args": {}},
        {"name": "sync", "cat": "sync", "ph": "X", "ts": 1800, "dur": 100,
         "pid": 1, "tid": 1, "args": {}},
        {"name": "main_l88 [10000,10001)", "cat": "chunk", "ph": "X",
         "ts": 1950, "dur": 0.01, "pid": 1, "tid": 1,
         "args": {"kernel": kernel}},
        {"name": "mark", "ph": "i", "ts": 1234, "pid": 1, "tid": 1},
        {"name": "bytes", "ph": "C", "ts": 1300, "pid": 1,
         "args": {"v": 3}},
    ]
    return json.dumps({"displayTimeUnit": "ms", "traceEvents": events})


def _check(condition, description):
    """Raise SelfTestFailure(description) unless condition holds."""
    if not condition:
        raise SelfTestFailure(description)


def _expect_error(text, fragment):
    """parse_trace(text) must raise TraceError mentioning fragment."""
    try:
        parse_trace(text)
    except TraceError as err:
        _check(fragment in str(err), "parse error for %r says %r, expected "
               "it to mention %r" % (text[:40], str(err), fragment))
        return
    except Exception as err:  # pylint: disable=broad-except
        raise SelfTestFailure("parse of %r raised %s, not TraceError"
                              % (text[:40], type(err).__name__)) from None
    raise SelfTestFailure("parse of %r did not fail" % text[:40])


def _self_test_parsing():
    """Checks of the reader: lanes, B/E pairing, busy shares, the array
    forms and the error messages.  Returns the parsed synthetic trace."""
    trace = parse_trace(synthetic_trace_json())
    _check(trace.lanes == [(1, 0), (1, 1), (1, 100)],
           "lanes ordered by tid: got %r" % (trace.lanes,))
    _check([trace.labels[lane] for lane in trace.lanes]
           == ["cuda:0", "cpu", "host"],
           "lane labels from thread_name: got %r" % (trace.labels,))
    _check(len(trace.events) == 13,
           "13 drawable events (X and B/E pairs, no i/C), got %d"
           % len(trace.events))
    spans = {e.name: (e.start, e.end) for e in trace.events}
    _check(spans.get("inner") == (1030, 1060)
           and spans.get("region") == (1020, 1080),
           "nested B/E pairs close innermost first: got inner %r, region %r"
           % (spans.get("inner"), spans.get("region")))
    chunk = [e for e in trace.events if e.name.startswith("main_l88 [8190")]
    _check(len(chunk) == 1 and (chunk[0].start, chunk[0].end) == (1100, 1500)
           and chunk[0].args.get("iterations") == 1810
           and chunk[0].kind == "chunk",
           "B/E chunk on the cpu lane spans 1100-1500 with merged args")
    by_lane = {lane: [e for e in trace.events if e.lane == lane]
               for lane in trace.lanes}
    gpu_busy = busy_fraction(by_lane[(1, 0)], trace.t_first, trace.t_last)
    _check(abs(gpu_busy - 0.93) < 1e-9,
           "cuda:0 busy share is 93%% (union of chunks and copies), got %r"
           % gpu_busy)
    _check(busy_fraction(by_lane[(1, 100)], 1000, 2000) is None,
           "host lane (waits and launches only) has no busy share")
    _check((1, 0) in set(lane for lane in trace.lanes
                         if lane_needs_split(by_lane[lane], 1000, 2000))
           and not lane_needs_split(by_lane[(1, 1)], 1000, 2000),
           "cuda:0 (copy during a chunk) splits, cpu does not")
    for name, args, label in (
            ("main_l88 [0,8190)",
             {"kernel": "__omp_offloading_..._main_l88"}, "main_l88"),
            ("chunk", {"kernel": "__omp_offloading_fe00_51004c_main_l88"},
             "main_l88"),
            ("main_l88 (whole)", {}, "main_l88"),
            ("dot [0,10]", {"kernel": 7}, "dot")):
        got = kernel_label(name, args)
        _check(got == label, "kernel label of %r %r is %r, expected %r"
               % (name, args, got, label))
    directions = sorted(e.detail for e in trace.events
                        if e.kind == "copy")
    _check(directions == ["d2d", "d2h", "h2d", "h2h"],
           "copy directions from names and from/to args: got %r"
           % directions)

    raw = json.loads(synthetic_trace_json())["traceEvents"]
    bare = parse_trace(json.dumps(raw))
    _check(len(bare.events) == len(trace.events),
           "bare array form reads the same events")
    truncated = json.dumps(raw)[:-1] + ",\n"
    _check(len(parse_trace(truncated).events) == len(trace.events),
           "array form without its closing bracket reads the same events")
    _expect_error("", "empty file")
    _expect_error("  \n", "empty file")
    _expect_error('{"traceEvents": [', "not valid JSON")
    _expect_error('{"traceEvents": 3}', "not an array")
    _expect_error('{"events": []}', "traceEvents")
    _expect_error("42", "not an object or an array")
    _expect_error('[{"ph": "M", "name": "thread_name"}]', "no events")
    _expect_error('[{"ph": "X", "ts": "soon", "dur": 1}]', "no events")
    _expect_error("[" * 100000, "nested too deeply")
    return trace


def _self_test_png(trace, directory):
    """Render the synthetic trace, write it, re-read the PNG and check its
    structure and the colours where rectangles must (not) be."""
    canvas, layout = render(trace, 900, source="synthetic.json")
    path = os.path.join(directory, "self-test.png")
    with open(path, "wb") as handle:
        handle.write(canvas.png())
    with open(path, "rb") as handle:
        try:
            width, height, rows = decode_png(handle.read())
        except ValueError as err:
            raise SelfTestFailure("written PNG does not decode: %s" % err)
    _check((width, height) == (canvas.width, canvas.height),
           "IHDR size %dx%d matches the canvas %dx%d"
           % (width, height, canvas.width, canvas.height))

    def at(t, lane, kind, fraction=0.0):
        """The decoded colour at time t inside lane's rows for kind; the
        default, the rectangle's top row, is clear of any label in it."""
        x = int(math.floor(layout.x_of(t)))
        y0, y1 = layout.y_span(lane, kind)
        y = y0 + int((y1 - y0 - 1) * fraction)
        return tuple(rows[y][3 * x:3 * x + 3]), x, y

    gpu, cpu, host = (1, 0), (1, 1), (1, 100)
    main_colour = layout.kernel_colours["main_l88"]
    saxpy_colour = layout.kernel_colours["saxpy_l12"]
    expectations = [
        (1350, gpu, "chunk", main_colour, "main_l88 chunk midpoint, cuda:0 "
         "top half"),
        (1550, gpu, "chunk", main_colour, "main_l88 chunk over a copy, "
         "cuda:0 top half"),
        (1550, gpu, "copy", COPY_COLOURS["d2h"], "d2h copy under a chunk, "
         "cuda:0 bottom half"),
        (1650, gpu, "copy", COPY_COLOURS["d2h"], "d2h copy midpoint, "
         "cuda:0 bottom half"),
        (1050, gpu, "copy", COPY_COLOURS["h2d"], "h2d copy midpoint"),
        (1850, gpu, "chunk", saxpy_colour, "saxpy_l12 chunk midpoint"),
        (1975, gpu, "copy", COPY_COLOURS["d2d"], "d2d copy (from/to args)"),
        (1300, cpu, "chunk", main_colour, "B/E chunk on cpu, same kernel "
         "colour as on cuda:0"),
        (1650, cpu, "copy", COPY_COLOURS["h2h"], "h2h copy on cpu"),
        (1850, cpu, "other", OTHER_COLOUR, "uncategorised event, neutral"),
        (1950, cpu, "chunk", main_colour, "0.01 us chunk drawn 1 px wide"),
        (1700, host, "wait", WAIT_COLOUR, "wait on host"),
        (1045, host, "wait", WAIT_COLOUR, "nested B/E wait on host"),
    ]
    _check(main_colour != saxpy_colour,
           "different kernels get different colours")
    for t, lane, kind, colour, what in expectations:
        got, x, y = at(t, lane, kind)
        _check(got == colour, "%s: pixel (%d, %d) is %r, expected %r"
               % (what, x, y, got, colour))
    for t, fraction, what in ((1000, 0.5, "left edge"),
                              (1400, 0.0, "top edge"),
                              (1400, 1.0, "bottom edge")):
        got, x, y = at(t, host, "launch", fraction)
        _check(got == LAUNCH_COLOUR, "launch outline %s: pixel (%d, %d) is "
               "%r, expected %r" % (what, x, y, got, LAUNCH_COLOUR))

    tick_xs = set(x for _, x in layout.ticks)
    for t, lane in ((1550, cpu), (1400, host), (1720, gpu)):
        got, x, y = at(t, lane, "other")
        if x in tick_xs:
            got, x, y = at(t + 2, lane, "other")
        colour = layout.lane_background(lane)
        _check(got == colour, "empty stretch of lane %s at %g us: pixel "
               "(%d, %d) is %r, expected the lane background %r"
               % (layout.labels[lane], t, x, y, got, colour))
    _check(tuple(rows[height - 1][0:3]) == BACKGROUND
           and tuple(rows[layout.lanes_y0][3 * (width - 2):3 * (width - 1)])
           == BACKGROUND, "image background outside the plot")
    title_row = rows[layout.title_y + 4]
    _check(any(tuple(title_row[i:i + 3]) == TEXT
               for i in range(0, 3 * width, 3)), "title text drawn")
    _check(len(layout.ticks) >= 5 and layout.busy[gpu] == "93.0%"
           and layout.busy[host] == "-",
           "axis ticks and busy column: ticks %r, busy %r"
           % (layout.ticks, layout.busy))

    # A window from 0.5 to 1.0 ms starts with the main_l88 chunk's last
    # 0.1 ms; its first column must have the chunk's colour.
    window_canvas, window = render(trace, 900, from_ms=0.5, to_ms=1.0)
    y0, y1 = window.y_span(gpu, "chunk")
    got = window_canvas.pixel(window.plot_x0, (y0 + y1) // 2)
    _check(got == main_colour, "window --from 0.5 --to 1.0: first column "
           "of cuda:0 is %r, expected the main_l88 colour %r"
           % (got, main_colour))
    return path


def _self_test_cli(directory):
    """The command line: a good trace writes a PNG, a bad one exits 2 with
    one line on stderr."""
    good = os.path.join(directory, "good.json")
    bad = os.path.join(directory, "bad.json")
    out = os.path.join(directory, "cli.png")
    with open(good, "w", encoding="utf-8") as handle:
        handle.write(synthetic_trace_json())
    with open(bad, "w", encoding="utf-8") as handle:
        handle.write('{"traceEvents": [{"ph": "X",')
    quiet = io.StringIO()
    with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
        status = main([good, out, "--width", "640", "--title", "cli"])
    _check(status == EXIT_OK and os.path.getsize(out) > 0,
           "command line renders a good trace (status %r, output %r)"
           % (status, quiet.getvalue()))
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors):
        status = main([bad, out])
    message = errors.getvalue()
    _check(status == EXIT_USAGE and message.count("\n") == 1
           and message.startswith("trace-plot: %s: " % bad),
           "malformed trace exits 2 with one stderr line (status %r, "
           "stderr %r)" % (status, message))


def self_test():
    """Run every check; print the first failure.  Returns the exit status."""
    try:
        trace = _self_test_parsing()
        with tempfile.TemporaryDirectory(prefix="trace-plot-") as directory:
            _self_test_png(trace, directory)
            _self_test_cli(directory)
    except SelfTestFailure as failure:
        print("trace-plot: self-test failed: %s" % failure, file=sys.stderr)
        return EXIT_FAIL
    print("trace-plot: self-test passed")
    return EXIT_OK


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def build_parser():
    """The argument parser."""
    parser = argparse.ArgumentParser(
        prog="trace-plot.py",
        description="Draw a HETERO_TRACE timeline (Chrome trace event JSON) "
                    "to a PNG: one lane per thread, chunks by kernel, copies "
                    "by direction, waits in grey, launches as outlines, and "
                    "each lane's busy share.")
    parser.add_argument("trace", nargs="?", metavar="TRACE.json",
                        help="trace written with HETERO_TRACE=<file>")
    parser.add_argument("out", nargs="?", metavar="OUT.png",
                        help="PNG to write")
    parser.add_argument("--width", type=int, default=1600, metavar="PX",
                        help="image width in pixels (default 1600)")
    parser.add_argument("--from", dest="from_ms", type=float, metavar="MS",
                        help="window start, ms after the first event")
    parser.add_argument("--to", dest="to_ms", type=float, metavar="MS",
                        help="window end, ms after the first event")
    parser.add_argument("--title", metavar="TEXT",
                        help="title line (default: the trace "
                        "file's name and span)")
    parser.add_argument("--self-test", action="store_true",
                        help="render a built-in trace and check the PNG")
    return parser


def main(argv=None):
    """Entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.self_test:
        if args.trace or args.out:
            parser.error("--self-test takes no files")
        return self_test()
    if not args.trace or not args.out:
        parser.error("TRACE.json and OUT.png are required")
    if not MIN_WIDTH <= args.width <= MAX_WIDTH:
        parser.error("--width must be between %d and %d"
                     % (MIN_WIDTH, MAX_WIDTH))
    for option, value in (("--from", args.from_ms), ("--to", args.to_ms)):
        if value is not None and not math.isfinite(value):
            parser.error("%s must be a finite number of ms" % option)
    if (args.from_ms is not None and args.to_ms is not None
            and args.from_ms >= args.to_ms):
        parser.error("--from must be before --to")

    try:
        trace = load_trace(args.trace)
        canvas, layout = render(trace, args.width, args.from_ms, args.to_ms,
                                args.title, source=args.trace)
    except TraceError as err:
        print("trace-plot: %s: %s" % (args.trace, err), file=sys.stderr)
        return EXIT_USAGE
    if trace.skipped:
        print("trace-plot: %s: warning: left out %d malformed event%s"
              % (args.trace, trace.skipped,
                 "" if trace.skipped == 1 else "s"), file=sys.stderr)
    if trace.dropped:
        print("trace-plot: %s: warning: the writer dropped %d events; the "
              "plot ends where it stopped recording"
              % (args.trace, trace.dropped), file=sys.stderr)
    try:
        with open(args.out, "wb") as handle:
            handle.write(canvas.png())
    except OSError as err:
        print("trace-plot: %s: cannot write: %s"
              % (args.out, err.strerror or err), file=sys.stderr)
        return EXIT_FAIL
    print("trace-plot: wrote %s (%dx%d, %d lanes, %d events)"
          % (args.out, canvas.width, canvas.height, len(layout.lanes),
             len(layout.visible)))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
