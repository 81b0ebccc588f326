"""Pictures as bytes for a chat.

Photos are JPEG: chats re-encode every photo anyway, libjpeg-turbo writes a table
picture in a few milliseconds where a palette PNG needs a slow colour quantisation,
and flat felt and cards stay well under the size limit at quality 88. Files written
for people (the `picture` command, the docs) are palette PNGs: small and exact.
"""

from __future__ import annotations

import io

from PIL import Image

PHOTO_QUALITY = 88


def photo_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=PHOTO_QUALITY, optimize=False, subsampling="4:2:0")
    return out.getvalue()


def png_bytes(image: Image.Image, colors: int = 256) -> bytes:
    """A palette PNG: a fraction of the size of a full-colour one, with no visible loss."""
    out = io.BytesIO()
    paletted = image.convert("RGB").quantize(
        colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    paletted.save(out, "PNG", optimize=True)
    return out.getvalue()
