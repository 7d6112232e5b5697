"""Bot tournaments: configuration, schedule, opening suites, the game loop with clocks and
adjudication, workers, executors, the durable store and the runner."""
