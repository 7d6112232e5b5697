"""The validator: replays records through the engines and reports what is wrong, where,
with a rule code."""
