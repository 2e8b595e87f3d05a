"""Small PNGs of line plots for the figures committed to the repository."""


def shrink_png(path):
    """Line plots need few colours: a 64-colour palette makes the PNGs about
    3x smaller (they are committed under docs/ and results/). Pillow comes with
    matplotlib."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)
