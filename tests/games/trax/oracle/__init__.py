"""The Trax engine as it was before its speed-up: see rules.py."""
