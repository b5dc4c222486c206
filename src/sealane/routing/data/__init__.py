"""The engine's shipped data: where the files live (:mod:`.files`) and what is in them
(:mod:`.formats`, the one declaration the offline build writes and the engine reads)."""

from .files import data_dir, mapped_npz

__all__ = ["data_dir", "mapped_npz"]
