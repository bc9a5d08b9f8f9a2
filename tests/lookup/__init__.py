"""Tests of the lookup stage (``ascend_reflint.lookup``)."""
