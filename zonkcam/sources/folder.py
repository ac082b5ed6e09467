"""A folder of images, read in name order (``--source DIR``)."""

from __future__ import annotations

from pathlib import Path

from zonkcam.errors import UserError
from zonkcam.sources.base import IMAGE_SUFFIXES, BadFrameError, Frame, check_image


class ImageFolderSource:
    """Every image in a folder, in name order. A file that will not decode whole (empty,
    truncated, not an image) is a BadFrameError for that frame; the next read goes on
    with the next file."""

    demo = False

    def __init__(self, folder: str | Path, fps: float = 30.0) -> None:
        self.folder = Path(folder)
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise UserError(f"no images in {self.folder}")
        self.name, self.fps, self._next = f"folder {self.folder}", fps, 0
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
