"""Shared helpers of the sigagg Python tests."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
"""The repository root."""


def vectors_dir() -> Path:
    """The shared known-answer vectors: $SIGAGG_VECTORS, or the repository's copy."""
    return Path(os.environ.get("SIGAGG_VECTORS", ROOT / "vectors"))


@pytest.fixture(scope="session")
def vectors() -> Path:
    path = vectors_dir()
    assert path.is_dir(), f"no vectors at {path}"
    return path
