"""Count code lines per module under sciax/ and enforce a per-file cap.

A code line is a line that holds something besides blank space, a comment or
a docstring.  Run ``python tools/sz.py`` for a table sorted by size; the exit
status is 1 when any file is over the cap (1,500 lines), so CI can run it.
The cap keeps modules readable: split a family of primitives before it grows
into one of the god-modules listed in STYLE.md section 6.7.
"""

from __future__ import annotations

import argparse
import ast
import io
import pathlib
import sys
import tokenize

CAP = 1500
ROOT = pathlib.Path(__file__).resolve().parent.parent


def _docstring_lines(tree: ast.AST) -> set[int]:
    """Line numbers covered by module, class and function docstrings."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                             ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    return lines


def count_code_lines(source: str) -> int:
    """Number of lines of ``source`` that carry code tokens outside docstrings.

    Examples
    --------
    >>> count_code_lines("'''Doc.'''\\n\\n# note\\nx = 1  # one\\n")
    1
    """
    skip = _docstring_lines(ast.parse(source))
    ignorable = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                 tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER}
    code: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in ignorable:
            continue
        # A multi-line token (a long string) counts on every line it spans.
        code.update(range(tok.start[0], tok.end[0] + 1))
    return len(code - skip)


def sizes(root: pathlib.Path = ROOT / "sciax") -> dict[str, int]:
    """Code-line counts of every ``.py`` file under ``root``, keyed by relative path."""
    return {str(p.relative_to(root.parent)): count_code_lines(p.read_text())
            for p in sorted(root.rglob("*.py"))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=int, default=CAP)
    parser.add_argument("--quiet", action="store_true", help="print only offenders")
    args = parser.parse_args(argv)
    counts = sizes()
    over = {f: n for f, n in counts.items() if n > args.cap}
    if not args.quiet:
        for f, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"{n:6d}  {f}")
        print(f"{sum(counts.values()):6d}  total in {len(counts)} files")
    for f, n in over.items():
        print(f"{f}: {n} code lines, over the cap of {args.cap}", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
