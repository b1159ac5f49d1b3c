# SPDX-License-Identifier: GPL-2.0
"""The one reader of results files for the Python tools (doc/output.rst).

Its knowledge of line kinds and field names is results.schema's, parsed
here once: tools/results/schema.py imports read_schema() and the line
grammar below instead of keeping its own copies.

  read_files(PATHS)   every block of the files, in order: a Block per
                      "format:" line, with its header (the "KEY: value"
                      lines, in order), its test:, skip:, cpu: and
                      failed: rows and format 4's profile lines
  read_schema(PATH)   {kind: [Field, ...]} of results.schema

The reader is strict: it reads formats 3 and 4 (4 is 3 with the exact
profile's lines, doc/profile.rst) and refuses, with ResultsError
"FILE:LINE: why", a byte that is not printable UTF-8, a line that is
not "KEY: value", a declared line or field that is not as declared, a
key or test given twice, a value not of its type, a field or line
every writer writes that is missing, and a block cut before its end:
line.  bench-compare --check reads each file first, the one strict
reader: a file it refuses is refused with its FILE:LINE.  What this
reader does not refuse, bench-compare reads too (fields apart
by blanks or tabs, lines of blanks, a line or field added later).
Format 4's profile lines are taken as they are, key=value with name=
first: no Python tool reads their values, and bench-compare checks
them.  Formats 1 and 2, which only bench-compare reads, are refused
with their own line.
"""
import os
import re
import subprocess
import unicodedata

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCHEMA = os.path.join(TOP, "results.schema")

NAME = r"[A-Za-z0-9_-]{1,64}"
MILLI3 = r"[0-9]+\.[0-9]{3}"
PATH = r"(cache|ring|allocator|frag|unknown)"
STAT_SUM = r"[a-z_]+(\+[a-z_]+)*:[0-9]+"
# What entered timed windows, by kind (doc/windows.rst)
ENTERED = r"(switch|irq|timer|ipi|nmi|softirq|smi):[0-9]+"
# The types results.schema may give a field or line (its header says
# what each is).
TYPES = {
    "name": NAME,
    "name_or_dash": NAME + "|-",
    "names_or_dash": NAME + "(," + NAME + ")*|-",
    "uint": r"[0-9]+",
    "int": r"-?[0-9]+",
    "uint_or_dash": r"[0-9]+|-",
    "word": r"[a-z0-9_]+",
    "dash": r"-",
    "milli2": r"[0-9]+\.[0-9]{2}",
    "milli3": MILLI3,
    "milli3_list": MILLI3 + "(," + MILLI3 + ")*",
    "paths_or_dash": PATH + "(," + PATH + ")*|-",
    "stat_sums": STAT_SUM + "(," + STAT_SUM + ")*|-",
    "entered": ENTERED + "(," + ENTERED + ")*|-",
    "text": r".+",
    # of "KEY: value" lines
    "format": r"bench_page_pool_simple [0-9]+",
    "clock": r"instructions|cycles",
    "accel": r"none|kvm|tcg|other",
    "yes_no": r"yes|no",
    "words": r"[a-z_][a-z0-9_.]*=\S+( [a-z_][a-z0-9_.]*=\S+)*",
    "words_or_none": r"[a-z_][a-z0-9_.]*=\S+( [a-z_][a-z0-9_.]*=\S+)*|none",
    "names": NAME + "(," + NAME + ")*",
    "end": r"tests=[0-9]+ skips=[0-9]+",
    # the kernel's boot_id as env_lib.sh collects it
    "uuid_or_unavailable": r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}|unavailable",
}
# What a value of each type of a key=value field is, in the readers'
# messages ("test T: KEY=VALUE is not ...").
TYPE_WORDS = {
    "name": "a test name (1 to 64 of A-Z a-z 0-9 _ -)",
    "name_or_dash": "a test name or -",
    "names_or_dash": "a list of test names or -",
    "uint": "a whole number",
    "int": "a whole number, - before a negative one",
    "uint_or_dash": "a whole number or -",
    "word": "a word of a-z, 0-9 and _",
    "dash": "-",
    "milli2": "a number with two decimals",
    "milli3": "a number with three decimals",
    "milli3_list": "a list of numbers with three decimals",
    "paths_or_dash": "a list of paths (cache, ring, allocator, frag, unknown) or -",
    "stat_sums": "a list of counter sums (name+name:N) or -",
    "entered": "a list of kinds and counts (switch, irq, timer, ipi, nmi, softirq, smi:N) or -",
    "text": "text",
}
PRESENCE = ("required", "always", "module", "pmu", "nopmu", "stats", "e2e",
            "e2e_path", "collected")
