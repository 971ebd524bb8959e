import pytest


@pytest.fixture(scope="session")
def torch():
    return pytest.importorskip("torch")
