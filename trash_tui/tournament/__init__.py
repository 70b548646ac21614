"""Bot tournaments: configuration, schedule, running, statistics."""