KINDS = ("test", "skip", "cpu", "failed")	# lines of key=value fields
LINE = "line"				# "KEY: value" lines of a block
# Format 4's, the host's (doc/profile.rst): not declared in the schema.
PROFILE_LINES = ("profile", "prof", "prof_fn")
PROFILE_ROWS = ("prof", "prof_fn")	# of key=value fields, name= first
FORMATS = (3, 4)
PROFILE_FORMAT = 4

# "KEY:", blanks (spaces or tabs) and the value, or nothing after it
KEY_LINE = re.compile(r"([a-z_]+):(?:[ \t]+(.*))?")
EXACT_KEY_LINE = re.compile(r"([a-z_]+): (.*)")
BLANKS = re.compile(r"[ \t]+")
# types of a "KEY: value" line that may be empty for a reader
EMPTY_OK = ("text", "words", "words_or_none")
FIELD_KEY = re.compile(r"[a-z_][a-z0-9_]*")
FORMAT_LINE = re.compile(r"bench_page_pool_simple ([0-9])")
END_LINE = re.compile(r"tests=([0-9]+) skips=([0-9]+)")
# Unicode's control, format (bidi marks, zero-width characters, U+FEFF)
# and line and paragraph separator characters: never in a results file.
UNPRINTABLE = ("Cc", "Cf", "Zl", "Zp")


class ResultsError(Exception):
    """A results file or schema refused: str() is "WHERE: why", WHERE
    its FILE:LINE (or FILE when no line is to blame)."""

    def __init__(self, where, why):
        super().__init__(f"{where}: {why}")


class Field:
    """A field of a row kind, or a "KEY: value" line, as declared."""

    def __init__(self, kind, key, type_, presence):
        self.kind, self.key, self.type, self.presence = \
            kind, key, type_, presence
        self.pattern = re.compile("(" + TYPES[type_] + ")")


def read_text(path):
    """PATH's text, which must be UTF-8."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ResultsError(path, f"cannot read it: {e}") from None


def schema_field(path, n, line, fields):
    """The Field of results.schema's line N, checked against FIELDS so far."""
    where = f"{path}:{n}"
    words = line.split()
    if len(words) != 4:
        raise ResultsError(where, "expected \"KIND KEY TYPE PRESENCE\"")
    kind, key, type_, presence = words
    if kind not in fields:
        raise ResultsError(where, f"kind {kind}: accepted: {', '.join(fields)}")
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", key):
        raise ResultsError(where, f"key {key}: a-z, 0-9 and _, not a digit first")
    if type_ not in TYPES:
        raise ResultsError(where, f"type {type_}: accepted: {', '.join(TYPES)}")
    if presence not in PRESENCE:
        raise ResultsError(where, f"presence {presence}: accepted: {', '.join(PRESENCE)}")
    if any(f.key == key for f in fields[kind]):
        raise ResultsError(where, f"{kind}: {key} declared twice")
    return Field(kind, key, type_, presence)


def read_schema(path=SCHEMA):
    """{kind: [Field, ...]} in the order of the file, read strictly."""
    fields = {kind: [] for kind in KINDS + (LINE,)}
    for n, line in enumerate(read_text(path).split("\n"), 1):
        if line.strip() and not line.startswith("#"):
            field = schema_field(path, n, line, fields)
            fields[field.kind].append(field)
    for kind in KINDS:
        if not fields[kind] or fields[kind][0].key != "name":
            raise ResultsError(path, f"{kind}: lines must declare name first")
    keys = [f.key for f in fields[LINE]]
    if keys[:1] != ["format"] or keys[-1:] != ["end"]:
        raise ResultsError(path, "line: format first and end last")
    return fields


# The line grammar, which tools/results/schema.py shares.

