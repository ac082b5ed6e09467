"""A folder of images, read in name order (``--source DIR``), or one image file."""

from __future__ import annotations

from pathlib import Path

from zonkcam.errors import UserError
from zonkcam.sources.base import IMAGE_SUFFIXES, BadFrameError, Frame, check_image


def is_image_file(path: Path) -> bool:
    """Whether a file is an image: by its name, or by its first bytes (an image named
    like a video is still decoded as an image, within zonkcam's limits)."""
    from zonkcam.vision.imageio import image_size

    if path.suffix.lower() in IMAGE_SUFFIXES:
        return True
    try:
        with path.open("rb") as f:
            head = f.read(64 * 1024)
    except OSError:
        return False
    return image_size(head) is not None or head[:3] == b"\xff\xd8\xff"


class ImageFolderSource:
    """Every image in a folder, in name order, or the one image file `folder` names. A
    file that will not decode whole (empty, truncated, not an image) is a BadFrameError
    for that frame; the next read goes on with the next file."""

    def __init__(self, folder: str | Path, fps: float = 30.0) -> None:
        self.folder = Path(folder)
        if self.folder.is_dir():
            self.files = sorted(
                p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
            )
            self.name = f"folder {self.folder}"
        else:
            self.files, self.name = [self.folder], f"image {self.folder}"
        if not self.files:
            raise UserError(f"no images in {self.folder}")
        self.fps, self._next = fps, 0
        self.spec = str(self.folder)

    def read(self) -> Frame | None:
        from zonkcam.vision.imageio import ImageFileError, load_image

        if self._next >= len(self.files):
            return None
        path, index = self.files[self._next], self._next
        self._next += 1
        try:
            image = load_image(path)
        except ImageFileError as exc:
            raise BadFrameError(f"{path.name}: {exc}") from None
        return Frame(check_image(image, path.name), index, index / self.fps)

    def close(self) -> None:
        pass
