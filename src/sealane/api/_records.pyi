"""Type stub of the compiled deflate for fixed-width records (``_records.c``)."""

def deflate_records(
    data: bytes | memoryview, history: bytes | memoryview, width: int, /
) -> bytes: ...
