"""Pictures as bytes for a chat.

Photos are JPEG: chats re-encode every photo anyway, libjpeg-turbo writes a table
picture in a few milliseconds where a palette PNG needs a slow colour quantisation,
and flat felt and cards stay under the size limit at quality 88 (a crowded
table at a lower quality). Files written
for people (the `picture` command, the docs) are palette PNGs: small and exact.
"""

from __future__ import annotations

import io

from PIL import Image

PHOTO_QUALITIES = (88, 80, 70, 60)
MAX_PHOTO = 120 * 1024
"""The most a photo may weigh; a crowded table is saved at a lower quality to stay under it."""


def photo_bytes(image: Image.Image) -> bytes:
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    for quality in PHOTO_QUALITIES:
        out = io.BytesIO()
        rgb.save(out, "JPEG", quality=quality, subsampling="4:2:0")
        if out.tell() <= MAX_PHOTO:
            break
    return out.getvalue()


def png_bytes(image: Image.Image, colors: int = 256) -> bytes:
    """A palette PNG: a fraction of the size of a full-colour one, with no visible loss."""
    out = io.BytesIO()
    paletted = image.convert("RGB").quantize(
        colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    paletted.save(out, "PNG", optimize=True)
    return out.getvalue()
