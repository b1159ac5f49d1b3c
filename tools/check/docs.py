#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Renders each reStructuredText file given with docutils, as a reader's
tool would, and fails on any warning or error: a malformed table, an
inline literal without its end, a broken reference.  Prints each
report as FILE:LINE: LEVEL: message, then one line per file.  Exit 0
when every file rendered clean, 1 otherwise, 2 on bad usage."""

import io
import sys

import docutils.core
import docutils.utils


def render(path):
    """The reports of rendering PATH to HTML, warnings and worse."""
    stream = io.StringIO()
    settings = {
        'report_level': docutils.utils.Reporter.WARNING_LEVEL,
        'halt_level': docutils.utils.Reporter.SEVERE_LEVEL + 1,
        'warning_stream': stream,
        # the project's pages include nothing and carry no raw HTML
        'file_insertion_enabled': False,
        'raw_enabled': False,
        'input_encoding': 'utf-8',
        'traceback': True,
    }
    with open(path, encoding='utf-8') as f:
        docutils.core.publish_string(f.read(), source_path=path,
                                     writer_name='html',
                                     settings_overrides=settings)
    return [line for line in stream.getvalue().splitlines() if line]


def main(paths):
    if not paths:
        print('usage: check-docs.py FILE.rst...', file=sys.stderr)
        return 2
    bad = 0
    for path in paths:
        reports = render(path)
        for line in reports:
            print(line)
        print('%s: %s' % (path, 'clean' if not reports else
                          '%d report line(s)' % len(reports)))
        bad += bool(reports)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
