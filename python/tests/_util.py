import os
import sys
from pathlib import Path

PYDIR = Path(__file__).resolve().parents[1]
REPO = PYDIR.parent
sys.path.insert(0, str(PYDIR))


import unittest  # noqa: E402

import czech_pub  # noqa: E402


class SharedEngineTest(unittest.TestCase):
    """One engine process for the test class (starting one takes seconds): each test's envs are
    handles of their own on `self.bridge`, freed when they close."""

    @classmethod
    def setUpClass(cls):
        cls.bridge = czech_pub.Bridge()

    @classmethod
    def tearDownClass(cls):
        cls.bridge.close()
