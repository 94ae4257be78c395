"""Shared fixtures of the pmucat Python tests (run from ctest with PYTHONPATH=<build>/python
and the source root as the working directory)."""

import os
from pathlib import Path

import pytest

import pmucat

ROOT = Path(os.environ.get("PMUCAT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
FIXTURES = ROOT / "fixtures" / "sysfs"


@pytest.fixture(scope="session")
def spr() -> pmucat.Catalog:
    return pmucat.Catalog.open(sysfs=str(FIXTURES / "intel-spr"))


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES
