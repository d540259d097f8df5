"""Real engines the later notebooks start: PostgreSQL with pgvector."""