def numbered_lines(path):
    """[(number, line)] of PATH, a CR before a newline dropped (a file
    that crossed a serial line); a byte that is not printable UTF-8 is
    refused at its line."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ResultsError(path, f"cannot read it: {e}") from None
    lines = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        try:
            line = raw.removesuffix(b"\r").decode("utf-8")
        except UnicodeDecodeError as e:
            raise ResultsError(f"{path}:{n}", "a byte that is not UTF-8 at "
                               f"column {e.start + 1}") from None
        unprintable(f"{path}:{n}", line)
        lines.append((n, line))
    return lines


def unprintable(where, line):
    """Refuses a LINE that holds a character no writer writes."""
    bad = next((c for c in line
                if c != "\t" and unicodedata.category(c) in UNPRINTABLE), None)
    if bad is not None:
        what = "a NUL byte" if bad == "\0" else f"the unprintable U+{ord(bad):04X}"
        raise ResultsError(where, f"{what} at column {line.index(bad) + 1}")


def key_line(line, exact=False):
    """(KEY, value) of a "KEY: value" line, or None.  EXACT: as the
    writers write it, one blank after the colon (results/schema.py)."""
    if exact:
        m = EXACT_KEY_LINE.fullmatch(line)
        return m.groups() if m else None
    m = KEY_LINE.fullmatch(line)
    return (m.group(1), (m.group(2) or "").rstrip(" \t")) if m else None


def rest_key(fields, kind):
    """The field of KIND that takes the rest of its line (a skip:'s
    reason=, the only text one), or None."""
    return next((f.key for f in fields.get(kind, ()) if f.type == "text"), None)


def row_words(fields, kind, rest, exact=False):
    """The words of a row line after its "KIND: ": its key=value fields,
    one taking the rest of the line if results.schema says so.  EXACT:
    words apart by one blank, as the writers write them."""
    key = rest_key(fields, kind)
    if exact:
        if key is None:
            return rest.split(" ")
        head, sep, tail = rest.partition(f" {key}=")
        return head.split(" ") + ([f"{key}={tail}"] if sep else [])
    m = key and re.search(r"(^|[ \t])" + key + "=", rest)
    if not m:
        return BLANKS.split(rest.strip(" \t"))
    head = rest[:m.start()].strip(" \t")
    return (BLANKS.split(head) if head else []) + [key + "=" + rest[m.end():]]


def word_pair(word):
    """(key, value) of a key=value word, or None: a key of a-z, 0-9 and
    _ (not a digit first) and a value of one byte or more, as
    bench-compare takes them."""
    key, eq, value = word.partition("=")
    return (key, value) if eq and value and FIELD_KEY.fullmatch(key) else None


# The strict reader.

class Row(dict):
    """A row line's fields, {key: value}, and where it is for messages.
    Asking it for a field its kind does not declare is the asker's bug:
    a KeyError."""

    def __init__(self, kind, declared, pairs, where):
        super().__init__(pairs)
        self.kind, self.declared, self.where = kind, declared, where

    def _known(self, key):
        if self.declared is not None and key not in self.declared:
            raise KeyError(f"{key}: not a field of {self.kind}: lines "
                           "in results.schema")

    def get(self, key, default=None):
        self._known(key)
        return super().get(key, default)

    def __missing__(self, key):
        self._known(key)
        raise KeyError(key)


class Block:
    """One load: the lines from a "format:" line to its end: line."""

    def __init__(self, path, number, version):
        self.path, self.number, self.format = path, number, version
        self.header = {}	# "KEY: value" lines, format: first, in order
        self.rows = {kind: [] for kind in KINDS + PROFILE_ROWS}
        self.profile = None	# format 4's profile: line, its value
        self.names = set()	# of its test: and skip: lines
        self.ended = False

    @property
    def where(self):
        return f"{self.path}:{self.number}"


class Reader:
    """Reads one file's blocks against the schema's FIELDS."""

    def __init__(self, path, fields):
        self.path, self.fields = path, fields
        self.lines = {f.key: f for f in fields[LINE]}
        self.blocks = []

    def refuse(self, n, why):
        raise ResultsError(f"{self.path}:{n}", why)

    def read(self):
        for n, line in numbered_lines(self.path):
            # a line of blanks is none, as for bench-compare
            if line.strip(" \t"):
                self.line(n, line)
        if not self.blocks:
            raise ResultsError(self.path, "no format: line: not a results file")
        self.close()
        return self.blocks

    def line(self, n, line):
        pair = key_line(line)
        if pair and pair[0] == "format":
            self.close()
            self.open(n, pair[1])
        if not self.blocks:
            self.refuse(n, "a line before the first format: line")
        block = self.blocks[-1]
        if pair is None:
            self.refuse(n, "not a \"KEY: value\" line")
        if block.ended and pair[0] != "format":
            self.refuse(n, "a line after the end: line")
        key, value = pair
        if key in KINDS:
            self.row(block, n, key, value)
        elif key in PROFILE_LINES:
            self.profile_line(block, n, key, value)
        elif key in self.lines:
            self.header_line(block, n, key, value)
        # else a line added after this reader: readers ignore what they
        # do not know (doc/output.rst), as bench-compare does

    def open(self, n, value):
        m = FORMAT_LINE.fullmatch(value)
        if not m:
            self.refuse(n, "bad format line: expected \"format: bench_page_pool_simple N\"")
        version = int(m.group(1))
        if version not in FORMATS:
            self.refuse(n, f"format {version}: the Python tools read formats 3 and 4 "
                        "(bench-compare reads 1 to 4)")
        self.blocks.append(Block(self.path, n, version))

    def header_line(self, block, n, key, value):
        field = self.lines[key]
        if key in block.header:
            self.refuse(n, f"{key}: given twice in the block")
        # bench-compare takes an empty line of text or words as empty
        empty_ok = value == "" and field.type in EMPTY_OK
        if not empty_ok and not field.pattern.fullmatch(value):
            self.refuse(n, f"{key}: {value} is no {field.type}")
        block.header[key] = value
        if key == "end":
            self.end(block, n, value)

    def end(self, block, n, value):
        """The end: line's counts are the block's: else it was cut."""
        tests, skips = (int(c) for c in END_LINE.fullmatch(value).groups())
        have = len(block.rows["test"]), len(block.rows["skip"])
        if (tests, skips) != have:
            self.refuse(n, f"end: says tests={tests} skips={skips}, the block has "
                        f"{have[0]} test: and {have[1]} skip: lines (cut short?)")
        block.ended = True

    def pairs(self, n, kind, words):
        """[(key, value)] of a row's WORDS: name= first, each key once."""
        pairs = []
        for word in words:
            pair = word_pair(word)
            if pair is None:
                self.refuse(n, f"{kind}: \"{word}\" is not a key=value field")
            if any(pair[0] == key for key, _ in pairs):
                self.refuse(n, f"{kind}: {pair[0]}= given twice")
            pairs.append(pair)
        if not pairs or pairs[0][0] != "name":
            self.refuse(n, f"{kind}: line without name=TEST first")
        return pairs

    def row(self, block, n, kind, rest):
        declared = {f.key: f for f in self.fields[kind]}
        pairs = self.pairs(n, kind, row_words(self.fields, kind, rest))
        # a field added after this reader is ignored (doc/output.rst)
        pairs = [(key, value) for key, value in pairs if key in declared]
        for key, value in pairs:
            field = declared[key]
            if not field.pattern.fullmatch(value):
                self.refuse(n, f"{kind} {pairs[0][1]}: {key}={value} is not "
                            f"{TYPE_WORDS[field.type]}")
        row = Row(kind, declared, pairs, f"{self.path}:{n}")
        for field in declared.values():
            if field.presence == "required" and field.key not in row:
                self.refuse(n, f"{kind} {row['name']}: no {field.key}= "
                            "(every writer writes it: cut short?)")
        if kind in ("test", "skip"):
            if row["name"] in block.names:
                self.refuse(n, f"test {row['name']} given twice in the block")
            block.names.add(row["name"])
        block.rows[kind].append(row)

    def profile_line(self, block, n, key, value):
        """Format 4's lines, whose fields results.schema leaves to
        doc/profile.rst: taken as they are, key=value and name= first."""
        if block.format < PROFILE_FORMAT:
            self.refuse(n, f"{key}: a format 4 line in a format {block.format} block")
        if key == "profile":
            if block.profile is not None:
                self.refuse(n, "profile: given twice in the block")
            block.profile = value
            return
        pairs = self.pairs(n, key, BLANKS.split(value.strip(" \t")))
        block.rows[key].append(Row(key, None, pairs, f"{self.path}:{n}"))

    def close(self):
        """The open block has every line every writer writes."""
        if not self.blocks:
            return
        block = self.blocks[-1]
        for field in self.fields[LINE]:
            if field.presence == "required" and field.key not in block.header:
                raise ResultsError(block.where, f"format {block.format} block "
                                   f"without its {field.key}: line (cut short?)")


