"""The play mat: its layout (``layout``: the zones, markers and board images, drawn as a
printable mat) and finding it in a camera image (``calibrate``)."""
