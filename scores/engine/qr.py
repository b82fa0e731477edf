"""QR codes of links, drawn on the server with segno: as SVG for a page, as text for a terminal."""

from __future__ import annotations

import io

import segno


def svg(text: str) -> bytes:
    """A QR code of ``text`` as a standalone SVG, dark on white with its quiet zone, scaled by the page."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=4, border=4, xmldecl=False, svgclass=None, lineclass=None, dark="#000", light="#fff"
    )
    return out.getvalue()


def terminal(text: str) -> str:
    """A QR code of ``text`` drawn with block characters, for a terminal."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()