_schema = None


def default_schema():
    """results.schema's fields, read once."""
    global _schema
    if _schema is None:
        _schema = read_schema()
    return _schema


def compare_check(path):
    """bench-compare --check of PATH, the one strict reader: what it
    refuses (a number that disagrees with its totals, a profile that
    does not add up, a line over 64 KiB) is refused here with its
    FILE:LINE, so that every reader gives one verdict on one file.
    BENCH_COMPARE names it, else the tree's tools/compare/bench-compare."""
    prog = os.environ.get("BENCH_COMPARE") or \
        os.path.join(TOP, "tools", "compare", "bench-compare")
    try:
        p = subprocess.run([prog, "--check", path], stdin=subprocess.DEVNULL,
                           capture_output=True, check=False)
    except OSError as e:
        raise ResultsError(path, f"cannot run bench-compare ({prog}: {e.strerror}; "
                           "make -C tools/compare builds it)") from None
    if p.returncode == 0:
        return
    why = p.stderr.decode("utf-8", "replace").split("\n", 1)[0]
    why = why.removeprefix("bench-compare: ")
    where, sep, rest = why.partition(": ")
    raise ResultsError(where if sep else path, rest if sep else why)


def read_file(path, fields=None):
    """[Block] of PATH, read strictly against FIELDS (results.schema's
    by default), once bench-compare --check has found it whole."""
    compare_check(path)
    return Reader(path, fields or default_schema()).read()


def read_files(paths, fields=None):
    """[Block] of every file of PATHS, in order."""
    return [block for path in paths for block in read_file(path, fields)]
